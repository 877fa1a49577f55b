"""Measure every shipped lexicon and every Debian one installed here: ``python -m dictionaries.measure``.

Builds each Debian word list that is installed into a temporary directory (the shipped lexicons
are loaded as they are), then prints a Markdown table of words kept, file size, build seconds and
load milliseconds: the table of ``dictionaries/README.md``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from dictionaries import bundled_path
from dictionaries.build import build_lexicon
from dictionaries.sources import source_for
from engine.dawg import Dawg
from engine.rules import Ruleset


def _load_ms(path: Path, ruleset: Ruleset) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        Dawg.load(path, ruleset.alphabet)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main(argv: list[str] | None = None) -> int:
    description = (__doc__ or "").split("\n\n")[0]
    parser = argparse.ArgumentParser(prog="python -m dictionaries.measure", description=description)
    parser.parse_args(argv)
    print("| Ruleset | Source | Words kept | File bytes | Build s | Load ms |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for ruleset in Ruleset.all():
            source = source_for(ruleset.id)
            label = f"{ruleset.id} {ruleset.code}"
            if source.shipped:
                path = bundled_path(source.shipped)
                words = len(Dawg.load(path, ruleset.alphabet))
                row = f"| {label} | shipped `{source.shipped}` | {words:,} | {path.stat().st_size:,} | - | "
                print(row + f"{_load_ms(path, ruleset):.0f} |", flush=True)
            elif source.debian_file is not None and source.debian_file.is_file():
                out = Path(tmp) / f"{ruleset.code}.dawg"
                _, report = build_lexicon(ruleset, source.debian_file, out)
                row = f"| {label} | Debian `{source.debian_package}` ({source.debian_file}) | {report.kept:,} | "
                row += f"{report.file_bytes:,} | {report.seconds:.1f} | {_load_ms(out, ruleset):.0f} |"
                print(row, flush=True)
            else:
                print(f"| {label} | none installed | - | - | - | - |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
