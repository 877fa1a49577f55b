"""Work split into chunks and run on a pool of processes, with progress on stderr.

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
from typing import TYPE_CHECKING, NoReturn, TextIO, TypeVar

from dictionaries.registry import LexiconRegistry
from engine.dawg import Dawg

if TYPE_CHECKING:
    from tqdm import tqdm

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


def progress_printer(unit: str, stream: TextIO | None = None) -> Callable[[int, int], None]:
    """A ``show(done, total)`` for long runs: a tqdm bar (count, elapsed time, estimate of the rest) on a
    terminal; elsewhere (a log file, a pipe) one plain line when the work is done, never a carriage return.

    The bar starts at the first count it is shown, so work already done (a resumed run) does not make the
    estimate optimistic.
    """
    out = stream or sys.stderr
    started = time.monotonic()
    bar: list[tqdm[NoReturn]] = []

    def show(done: int, total: int) -> None:
        if out.isatty():
            if not bar:
                from tqdm import tqdm  # noqa: PLC0415 - when a bar is drawn: every command would pay ~40 ms

                bar.append(tqdm(total=total, initial=done, unit=f" {unit}", file=out, dynamic_ncols=True))
            bar[0].update(done - bar[0].n)
            if done == total:
                bar[0].close()
        elif done == total:
            print(f"{done}/{total} {unit}, {time.monotonic() - started:.0f} s", file=out, flush=True)

    return show
