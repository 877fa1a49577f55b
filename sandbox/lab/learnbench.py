"""What learned words cost: ``python -m sandbox.lab.learnbench [--sizes 10,10000,1000000]``.

For each size N: N made-up words (seeded, 2 to 15 letters) accepted in the English ruleset, then

* ``first view``: the first ``LearnedWords.apply`` (the lexicon the bot plays with) and the C
  generator's copy of it (``engine.native.lexicon``), as at start-up;
* ``one more word``: accepting one more word, then ``apply`` and the C copy again: what learning one
  word costs the next move (median of ``--repeat`` words);
* ``status page``: ``bot.views.status_page.snapshot`` (what one request of the page reads) of a state file
  holding the N words as learned (median of 3).

It also prints the load time of the bundled English lexicon, ready to search (median and minimum of
20 loads, wall and CPU time). Uses only
the public calls (``accept``, ``apply``, ``native.lexicon``), so the same script measures older
versions too. Compare figures within one run: absolute times vary between machines and runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import string
import sys
import tempfile
import time
from pathlib import Path

from bot.store.learned import LearnedWords
from bot.store.store import OPPONENT, Store
from bot.views.status_page import snapshot
from dictionaries import bundled_path
from engine import native
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5)


def made_up_words(rng: random.Random, count: int) -> list[str]:
    """``count`` distinct made-up words of 2 to 15 capital letters (mostly not English)."""
    words: set[str] = set()
    while len(words) < count:
        words.add("".join(rng.choice(string.ascii_uppercase) for _ in range(rng.randint(2, 15))))
    return sorted(words)


def usable(learned: LearnedWords, base: Dawg) -> Dawg:
    """The lexicon as the next move uses it: the view, and the C generator's copy when it runs."""
    view = learned.apply(base, EN)
    if native.GENERATOR == "native":
        native.lexicon(view)
    return view


def measure(base: Dawg, size: int, repeat: int, seed: int) -> tuple[float, float]:
    """(seconds for the first view, median seconds for one more word) with ``size`` words learned."""
    rng = random.Random(seed)
    words = made_up_words(rng, size + repeat)
    learned = LearnedWords(accepted={5: words[:size]})
    started = time.perf_counter()
    usable(learned, base)
    first = time.perf_counter() - started
    times = []
    for word in words[size:]:
        started = time.perf_counter()
        learned.accept(5, word)
        view = usable(learned, base)
        times.append(time.perf_counter() - started)
        if word not in view:
            raise AssertionError(f"{word} was accepted but is not in the view")
    return first, statistics.median(times)


def status_read(words: list[str], repeat: int = 3) -> float:
    """Median seconds of the status page's facts from a state file holding ``words`` as learned."""
    with tempfile.TemporaryDirectory() as scratch:
        store = Store(Path(scratch) / "state.sqlite3")
        rows = [(5, word, i, OPPONENT, 1_800_000_000.0 + i, 1) for i, word in enumerate(words)]
        # the bench fills the table directly, in one transaction: one per word would take many minutes
        store._db.execute("BEGIN")
        store._db.executemany("INSERT INTO accepted VALUES (?, ?, ?, ?, ?, ?)", rows)
        store._db.execute("COMMIT")
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            snapshot(store, {})
            times.append(time.perf_counter() - started)
        store.close()
    return statistics.median(times)


def load_times(count: int = 20) -> tuple[float, float, float]:
    """(median wall seconds, minimum wall seconds, median CPU seconds) of loading the English lexicon
    ready to search: with the C generator, its copy of the arrays too (made at load now, at the first
    search before). CPU time is what a busy machine distorts least."""
    path = bundled_path("en/enable.dawg")
    walls, cpus = [], []
    for _ in range(count):
        wall, cpu = time.perf_counter(), time.process_time()
        lexicon = Dawg.load(path, EN.alphabet)
        if native.GENERATOR == "native":
            native.lexicon(lexicon)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), min(walls), statistics.median(cpus)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sandbox.lab.learnbench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,10000,1000000", help="learned-word counts, comma-separated")
    parser.add_argument("--repeat", type=int, default=5, help="words added one by one per size (median shown)")
    parser.add_argument("--seed", type=int, default=27, help="seed of the made-up words")
    parser.add_argument("--no-views", action="store_true", help="time the status page only (not the views)")
    args = parser.parse_args(argv)
    try:
        sizes = [int(part) for part in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes {args.sizes!r}: expected numbers separated by commas")
    print(native.describe())
    median, fastest, cpu = load_times()
    print(
        f"load of the English lexicon, ready to search: median {median * 1000:.1f} ms, min {fastest * 1000:.1f} ms, "
        f"median CPU {cpu * 1000:.1f} ms (20 loads)"
    )
    base = Dawg.load(bundled_path("en/enable.dawg"), EN.alphabet)
    print("learned words\tfirst view (s)\tone more word (ms)\tstatus page (ms)")
    for size in sizes:
        print(f"{size:,}", end="\t", flush=True)
        if args.no_views:
            print("-\t-", end="\t", flush=True)
        else:
            first, one = measure(base, size, args.repeat, args.seed)
            print(f"{first:.3f}\t{one * 1000:.2f}", end="\t", flush=True)
        page = status_read(made_up_words(random.Random(args.seed), size))
        print(f"{page * 1000:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
