"""``wordfeud-bot arena A B``: strategy against strategy over many mirrored pairs, on several processes
or a Dask cluster (``offline.runs.workers``).

Each worker process loads the ruleset's lexicon once and plays whole pairs (``engine.players.arena``);
progress goes to stderr, the summary to stdout. With a work directory every finished chunk of pairs
is kept in a file of its own (``offline.runs.workdir``), so a long match (a simulating player takes seconds
a move) survives an interruption: the same command goes on where it stopped, and a larger
``--pairs`` adds to the pairs already played.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import astuple
from functools import partial
from pathlib import Path

from engine.players.arena import GameRecord, compare_pairs, pair_seed, play_pair, summarize
from engine.players.registry import table_file
from engine.rules.ruleset import Ruleset
from offline.arena.checkout import arena_strategy, check_strategy_name, warm_up
from offline.errors import WorkDirError
from offline.runs import workdir
from offline.runs.workers import progress_printer, run_chunks, worker_lexicon, worker_needs


def _play(a: str, b: str, ruleset: int, match_seed: int, clock: str, pairs: tuple[int, int]) -> list[GameRecord]:
    """Worker: play pairs first..last (inclusive) of the match."""
    rules = Ruleset.for_id(ruleset)
    lexicon = worker_lexicon(ruleset)
    records: list[GameRecord] = []
    first, last = pairs
    warm_up((arena_strategy(a, clock), arena_strategy(b, clock)), rules, lexicon)  # not counted as thinking time
    for pair in range(first, last + 1):
        one, other = arena_strategy(a, clock), arena_strategy(b, clock)
        records.extend(play_pair(one, other, rules, lexicon, pair_seed(match_seed, pair)))
    return records


def chunk_file(work: Path, first: int, last: int) -> Path:
    """The file of pairs ``first``..``last`` (inclusive) in a work directory."""
    return work / f"pairs-{first:06d}-{last:06d}.json"


def _save(path: Path, records: list[GameRecord]) -> None:
    workdir.write_whole(path, json.dumps([astuple(record) for record in records]) + "\n")


def _load(path: Path) -> list[GameRecord]:
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
        return [
            GameRecord(seed, seat, tuple(scores), tuple(bingos), tuple(swaps), tuple(moves), tuple(seconds))
            for seed, seat, scores, bingos, swaps, moves, seconds in rows
        ]
    except (OSError, ValueError, TypeError) as error:
        raise WorkDirError(f"cannot read the records of {path}: {error}") from None


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
    work: Path | None = None,
    scheduler: str | None = None,
    clock: str = "wall",
) -> list[GameRecord]:
    """Play ``pairs`` mirrored pairs of A against B; records in pair order (deterministic for a seed).

    With ``work``, finished chunks are kept there and the ones already there are not played again; with
    ``scheduler``, the chunks run on that Dask cluster instead of ``workers`` local processes; with
    ``clock="cpu"`` each strategy thinks in a server process of its own, its time budget counted on
    that process's CPU time (``offline.arena.checkout``)."""
    for name in (a, b):
        check_strategy_name(name, clock)  # unknown names fail here, not in a worker
    worker_lexicon(ruleset)  # a missing lexicon fails here, naming the command that builds it
    chunks = [(first, min(first + chunk, pairs) - 1) for first in range(0, pairs, chunk)]
    results: dict[int, list[GameRecord]] = {}
    if work is not None:
        settings = {"a": a, "b": b, "ruleset": ruleset, "seed": seed, "chunk": chunk, "clock": clock}
        workdir.prepare(work, settings, defaults={"clock": "wall"})  # older directories name no clock
        for index, (first, last) in enumerate(chunks):
            path = chunk_file(work, first, last)
            if path.exists():
                results[index] = _load(path)
    missing = [index for index in range(len(chunks)) if index not in results]
    finished = sum(last - first + 1 for index, (first, last) in enumerate(chunks) if index in results)
    if progress:
        progress(finished, pairs)
    play = partial(_play, a, b, ruleset, seed, clock)
    tables = tuple(file for file in (table_file(a), table_file(b)) if file is not None)
    needs = partial(worker_needs, ruleset, tables)
    for position, records in run_chunks(
        play, [chunks[i] for i in missing], workers=workers, scheduler=scheduler, needs=needs
    ):
        index = missing[position]
        first, last = chunks[index]
        if work is not None:
            _save(chunk_file(work, first, last), records)
        results[index] = records
        finished += last - first + 1
        if progress:
            progress(finished, pairs)
    return [record for index in range(len(chunks)) for record in results[index]]


def arena_lines(
    a: str,
    b: str,
    pairs: int,
    ruleset: int,
    seed: int,
    workers: int | None,
    work: Path | None = None,
    scheduler: str | None = None,
    clock: str = "wall",
) -> Iterator[str]:
    """Run a match with progress on stderr and yield the summary lines."""
    started = time.monotonic()
    records = run_arena(
        a,
        b,
        pairs=pairs,
        ruleset=ruleset,
        seed=seed,
        workers=workers,
        progress=progress_printer("pairs"),
        work=work,
        scheduler=scheduler,
        clock=clock,
    )
    yield from summarize(records).lines(a, b)
    on = ", thinking on each strategy's own CPU time" if clock == "cpu" else ""
    yield f"  ruleset {ruleset}, seed {seed}{on}, {time.monotonic() - started:.0f} s"


def load_match(work: Path) -> tuple[dict[str, object], list[GameRecord]]:
    """The settings (manifest) and the finished games of an arena work directory."""
    manifest = workdir.read_manifest(work)
    if not {"a", "b", "ruleset", "seed"} <= manifest.keys():
        raise WorkDirError(f"{work} is not an arena's work directory (its manifest names no strategies a and b)")
    records = [record for path in sorted(work.glob("pairs-*.json")) for record in _load(path)]
    return manifest, records


def compare_lines(first: Path, second: Path) -> Iterator[str]:
    """``wordfeud-bot arena-compare``: two matches played on the same bags (the same ruleset and seed),
    each summarized over the pairs both finished, then the first's A minus the second's, pair by pair."""
    (one, ones), (two, twos) = load_match(first), load_match(second)
    different = [
        f"{key} {one[key]!r} in {first}, {two[key]!r} in {second}"
        for key in ("ruleset", "seed")
        if one[key] != two[key]
    ]
    if different:
        raise WorkDirError(f"the two matches were not played on the same bags: {'; '.join(different)}")
    difference = compare_pairs(ones, twos)  # a ValueError when no pair is common
    common = set(difference.seeds)
    for work, settings, records in ((first, one, ones), (second, two, twos)):
        yield f"{work}, over the pairs both finished:"
        both = [record for record in records if record.seed in common]
        yield from summarize(both).lines(str(settings["a"]), str(settings["b"]))
    yield from difference.lines(str(first), str(second))
