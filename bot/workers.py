"""Work split into chunks and run on a pool of processes, with a progress line on stderr.

Shared by ``arena`` and ``learn-leaves``: one process runs the chunks in order (handy for tests
and profiling); more run them on a ``ProcessPoolExecutor`` and report each as it finishes. Each
worker process loads the lexicon it needs once.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import cache
from typing import TypeVar

from dictionaries.registry import LexiconRegistry
from engine.dawg import Dawg

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")


def run_chunks(
    work: Callable[[Chunk], Result], chunks: Sequence[Chunk], *, workers: int | None
) -> Iterator[tuple[int, Result]]:
    """Run ``work`` on every chunk on ``workers`` processes (default: one per CPU); yields (chunk index,
    result) as each one finishes."""
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        for index, chunk in enumerate(chunks):
            yield index, work(chunk)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(work, chunk): index for index, chunk in enumerate(chunks)}
        for future in as_completed(futures):
            yield futures[future], future.result()


@cache
def worker_lexicon(ruleset: int) -> Dawg:
    """The ruleset's lexicon, loaded once per process (MissingLexiconError names the command that builds it)."""
    return LexiconRegistry().get(ruleset)


def progress_printer(unit: str) -> Callable[[int, int], None]:
    """A ``show(done, total)`` that rewrites one stderr line: count, elapsed seconds and an estimate of the rest.

    The estimate counts only what was done since the first call, so work already done (a resumed run)
    does not make it optimistic.
    """
    started = time.monotonic()
    first: list[int] = []

    def show(done: int, total: int) -> None:
        if not first:
            first.append(done)
        elapsed = time.monotonic() - started
        new = done - first[0]
        eta = elapsed / new * (total - done) if new else 0.0
        print(f"\r{done}/{total} {unit}, {elapsed:.0f} s, about {eta:.0f} s left ", end="", file=sys.stderr, flush=True)
        if done == total:
            print(file=sys.stderr)

    return show
