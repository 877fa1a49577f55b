"""Work split into chunks and run on a pool of processes or a Dask cluster, with progress on stderr.

Shared by ``arena`` and ``learn-leaves``: one process runs the chunks in order (handy for tests
and profiling); more run them on a ``ProcessPoolExecutor`` and report each as it finishes; with a
scheduler address they run on an existing Dask cluster (``offline.runs.cluster``, the optional ``cluster``
extra). Either way the results come back to the caller, which alone writes files. Each worker
process loads the lexicon it needs once.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO, TypeVar

from dictionaries.registry import LexiconRegistry
from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg
from offline.errors import ClusterError

if TYPE_CHECKING:
    from tqdm import tqdm

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")

#: What a worker has that decides results, by name (see ``worker_needs``).
Needs = dict[str, str]


def run_chunks(
    work: Callable[[Chunk], Result],
    chunks: Sequence[Chunk],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    needs: Callable[[], Needs] | None = None,
) -> Iterator[tuple[int, Result]]:
    """Run ``work`` on every chunk on ``workers`` processes (default: one per CPU), or on the Dask cluster
    at ``scheduler``; yields (chunk index, result) as each one finishes.

    On a cluster every worker must give the same ``needs()`` as this process before it runs a chunk
    (local processes share this machine's files, so they are not asked)."""
    if scheduler is not None:
        if workers is not None:
            raise ValueError("give either a number of workers or a scheduler address, not both")
        try:
            # the optional extra: only imported when asked for
            cluster = importlib.import_module("offline.runs.cluster")
        except ImportError as error:
            raise ClusterError(
                f"a scheduler address needs the cluster extra ({error}): pip install 'wordfeud-bot[cluster]'"
            ) from None
        yield from cluster.cluster_chunks(work, chunks, scheduler, needs=needs)
        return
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        for index, chunk in enumerate(chunks):
            yield index, work(chunk)
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_leave_stop_signals_to_the_parent)
    try:
        futures = {pool.submit(work, chunk): index for index, chunk in enumerate(chunks)}
        for future in as_completed(futures):
            yield futures[future], future.result()
    except BaseException:
        # stopped (a signal, an error, a caller that stopped reading): the chunks not started are
        # dropped and the ones running are ended now rather than played to the end; the workers write
        # no file, so nothing is left half done
        for process in list((pool._processes or {}).values()):
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _leave_stop_signals_to_the_parent() -> None:
    """A worker's start: SIGINT and SIGHUP (which a terminal sends to every process of the job, on Ctrl-C
    and when it closes) are the parent's to handle, and SIGTERM (which the parent sends to end a worker)
    ends it at once, whatever handler the worker inherited from the parent with ``fork``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@cache
def worker_lexicon(ruleset: int) -> Dawg:
    """The ruleset's lexicon, loaded once per process (MissingLexiconError names the command that builds it)."""
    return LexiconRegistry().get(ruleset)


@cache
def code_digest() -> str:
    """SHA-256 of the Python sources of ``engine``, ``offline``, ``bot`` and ``dictionaries`` and of the engine's data:
    the code that decides a game, so a cluster worker running other code is found before it plays."""
    root = Path(__file__).resolve().parents[2]
    packages = ("engine", "offline", "bot", "dictionaries")
    files = [path for package in packages for path in (root / package).rglob("*.py")]
    files += [path for path in (root / "engine" / "data").rglob("*") if path.is_file()]
    digest = hashlib.sha256()
    for path in sorted(path for path in files if "__pycache__" not in path.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def worker_needs(ruleset: int, tables: tuple[str, ...] = ()) -> Needs:
    """What must be the same on every worker of a run: the code, the ruleset's lexicon (the checksum of its
    word list) and the content of each leave table file; "missing" where a worker has none (asked again for
    every chunk, so a file put in place while the run goes on counts)."""
    try:
        lexicon = worker_lexicon(ruleset).checksum.hex()[:16]
    except LexiconError as error:  # the message names the command that builds it
        lexicon = f"missing ({error})"
    needs = {"code": code_digest(), f"lexicon of ruleset {ruleset}": lexicon}
    for table in tables:
        try:
            needs[f"leave table {table}"] = hashlib.sha256(Path(table).expanduser().read_bytes()).hexdigest()[:16]
        except OSError:
            needs[f"leave table {table}"] = "missing"
    return needs


#: Seconds between the plain progress lines of ``progress_printer`` when the output is not a terminal.
PLAIN_EVERY = 60.0


def progress_printer(
    unit: str, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic, every: float = PLAIN_EVERY
) -> Callable[[int, int], None]:
    """A ``show(done, total)`` for long runs: a tqdm bar (count, elapsed time, estimate of the rest) on a
    terminal; elsewhere (a log file, a pipe) a plain line at most every ``every`` seconds of ``clock`` with the
    count, the time so far and an estimate of the rest, and one when the work is done; never a carriage return.

    The bar and the estimate start at the first count shown, so work already done (a resumed run) does not make
    the estimate optimistic.

    >>> import io; out = io.StringIO(); ticks = iter([0.0, 1.0, 61.0, 75.0])
    >>> show = progress_printer("games", out, clock=lambda: next(ticks))
    >>> for done in (100, 300, 400):
    ...     show(done, 400)
    >>> print(out.getvalue(), end="")
    300/400 games, 61 s, about 30 s to go
    400/400 games, 75 s
    """
    out = stream or sys.stderr
    started = clock()
    bar: list[tqdm[NoReturn]] = []
    first: tuple[int, float] | None = None  # the first count shown, and when
    last_line = started

    def show(done: int, total: int) -> None:
        nonlocal first, last_line
        if out.isatty():
            if not bar:
                from tqdm import tqdm  # noqa: PLC0415 - when a bar is drawn: every command would pay ~40 ms

                bar.append(tqdm(total=total, initial=done, unit=f" {unit}", file=out, dynamic_ncols=True))
            bar[0].update(done - bar[0].n)
            if done == total:
                bar[0].close()
            return
        now = clock()
        if first is None:
            first = (done, now)
        if done == total:
            print(f"{done}/{total} {unit}, {now - started:.0f} s", file=out, flush=True)
        elif now - last_line >= every:
            last_line = now
            first_done, first_at = first
            rate = (done - first_done) / (now - first_at) if now > first_at else 0.0
            rest = f", about {(total - done) / rate:.0f} s to go" if rate > 0 else ""
            print(f"{done}/{total} {unit}, {now - started:.0f} s{rest}", file=out, flush=True)

    return show
