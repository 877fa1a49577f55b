"""Compile a word list into the binary lexicon of a ruleset, with a report of what was kept.

``wordfeud-bot dict build RULESET WORDLIST`` (also ``python -m dictionaries build``) reads a plain
or gzipped list, normalises it for the ruleset (see ``dictionaries.normalize``), builds the minimal
DAWG and writes it, by default into the user's lexicon directory where the bot finds it. The
report at the end counts the words kept, the duplicates, and the words dropped by reason.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from dictionaries.normalize import Drop, Normalizer
from dictionaries.registry import user_lexicon_path
from dictionaries.sources import source_for
from dictionaries.wordlist import read_word_list
from engine.dawg import Dawg
from engine.errors import EngineError, LexiconError
from engine.rules import Ruleset

#: progress(phase, done, total)
Progress = Callable[[str, int, int], None]


@dataclass
class BuildReport:
    """What a build read, kept and dropped, and what it wrote."""

    source: Path
    ruleset: Ruleset
    encoding: str = ""
    casing: str = ""
    lines: int = 0
    kept: int = 0
    duplicates: int = 0
    folded: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    bad_characters: Counter[str] = field(default_factory=Counter)
    output: Path | None = None
    file_bytes: int = 0
    edges: int = 0
    seconds: float = 0.0

    def text(self) -> str:
        """The report as printed at the end of a build."""
        rows = [
            f"source:      {self.source} ({self.encoding}, {self.lines:,} lines)",
            f"ruleset:     {self.ruleset.id} {self.ruleset.code} ({self.ruleset.name})",
            f"casing:      {self.casing}",
            f"kept:        {self.kept:,} words ({self.folded:,} of them with accents folded)",
            f"duplicates:  {self.duplicates:,} (the same word twice after normalising)",
        ]
        for reason, count in self.dropped.most_common():
            rows.append(f"dropped:     {count:,} {reason}")
        if self.bad_characters:
            common = ", ".join(f"{c!r} {n:,}" for c, n in self.bad_characters.most_common(12))
            rows.append(f"             characters not in the alphabet, most common first: {common}")
        if self.output is not None:
            rows.append(f"written:     {self.output} ({self.file_bytes:,} bytes, {self.edges:,} edges)")
        rows.append(f"time:        {self.seconds:.1f} s")
        return "\n".join(rows)


def build_lexicon(
    ruleset: Ruleset,
    source: Path,
    output: Path | None,
    *,
    encoding: str | None = None,
    progress: Progress | None = None,
) -> tuple[Dawg, BuildReport]:
    """Normalise ``source`` for ``ruleset``, build its DAWG and (if ``output``) save it atomically.

    Raises LexiconError naming the file when the list cannot be read or keeps no word.
    """
    start = time.perf_counter()
    wordlist = read_word_list(source, encoding)
    casing = wordlist.casing
    report = BuildReport(source, ruleset, encoding=wordlist.encoding, casing=casing.text(), lines=len(wordlist.words))
    normalizer = Normalizer.for_ruleset(ruleset)
    lower = casing.lower_case
    format_word = ruleset.alphabet.format_word
    seen: set[tuple[int, ...]] = set()
    total = len(wordlist.words)
    for i, raw in enumerate(wordlist.words, 1):
        result = normalizer.normalize(raw, list_has_lower_case=lower)
        if isinstance(result, Drop):
            report.dropped[result.reason] += 1
            if result.detail and len(result.detail) == 1:
                report.bad_characters[result.detail] += 1
        elif result in seen:
            report.duplicates += 1
        else:
            seen.add(result)
            if format_word(result) != raw.upper():
                report.folded += 1
        if progress is not None and (i % 50_000 == 0 or i == total):
            progress("reading", i, total)
    report.kept = len(seen)
    if not seen:
        raise LexiconError(f"word list {source} has no word that ruleset {ruleset.code} can play:\n{report.text()}")
    words = sorted(seen)
    del seen

    def building(done: int) -> None:
        if progress is not None:
            progress("building", done, len(words))

    dawg = Dawg.build(words, ruleset.alphabet, progress=building)
    report.edges = len(dawg.child)
    if output is not None:
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
            dawg.save(output)
        except OSError as exc:
            raise LexiconError(f"cannot write lexicon {output}: {exc.strerror or exc}") from None
        report.output = output
        report.file_bytes = output.stat().st_size
    report.seconds = time.perf_counter() - start
    return dawg, report


def progress_bar(stream: TextIO | None = None) -> Progress:
    """A progress callback drawing ``[#####.....]  50% building 84,000/168,000`` on standard error.

    Where the stream is not a terminal (a log file), it writes one line when each phase ends.
    """
    out = stream or sys.stderr
    if not out.isatty():

        def log(phase: str, done: int, total: int) -> None:
            if done == total:
                print(f"{phase}: {done:,} done", file=out, flush=True)

        return log

    def show(phase: str, done: int, total: int) -> None:
        fraction = done / total if total else 1.0
        bar = "#" * int(fraction * 30)
        print(f"\r[{bar:<30}] {fraction:4.0%} {phase} {done:,}/{total:,}   ", end="", file=out, flush=True)
        if phase == "building" and done == total:
            print(file=out)

    return show


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``dict build``."""
    parser.add_argument(
        "ruleset", help="ruleset code or id: en, en-us, nb, nn, nl, da, sv, sv-strict, es, fr, de, fi, pt or 0..12"
    )
    parser.add_argument(
        "wordlist",
        nargs="?",
        type=Path,
        help="word list: one word per line (any case; 'word/flags' and tab-separated lines use the first "
        "field), plain or gzipped, UTF-8 or Latin-1",
    )
    parser.add_argument(
        "--debian", action="store_true", help="compile the ruleset's Debian word list (see `dict list`)"
    )
    parser.add_argument(
        "-o", "--output", type=Path, help="where to write the lexicon (default: the user lexicon directory)"
    )
    parser.add_argument("--encoding", help="text encoding of the list (default: UTF-8, else Latin-1)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def run_build(args: argparse.Namespace) -> int:
    """``dict build``: returns 0, or 1 with a message naming the problem."""
    try:
        ruleset = Ruleset.for_code(str(args.ruleset))
    except EngineError as exc:
        print(f"dict build: {exc}", file=sys.stderr)
        return 2
    source_info = source_for(ruleset.id)
    if args.debian == (args.wordlist is not None):
        print("dict build: give either a WORDLIST or --debian (not both)", file=sys.stderr)
        return 2
    if args.debian:
        if source_info.debian_file is None:
            print(
                f"dict build: no Debian word list is known for {ruleset.code}; {source_info.better or ''}",
                file=sys.stderr,
            )
            return 1
        if not source_info.debian_file.is_file():
            print(
                f"dict build: {source_info.debian_file} not found; install it with: "
                f"sudo apt-get install {source_info.debian_package}",
                file=sys.stderr,
            )
            return 1
        wordlist = source_info.debian_file
    else:
        wordlist = args.wordlist
    output = args.output or user_lexicon_path(ruleset)
    try:
        _, report = build_lexicon(
            ruleset, wordlist, output, encoding=args.encoding, progress=None if args.quiet else progress_bar()
        )
    except LexiconError as exc:
        print(f"\ndict build: {exc}", file=sys.stderr)
        return 1
    print(report.text())
    return 0
