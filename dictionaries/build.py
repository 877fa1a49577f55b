"""Compile the shipped English word list into the binary lexicon the engine loads.

Run as ``python -m dictionaries.build``. Reads ``dictionaries/en/enable.txt.gz``, keeps the words
that ruleset 5 (English) can spell with 2 to 15 tiles, builds the minimal DAWG and writes
``dictionaries/en/enable.dawg``. The file's header records the SHA-256 of the sorted word list, and
``tests/test_dictionaries.py`` checks it against the shipped list, so rebuild after changing the list.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from pathlib import Path

from dictionaries import ENGLISH_DAWG, ENGLISH_WORDS, bundled_path
from engine.bench import read_word_list
from engine.dawg import Dawg
from engine.rules import Ruleset

RULESET_ID = 5


def _count_lines(path: Path) -> int:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return sum(1 for line in handle if line.strip())


def build(source: Path, output: Path, *, ruleset_id: int = RULESET_ID, quiet: bool = False) -> Dawg:
    """Compile ``source`` (a plain or gzipped word list) into ``output``; prints a summary."""
    rules = Ruleset.for_id(ruleset_id)
    start = time.perf_counter()
    words = read_word_list(source, rules.alphabet)
    kept = len(set(words))
    total = _count_lines(source)

    def progress(done: int) -> None:
        if not quiet:
            print(f"\r  {done:,} / {kept:,} words", end="", file=sys.stderr, flush=True)

    lexicon = Dawg.build(words, rules.alphabet, progress=progress)
    if not quiet:
        print(file=sys.stderr)
    output.parent.mkdir(parents=True, exist_ok=True)
    lexicon.save(output)
    elapsed = time.perf_counter() - start
    print(f"source:     {source} ({total:,} words)")
    print(f"ruleset:    {rules.id} ({rules.name})")
    print(f"words kept: {kept:,} (2-15 tiles of the alphabet; {total - kept:,} left out)")
    print(f"edges:      {len(lexicon.child):,}")
    print(f"written:    {output} ({output.stat().st_size:,} bytes)")
    print(f"time:       {elapsed:.1f} s")
    return lexicon


def main(argv: list[str] | None = None) -> int:
    doc = (__doc__ or "").replace("``", "")
    parser = argparse.ArgumentParser(
        prog="python -m dictionaries.build",
        description=doc.split("\n\n")[0],
        epilog=doc.split("\n\n", 1)[1] if "\n\n" in doc else None,
    )
    parser.add_argument(
        "--source",
        type=Path,
        default=None,
        help=f"word list to compile, plain or .gz, one word per line (default: the shipped {ENGLISH_WORDS})",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help=f"where to write the compiled lexicon (default: dictionaries/{ENGLISH_DAWG})",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line on standard error")
    args = parser.parse_args(argv)
    source: Path = args.source or bundled_path(ENGLISH_WORDS)
    if not source.is_file():
        parser.error(f"word list {source} does not exist")
    output: Path = args.output or Path(__file__).resolve().parent / ENGLISH_DAWG
    build(source, output, quiet=args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
