"""``wordfeud-bot arena A B``: strategy against strategy over many mirrored pairs, on several processes.

Each worker process loads the ruleset's lexicon once and plays whole pairs (``engine.arena``);
progress goes to stderr, the summary to stdout.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import cache

from dictionaries.registry import LexiconRegistry
from engine.arena import GameRecord, pair_seed, play_pair, summarize
from engine.dawg import Dawg
from engine.rules import Ruleset
from engine.strategy import strategy_named


@cache
def _lexicon(ruleset: int) -> Dawg:
    return LexiconRegistry().get(ruleset)


def _play(a: str, b: str, ruleset: int, seeds: list[int]) -> list[GameRecord]:
    """Worker: play the pairs of these seeds."""
    rules = Ruleset.for_id(ruleset)
    lexicon = _lexicon(ruleset)
    records: list[GameRecord] = []
    for seed in seeds:
        records.extend(play_pair(strategy_named(a), strategy_named(b), rules, lexicon, seed))
    return records


def run_arena(
    a: str,
    b: str,
    *,
    pairs: int,
    ruleset: int,
    seed: int,
    workers: int | None = None,
    chunk: int = 4,
    progress: Callable[[int, int], None] | None = None,
) -> list[GameRecord]:
    """Play ``pairs`` mirrored pairs of A against B; records in pair order (deterministic for a seed)."""
    strategy_named(a), strategy_named(b)  # unknown names fail here, not in a worker
    _lexicon(ruleset)  # a missing lexicon fails here, naming the command that builds it
    seeds = [pair_seed(seed, i) for i in range(pairs)]
    chunks = [seeds[i : i + chunk] for i in range(0, len(seeds), chunk)]
    results: dict[int, list[GameRecord]] = {}
    workers = workers or os.cpu_count() or 1
    done = 0
    if workers == 1:
        for index, part in enumerate(chunks):
            results[index] = _play(a, b, ruleset, part)
            done += len(part)
            if progress:
                progress(done, pairs)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(_play, a, b, ruleset, part): index for index, part in enumerate(chunks)}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                done += len(chunks[futures[future]])
                if progress:
                    progress(done, pairs)
    return [record for index in range(len(chunks)) for record in results[index]]


def _progress_printer() -> Callable[[int, int], None]:
    started = time.monotonic()

    def show(done: int, total: int) -> None:
        elapsed = time.monotonic() - started
        eta = elapsed / done * (total - done) if done else 0.0
        print(f"\r{done}/{total} pairs, {elapsed:.0f} s, about {eta:.0f} s left", end="", file=sys.stderr, flush=True)
        if done == total:
            print(file=sys.stderr)

    return show


def arena_lines(a: str, b: str, pairs: int, ruleset: int, seed: int, workers: int | None) -> Iterator[str]:
    """Run a match with progress on stderr and yield the summary lines."""
    started = time.monotonic()
    records = run_arena(a, b, pairs=pairs, ruleset=ruleset, seed=seed, workers=workers, progress=_progress_printer())
    yield from summarize(records).lines(a, b)
    yield f"  ruleset {ruleset}, seed {seed}, {time.monotonic() - started:.0f} s"
