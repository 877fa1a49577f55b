"""Reading word-list files: plain or gzipped, UTF-8 or Latin-1, one word per line.

A line may also be a hunspell-expanded ``word/FLAGS`` entry or a tab-separated record; the word is
its first field either way.
"""

from __future__ import annotations

import gzip
import zlib
from dataclasses import dataclass
from pathlib import Path

from engine.errors import LexiconError

GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True)
class WordList:
    """The words of a file (first field of each line, stripped) and the encoding they were read in."""

    path: Path
    words: tuple[str, ...]
    encoding: str

    @property
    def has_lower_case(self) -> bool:
        """True if any word is written in lower case (so capitalised words are names)."""
        return any(any(c.islower() for c in word) for word in self.words)


def read_word_list(path: str | Path, encoding: str | None = None) -> WordList:
    """Read a word list; raises LexiconError naming the file when it cannot be read or decoded.

    Without ``encoding``, UTF-8 is tried first and Latin-1 (ISO-8859-1, as in several Debian
    lists) second. Gzip is recognised by its magic bytes, whatever the file is called.
    """
    source = Path(path)
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise LexiconError(f"cannot read word list {source}: {exc.strerror or exc}") from None
    if data.startswith(GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise LexiconError(f"word list {source} looks gzipped but cannot be unpacked: {exc}") from None
    if encoding is None:
        try:
            text, used = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            text, used = data.decode("latin-1"), "latin-1"
    else:
        try:
            text, used = data.decode(encoding), encoding
        except LookupError:
            raise LexiconError(f"unknown text encoding {encoding!r} for {source}") from None
        except UnicodeDecodeError as exc:
            raise LexiconError(
                f"word list {source} is not valid {encoding}: {exc.reason} at byte {exc.start}"
            ) from None
    if "\x00" in text:
        raise LexiconError(f"word list {source} is not a text file (it holds NUL bytes)")
    words = tuple(line.split("\t", 1)[0].split("/", 1)[0].strip() for line in text.splitlines())
    return WordList(source, words, used.lower())
