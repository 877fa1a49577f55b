"""``wordfeud-bot arena A B``: strategy against strategy over many mirrored pairs, on several processes.

Each worker process loads the ruleset's lexicon once and plays whole pairs (``engine.arena``);
progress goes to stderr, the summary to stdout.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from functools import partial

from bot.workers import progress_printer, run_chunks, worker_lexicon
from engine.arena import GameRecord, pair_seed, play_pair, summarize
from engine.rules import Ruleset
from engine.strategy import strategy_named


def _play(a: str, b: str, ruleset: int, seeds: list[int]) -> list[GameRecord]:
    """Worker: play the pairs of these seeds."""
    rules = Ruleset.for_id(ruleset)
    lexicon = worker_lexicon(ruleset)
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
    worker_lexicon(ruleset)  # a missing lexicon fails here, naming the command that builds it
    seeds = [pair_seed(seed, i) for i in range(pairs)]
    chunks = [seeds[i : i + chunk] for i in range(0, len(seeds), chunk)]
    results: dict[int, list[GameRecord]] = {}
    finished = 0
    for index, records in run_chunks(partial(_play, a, b, ruleset), chunks, workers=workers):
        results[index] = records
        finished += len(chunks[index])
        if progress:
            progress(finished, pairs)
    return [record for index in range(len(chunks)) for record in results[index]]


def arena_lines(a: str, b: str, pairs: int, ruleset: int, seed: int, workers: int | None) -> Iterator[str]:
    """Run a match with progress on stderr and yield the summary lines."""
    started = time.monotonic()
    records = run_arena(
        a, b, pairs=pairs, ruleset=ruleset, seed=seed, workers=workers, progress=progress_printer("pairs")
    )
    yield from summarize(records).lines(a, b)
    yield f"  ruleset {ruleset}, seed {seed}, {time.monotonic() - started:.0f} s"
