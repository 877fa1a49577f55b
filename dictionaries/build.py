"""Compile a word list into the binary lexicon of a ruleset, with a report of what was kept.

``wordfeud-bot dict build RULESET WORDLIST`` (also ``python -m dictionaries build``) reads a plain
or gzipped list, normalises it for the ruleset (see ``dictionaries.normalize``), builds the minimal
DAWG and writes it, by default into the user's lexicon directory where the bot finds it. The
report at the end counts the words kept, the duplicates, and the words dropped by reason.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from dictionaries import bundled_path
from dictionaries.abbreviations import REASONS as ABBREVIATION_REASONS
from dictionaries.cspell import fetch as fetch_cspell
from dictionaries.cspell import read_package
from dictionaries.normalize import Drop, Normalizer
from dictionaries.npmlist import read_npm_list
from dictionaries.npmpack import fetch, split_spec
from dictionaries.registry import user_lexicon_path
from dictionaries.sources import source_for
from dictionaries.wordlist import WordList, read_word_list
from engine.errors import EngineError, LexiconError
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from tqdm import tqdm

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
    #: Whether the abbreviation rules ran, and the first words each one dropped.
    abbreviation_rules: str = ""
    examples: dict[str, list[str]] = field(default_factory=dict)
    output: Path | None = None
    file_bytes: int = 0
    edges: int = 0
    seconds: float = 0.0

    @property
    def abbreviations(self) -> int:
        """Words dropped as abbreviations, by every rule together."""
        return sum(self.dropped[reason] for reason in ABBREVIATION_REASONS)

    def text(self) -> str:
        """The report as printed at the end of a build."""
        rows = [
            f"source:      {self.source} ({self.encoding}, {self.lines:,} lines)",
            f"ruleset:     {self.ruleset.id} {self.ruleset.code} ({self.ruleset.name})",
            f"casing:      {self.casing}",
            f"kept:        {self.kept:,} words ({self.folded:,} of them with accents folded)",
            f"duplicates:  {self.duplicates:,} (the same word twice after normalising)",
        ]
        if self.abbreviation_rules:
            rows.append(f"abbreviations: {self.abbreviation_rules}; dropped {self.abbreviations:,}")
        for reason, count in self.dropped.most_common():
            shown = self.examples.get(reason, [])
            more = f" (for example {', '.join(shown)})" if shown else ""
            rows.append(f"dropped:     {count:,} {reason}{more}")
        if self.bad_characters:
            common = ", ".join(f"{c!r} {n:,}" for c, n in self.bad_characters.most_common(12))
            rows.append(f"             characters not in the alphabet, most common first: {common}")
        if self.output is not None:
            rows.append(f"written:     {self.output} ({self.file_bytes:,} bytes, {self.edges:,} edges)")
        rows.append(f"time:        {self.seconds:.1f} s")
        return "\n".join(rows)


#: ``--abbreviations``: drop them from lists written in lower case (auto), from every list, or never.
ABBREVIATION_MODES = ("auto", "drop", "keep")


def build_lexicon(
    ruleset: Ruleset,
    source: Path | WordList,
    output: Path | None,
    *,
    encoding: str | None = None,
    progress: Progress | None = None,
    add: Sequence[Path] = (),
    abbreviations: str = "auto",
) -> tuple[Dawg, BuildReport]:
    """Normalise ``source`` (a file or words already read) and the lists of ``add`` for ``ruleset``,
    build the DAWG and (if ``output``) save it atomically.

    Raises LexiconError naming the file when a list cannot be read or none keeps a word, and
    ValueError for an unknown ``abbreviations`` mode.
    """
    if abbreviations not in ABBREVIATION_MODES:
        raise ValueError(f"abbreviations must be one of {', '.join(ABBREVIATION_MODES)}, got {abbreviations!r}")
    start = time.perf_counter()
    wordlist = source if isinstance(source, WordList) else read_word_list(source, encoding)
    lists = [wordlist, *(read_word_list(path, encoding) for path in add)]
    casing = wordlist.casing
    report = BuildReport(
        wordlist.path, ruleset, encoding=wordlist.encoding, casing=casing.text(), lines=sum(len(w.words) for w in lists)
    )
    normalizer = Normalizer.for_ruleset(ruleset)
    format_word = ruleset.alphabet.format_word
    seen: set[tuple[int, ...]] = set()
    total = report.lines
    done = 0
    for listed in lists:
        lower = listed.casing.lower_case
        drop_abbreviations = abbreviations == "drop" or (abbreviations == "auto" and lower)
        if listed is wordlist:
            why = "an all-capitals list is a game list" if abbreviations == "auto" else "--abbreviations keep"
            rules = "dropped by the rules of data/abbreviations.toml"
            report.abbreviation_rules = rules if drop_abbreviations else f"kept ({why})"
        for raw in listed.words:
            result = normalizer.normalize(raw, list_has_lower_case=lower, abbreviations=drop_abbreviations)
            if isinstance(result, Drop):
                report.dropped[result.reason] += 1
                if result.reason in ABBREVIATION_REASONS:
                    shown = report.examples.setdefault(result.reason, [])
                    if len(shown) < 8:
                        shown.append(result.detail)
                elif result.detail and len(result.detail) == 1:
                    report.bad_characters[result.detail] += 1
            elif result in seen:
                report.duplicates += 1
            else:
                seen.add(result)
                if format_word(result) != raw.upper():
                    report.folded += 1
            done += 1
            if progress is not None and (done % 50_000 == 0 or done == total):
                progress("reading", done, total)
    report.kept = len(seen)
    if not seen:
        raise LexiconError(
            f"word list {wordlist.path} has no word that ruleset {ruleset.code} can play:\n{report.text()}"
        )
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
    """A progress callback drawing a tqdm bar per phase (reading, building) on standard error.

    Where the stream is not a terminal (a log file), it writes one line when each phase ends.
    """
    out = stream or sys.stderr
    if not out.isatty():

        def log(phase: str, done: int, total: int) -> None:
            if done == total:
                print(f"{phase}: {done:,} done", file=out, flush=True)

        return log

    bars: dict[str, tqdm[NoReturn]] = {}

    def show(phase: str, done: int, total: int) -> None:
        bar = bars.get(phase)
        if bar is None:
            from tqdm import tqdm  # noqa: PLC0415 - when a bar is drawn: every command would pay ~40 ms

            bar = bars[phase] = tqdm(total=total, desc=phase, unit=" words", file=out, dynamic_ncols=True)
        bar.update(done - bar.n)
        if done == total:
            bar.close()

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
        "--cspell",
        action="store_true",
        help="compile the ruleset's @cspell/dict-* package from the npm registry, fetched with npm (see `dict list`)",
    )
    parser.add_argument(
        "--cspell-package",
        type=Path,
        metavar="FILE",
        help="with --cspell: a package tarball already downloaded (`npm pack @cspell/dict-...`) instead of fetching",
    )
    parser.add_argument(
        "--cspell-version", help="with --cspell: the package version to fetch (default: the one measured here)"
    )
    parser.add_argument(
        "--npm",
        nargs="?",
        const="",
        metavar="NAME[@VERSION]",
        help="compile a plain word-list package of the npm registry, fetched with npm (without NAME: the ruleset's "
        "own, see data/sources.toml, e.g. word-list 4.1.0 merged with ENABLE for en)",
    )
    parser.add_argument(
        "--npm-package",
        type=Path,
        metavar="FILE",
        help="with --npm: a package tarball already downloaded (`npm pack NAME@VERSION`) instead of fetching",
    )
    parser.add_argument(
        "--npm-file",
        metavar="PATH",
        help="with --npm: the word-list file inside the package (default: its only .txt or .txt.gz file)",
    )
    parser.add_argument(
        "--add",
        type=Path,
        action="append",
        default=[],
        metavar="LIST",
        help="also take the words of this list (repeatable), e.g. the learned words of `wordfeud-bot learned --export`",
    )
    parser.add_argument(
        "--abbreviations",
        choices=ABBREVIATION_MODES,
        default="auto",
        help="drop abbreviations by the language's rules (data/abbreviations.toml): auto (default) from lists "
        "written in lower case only, drop from any list, keep them all",
    )
    parser.add_argument(
        "-o", "--output", type=Path, help="where to write the lexicon (default: the user lexicon directory)"
    )
    parser.add_argument("--encoding", help="text encoding of the list (default: UTF-8, else Latin-1)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


#: How error messages start: the same as every other command of wordfeud-bot.
_PREFIX = "wordfeud-bot dict build"


def _source_list(args: argparse.Namespace, ruleset: Ruleset, scratch: Path) -> Path | WordList:
    """The list ``dict build`` compiles: a file, the Debian list, a cspell package's or an npm word list's words.

    Raises LexiconError (a CspellError for a package) saying what is missing and how to get it."""
    info = source_for(ruleset.id)
    if args.debian:
        if info.debian_file is None:
            raise LexiconError(f"no Debian word list is known for {ruleset.code}; {info.better or info.build_command}")
        if not info.debian_file.is_file():
            raise LexiconError(
                f"{info.debian_file} not found; install it with: sudo apt-get install {info.debian_package}"
            )
        return info.debian_file
    if args.cspell:
        tarball = args.cspell_package
        if tarball is None:
            if info.cspell_package is None:
                raise LexiconError(
                    f"no @cspell/dict-* package is known for {ruleset.code}; download one yourself and pass it "
                    "with --cspell-package FILE"
                )
            version = args.cspell_version or info.cspell_version
            if not args.quiet:
                print(f"fetching {info.cspell_package}@{version} with npm ...", file=sys.stderr, flush=True)
            tarball = fetch_cspell(info.cspell_package, version, scratch)
        if not args.quiet:
            print(f"reading the trie of {tarball} ...", file=sys.stderr, flush=True)
        package = read_package(tarball)
        if not args.quiet:
            print(f"package: {package.text()}", file=sys.stderr, flush=True)
        return WordList(Path(f"{package.name}@{package.version}"), tuple(package.words), "utf-8 (cspell trie)")
    if args.npm is not None:
        return _npm_list(args, ruleset, scratch)
    path: Path = args.wordlist
    return path


def _npm_list(args: argparse.Namespace, ruleset: Ruleset, scratch: Path) -> WordList:
    """The words of a plain word-list npm package: ``--npm-package FILE``, or ``--npm NAME[@VERSION]``
    fetched with npm (without NAME: the ruleset's own package of data/sources.toml, and the shipped
    lists it is merged with go into ``args.add``)."""
    info = source_for(ruleset.id)
    file = args.npm_file
    tarball = args.npm_package
    if not args.npm:
        if info.npm_package is None and tarball is None:
            raise LexiconError(
                f"no npm word-list package is known for {ruleset.code}; name one: --npm NAME[@VERSION]"
            )
        file = file or info.npm_file
        args.add = [*(bundled_path(name) for name in info.npm_add), *args.add]
    if tarball is None:
        name, version = split_spec(args.npm) if args.npm else (str(info.npm_package), info.npm_version)
        if not args.quiet:
            shown = f"{name}@{version}" if version else name
            print(f"fetching {shown} with npm ...", file=sys.stderr, flush=True)
        tarball = fetch(name, version, scratch, local_option="--npm-package FILE")
    package = read_npm_list(tarball, file, args.encoding)
    if not args.quiet:
        print(f"package: {package.text()}", file=sys.stderr, flush=True)
    return package.words


def run_build(args: argparse.Namespace) -> int:
    """``dict build``: returns 0, or 1 with a message naming the problem (2 for a bad command line)."""
    try:
        ruleset = Ruleset.for_code(str(args.ruleset))
    except EngineError as exc:
        print(f"{_PREFIX}: {exc}", file=sys.stderr)
        return 2
    args.cspell = args.cspell or args.cspell_package is not None
    if args.npm is None and (args.npm_package is not None or args.npm_file is not None):
        args.npm = ""
    if [args.debian, args.cspell, args.npm is not None, args.wordlist is not None].count(True) != 1:
        print(f"{_PREFIX}: give one of a WORDLIST, --debian, --cspell or --npm", file=sys.stderr)
        return 2
    output = args.output or user_lexicon_path(ruleset)
    try:
        with tempfile.TemporaryDirectory(prefix="wordfeud-cspell-") as scratch:
            source = _source_list(args, ruleset, Path(scratch))
            _, report = build_lexicon(
                ruleset,
                source,
                output,
                encoding=args.encoding,
                progress=None if args.quiet else progress_bar(),
                add=args.add,
                abbreviations=args.abbreviations,
            )
    except LexiconError as exc:
        print(f"{_PREFIX}: {exc}", file=sys.stderr)
        return 1
    print(report.text())
    return 0
