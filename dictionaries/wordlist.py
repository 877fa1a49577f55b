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
    def casing(self) -> Casing:
        """How the list writes its words, decided by majority: a few stray lines do not decide it."""
        lower = upper = 0
        for word in self.words:
            if any(c.islower() for c in word):
                lower += 1
            elif any(c.isupper() for c in word):
                upper += 1
        return Casing(lower, upper)

    @property
    def has_lower_case(self) -> bool:
        """True if most words are written in lower case (so capitalised words in it are names)."""
        return self.casing.lower_case


@dataclass(frozen=True)
class Casing:
    """Words with some lower-case letter, and words with capitals only; the majority decides.

    In a lower-case list a capitalised word is a name or an abbreviation; in an all-capitals list
    (a Scrabble list) every word is kept, and a stray lower-case line is read as upper case."""

    lower: int
    upper: int

    @property
    def lower_case(self) -> bool:
        """True when more words have lower-case letters than are written in capitals only."""
        return self.lower > self.upper

    def text(self) -> str:
        """``lower case (50 of 51 words)`` or ``upper case (...)``: for the build report."""
        total = self.lower + self.upper
        if self.lower_case:
            return f"lower case ({self.lower:,} of {total:,} words): capitalised words are dropped as names"
        return f"upper case ({self.upper:,} of {total:,} words in capitals): every word is kept"


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
    return parse_word_list(data, source, encoding)


def parse_word_list(data: bytes, source: Path, encoding: str | None = None) -> WordList:
    """A word list from the bytes of a file (``source`` names it in errors), as ``read_word_list`` reads it."""
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
