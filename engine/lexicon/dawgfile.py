"""The binary file of a lexicon: how ``engine.lexicon.dawg.Dawg``'s arrays are written and read back.

File: a fixed header (magic, format version, sizes, word count, CRC-32 of the payload, SHA-256 of
the source word list), a 16-bit length and the alphabet's symbols joined by U+001F, then the
zlib-compressed arrays (``child``, ``mask``, ``ends``) as little-endian ``uint32``.

Reading checks everything the header and the payload can say about themselves (magic, version,
sizes, alphabet, CRC, array lengths) and raises LexiconError naming the file; what the arrays mean
(every edge inside them, no cycle) is checked by ``Dawg.from_bytes`` on the lexicon it makes.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import LexiconError
from engine.rules.tiles import Alphabet

MAGIC = b"WFDAWG\r\n"
FORMAT_VERSION = 1
# magic, version, edge count, word count, payload length, payload crc32, source sha256
_HEADER = struct.Struct("<8sHIIII32s")
_ALPHABET_LEN = struct.Struct("<H")


@dataclass(frozen=True)
class FileContents:
    """What a lexicon file holds: the three arrays, the word count and the source words' checksum
    (``decode`` gives the arrays as ``array('I')``)."""

    child: Sequence[int]
    mask: Sequence[int]
    ends: Sequence[int]
    word_count: int
    checksum: bytes


def encode(contents: FileContents, alphabet: Alphabet) -> bytes:
    """The bytes of a lexicon file."""
    child, word_count, checksum = contents.child, contents.word_count, contents.checksum
    arrays = [child, contents.mask, contents.ends]
    raw = b"".join(_little_endian(a) for a in arrays)
    payload = zlib.compress(raw, 9)
    symbols = "\x1f".join(alphabet.symbols).encode("utf-8")
    header = _HEADER.pack(
        MAGIC,
        FORMAT_VERSION,
        len(child),
        word_count,
        len(payload),
        zlib.crc32(payload),
        checksum,
    )
    return header + _ALPHABET_LEN.pack(len(symbols)) + symbols + payload


def decode(data: bytes, alphabet: Alphabet, *, name: str = "lexicon") -> FileContents:
    """Read a lexicon file's contents; raises LexiconError if it is corrupt or for another alphabet."""
    if len(data) < _HEADER.size + _ALPHABET_LEN.size:
        raise LexiconError(f"{name}: file is truncated ({len(data)} bytes)")
    magic, version, edges, words, length, crc, checksum = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise LexiconError(f"{name}: not a lexicon file (bad magic {magic!r})")
    if version != FORMAT_VERSION:
        raise LexiconError(
            f"{name}: lexicon format version {version}, this program reads version {FORMAT_VERSION}; rebuild it"
        )
    offset = _HEADER.size
    (sym_len,) = _ALPHABET_LEN.unpack_from(data, offset)
    offset += _ALPHABET_LEN.size
    expected = offset + sym_len + length
    if len(data) != expected:  # before the alphabet: a cut file must not be blamed on it
        problem = "truncated" if len(data) < expected else "padded"
        raise LexiconError(
            f"{name}: file is {problem} or corrupt ({len(data):,} bytes, its header says {expected:,}); build it again"
        )
    try:
        symbols = tuple(data[offset : offset + sym_len].decode("utf-8").split("\x1f"))
    except UnicodeDecodeError:
        raise LexiconError(f"{name}: corrupt alphabet in header") from None
    offset += sym_len
    if symbols != alphabet.symbols:
        raise LexiconError(
            f"{name}: built for alphabet {''.join(symbols)!r}, but the ruleset's alphabet is "
            f"{''.join(alphabet.symbols)!r}"
        )
    payload = data[offset:]
    if len(payload) != length:
        raise LexiconError(f"{name}: file is truncated or padded (payload {len(payload)} bytes, header says {length})")
    if zlib.crc32(payload) != crc:
        raise LexiconError(f"{name}: checksum mismatch, the file is corrupt")
    try:
        raw = zlib.decompress(payload)
    except zlib.error as exc:
        raise LexiconError(f"{name}: corrupt payload ({exc})") from None
    if len(raw) != 4 * (3 * edges + 2):
        raise LexiconError(f"{name}: payload size does not match {edges} edges")
    child = _from_little_endian(raw[: 4 * edges])
    mask = _from_little_endian(raw[4 * edges : 4 * (2 * edges + 1)])
    ends = _from_little_endian(raw[4 * (2 * edges + 1) :])
    return FileContents(child, mask, ends, words, checksum)


def _little_endian(values: Sequence[int]) -> bytes:
    b = array("I", values)
    if sys.byteorder == "little":
        return b.tobytes()
    b.byteswap()
    return b.tobytes()


def _from_little_endian(raw: bytes) -> array[int]:
    a = array("I")
    a.frombytes(raw)
    if sys.byteorder != "little":
        a.byteswap()
    return a
