"""Work split into chunks and run on a pool of processes, with a progress line on stderr.

Shared by ``arena`` and ``learn-leaves``: one process runs the chunks in order (handy for tests
and profiling); more run them on a ``ProcessPoolExecutor`` and report each as it finishes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")


def run_chunks(
    work: Callable[[Chunk], Result],
    chunks: Sequence[Chunk],
    *,
    workers: int,
    done: Callable[[int, Result], None],
) -> None:
    """Run ``work`` on every chunk (``workers`` processes); ``done(index, result)`` as each one finishes."""
    if workers == 1:
        for index, chunk in enumerate(chunks):
            done(index, work(chunk))
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(work, chunk): index for index, chunk in enumerate(chunks)}
        for future in as_completed(futures):
            done(futures[future], future.result())


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
