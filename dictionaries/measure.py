"""Measure the lexicon of every ruleset from every source here: ``python -m dictionaries.measure``.

Shipped lexicons are loaded as they are; each Debian list that is installed is built, and so is
each ``@cspell/dict-*`` package (fetched with npm, or taken from ``--cspell-dir``, a directory of
downloaded tarballs), into a temporary directory. It prints the Markdown table of
``dictionaries/README.md``: source, licence, words kept, words dropped as abbreviations, how many
of a dozen common inflected forms the lexicon has (``data/inflections.toml``), build seconds, load
milliseconds (best of 3) and the memory of the loaded lexicon (the growth of the process's resident
memory when a fresh process loads it and makes the C generator's copy, median of 3 processes; and
the bytes of its arrays and of the C copy, computed). A second table gives, for a ruleset with two
sources, the share of each lexicon's words the other has.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import defaultdict
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path

from dictionaries import bundled_path
from dictionaries.build import build_lexicon
from dictionaries.cspell import CspellError, fetch, read_package
from dictionaries.sources import source_for
from dictionaries.wordlist import WordList
from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

_MEMORY_PROBE = """
import sys
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset
from engine import native
def resident():
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * 4096
rules = Ruleset.for_code(sys.argv[2])
before = resident()
dawg = Dawg.load(sys.argv[1], rules.alphabet)
if native.NATIVE is not None:
    native.lexicon(dawg)
print(resident() - before)
"""


@cache
def _inflections() -> dict[str, list[str]]:
    raw = resources.files("dictionaries").joinpath("data", "inflections.toml").read_text(encoding="utf-8")
    return {str(k): [str(w) for w in v] for k, v in tomllib.loads(raw).items()}


def inflection_check(dawg: Dawg, ruleset: Ruleset) -> str:
    """``11/12``: how many of the language's common inflected forms the lexicon has."""
    language = ruleset.code.split("-")[0]
    forms = _inflections().get(language, [])
    return f"{sum(1 for form in forms if form in dawg)}/{len(forms)}" if forms else "-"


def load_ms(path: Path, ruleset: Ruleset) -> float:
    """The best of three loads, in milliseconds."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        Dawg.load(path, ruleset.alphabet)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def memory_mb(path: Path, ruleset: Ruleset) -> float:
    """Resident memory a fresh process gains by loading the lexicon (and its C copy): median of 3, MB."""
    gains = []
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", _MEMORY_PROBE, str(path), ruleset.code], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise LexiconError(f"measuring the memory of {path} failed: {done.stderr.strip()[-300:]}")
        gains.append(int(done.stdout.strip()))
    return statistics.median(gains) / 1e6


#: The word sets of the lexicons measured, per ruleset code: for the overlap of two sources.
_LAST: dict[str, list[tuple[str, frozenset[tuple[int, ...]]]]] = defaultdict(list)

#: What a build gave: words kept, words dropped as abbreviations, seconds.
Built = tuple[int, int, float]


def _row(label: str, source: str, licence: str, path: Path, ruleset: Ruleset, build: Built | None) -> str:
    dawg = Dawg.load(path, ruleset.alphabet)
    _LAST[ruleset.code].append((source, frozenset(dawg.words())))
    kept, dropped, seconds = build if build else (len(dawg), 0, 0.0)
    arrays = (dawg.memory_bytes() + 12 * (len(dawg.child) + 1)) / 1e6
    built = f"{seconds:.1f}" if build else "-"
    abbreviations = f"{dropped:,}" if build else "-"
    return (
        f"| {label} | {source} | {licence} | {kept:,} | {abbreviations} | {inflection_check(dawg, ruleset)} | "
        f"{built} | {load_ms(path, ruleset):.0f} | {memory_mb(path, ruleset):.1f} | {arrays:.1f} |"
    )


def _cspell_tarball(package: str, version: str, directory: Path | None, scratch: Path) -> Path | None:
    if directory is not None:
        wanted = f"{package.removeprefix('@').replace('/', '-')}-{version}.tgz"
        found = directory / wanted
        return found if found.is_file() else None
    try:
        return fetch(package, version, scratch / package.replace("/", "_"))
    except CspellError as exc:
        print(f"  ({exc})", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    description = (__doc__ or "").split("\n\n")[0]
    parser = argparse.ArgumentParser(prog="python -m dictionaries.measure", description=description)
    parser.add_argument(
        "--cspell-dir", type=Path, help="directory of downloaded @cspell/dict-* tarballs (default: fetch with npm)"
    )
    parser.add_argument("--only", help="comma-separated ruleset codes to measure (default: all)")
    args = parser.parse_args(argv)
    wanted = set(args.only.split(",")) if args.only else None
    columns = "Ruleset | Source | Licence | Words | Abbreviations dropped | Inflections | Build s | Load ms | Memory MB"
    print(f"| {columns} | Arrays MB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for ruleset in Ruleset.all():
            if wanted is not None and ruleset.code not in wanted:
                continue
            source = source_for(ruleset.id)
            label = f"{ruleset.id} {ruleset.code}"
            out = scratch / f"{ruleset.code}.dawg"
            if source.shipped:
                print(_row(label, f"shipped `{source.shipped}`", "see its README", bundled_path(source.shipped),
                           ruleset, None), flush=True)
            if source.debian_file is not None and source.debian_file.is_file():
                _, report = build_lexicon(ruleset, source.debian_file, out)
                text = f"Debian `{source.debian_package}` (`{source.debian_file}`)"
                build = (report.kept, report.abbreviations, report.seconds)
                print(_row(label, text, source.debian_licence or "?", out, ruleset, build), flush=True)
            if source.cspell_package and source.cspell_version:
                tarball = _cspell_tarball(source.cspell_package, source.cspell_version, args.cspell_dir, scratch)
                if tarball is None:
                    print(f"| {label} | npm `{source.cspell_package}` | not fetched | - | - | - | - | - | - |")
                    continue
                start = time.perf_counter()
                try:
                    package = read_package(tarball)
                    words = WordList(Path(package.name), tuple(package.words), "utf-8")
                    _, report = build_lexicon(ruleset, words, out)
                except LexiconError as exc:
                    print(f"  ({exc})", file=sys.stderr)
                    continue
                build = (report.kept, report.abbreviations, time.perf_counter() - start)
                text = f"npm `{package.name}` {package.version}"
                print(_row(label, text, package.licence, out, ruleset, build), flush=True)
    print("\n| Ruleset | Lexicon A | Lexicon B | A's words in B | B's words in A |\n| --- | --- | --- | --- | --- |")
    for code, measured in _LAST.items():
        for (name_a, words_a), (name_b, words_b) in pairwise(measured):
            both = len(words_a & words_b)
            print(f"| {code} | {name_a} | {name_b} | {both / len(words_a):.1%} | {both / len(words_b):.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
