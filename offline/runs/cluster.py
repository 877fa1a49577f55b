"""Chunks on an existing Dask cluster (``--scheduler ADDRESS``), behind ``offline.runs.workers.run_chunks``.

Imported only when a scheduler address is given, so the default install needs no Dask. Every wait
is bounded (reaching the scheduler, its first worker), results come back to the caller (a worker
need not share its filesystem), and a worker checks that it has what the caller has (the code, the
ruleset's lexicon, the leave table files) before it runs a chunk: a difference, or a chunk that
fails there, is a ``ClusterError`` naming the worker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from functools import partial
from typing import TypeVar, cast

from distributed import Client, Future, KilledWorker, as_completed, get_worker
from distributed.comm.addressing import parse_address, parse_host_port
from distributed.comm.registry import get_backend

from offline.errors import ClusterError

Needs = dict[str, str]  # what a worker must match before it plays (offline.runs.workers.Needs)

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")

#: The longest wait for the scheduler to answer, and for it to have a worker, in seconds.
CONNECT_SECONDS = 15.0
WORKERS_SECONDS = 60.0


def scheduler_address(text: str) -> str:
    """The address as Dask will use it (``tcp://`` when no scheme is given); ClusterError naming it when it is
    not ``[SCHEME://]HOST:PORT`` with a scheme Dask knows and a port from 1 to 65535.

    >>> scheduler_address("127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    """
    try:
        scheme, location = parse_address(text)
        get_backend(scheme)
        host, port = parse_host_port(location)
    except ValueError as error:
        raise ClusterError(f"bad scheduler address {text!r}: {error}; expected tcp://HOST:PORT") from None
    if not host or not 1 <= port <= 65535:
        raise ClusterError(f"bad scheduler address {text!r}: expected tcp://HOST:PORT with a port from 1 to 65535")
    return f"{scheme}://{location}"


def connect(address: str, *, timeout: float = CONNECT_SECONDS) -> Client:
    """A client of the scheduler at ``address``; ClusterError when it does not answer within ``timeout`` s."""
    try:
        return Client(address, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
    except OSError as error:  # refused, unknown host, or no answer in time (TimeoutError is an OSError)
        raise ClusterError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s: {error}") from None


def cluster_chunks(
    work: Callable[[Chunk], Result],
    chunks: Sequence[Chunk],
    scheduler: str,
    *,
    needs: Callable[[], Needs] | None = None,
    connect_seconds: float = CONNECT_SECONDS,
    workers_seconds: float = WORKERS_SECONDS,
) -> Iterator[tuple[int, Result]]:
    """Run ``work`` on every chunk on the cluster at ``scheduler``; yields (chunk index, result) as each finishes.

    Leaving the loop early (an error, Ctrl-C) closes the client, and the scheduler drops the chunks not done."""
    address = scheduler_address(scheduler)
    if not chunks:
        return
    expected = needs() if needs is not None else {}
    with connect(address, timeout=connect_seconds) as client:
        try:
            client.wait_for_workers(1, timeout=workers_seconds)
        except TimeoutError:
            raise ClusterError(
                f"the Dask scheduler at {address} has no workers (waited {workers_seconds:g} s); "
                f"start some with: dask worker {address} --nthreads 1"
            ) from None
        task = partial(_on_worker, work, needs, expected)
        futures: list[Future[Result]] = client.map(task, list(chunks), pure=False)
        index = {future.key: position for position, future in enumerate(futures)}
        for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
            try:
                result = cast(Result, future.result())
            except KilledWorker as error:  # the scheduler gave up on a chunk whose workers kept dying
                raise ClusterError(f"chunk {chunks[index[future.key]]!r} killed its workers: {error}") from None
            except CancelledError:
                raise ClusterError(
                    f"the Dask scheduler at {address} dropped the chunks: it stopped, or lost this client"
                ) from None
            yield index[future.key], result


def _on_worker(
    work: Callable[[Chunk], Result], needs: Callable[[], Needs] | None, expected: Needs, chunk: Chunk
) -> Result:
    """On a worker: check it has what the caller has, then run one chunk; a failure names the worker."""
    where = get_worker().address
    if needs is not None:
        found = needs()
        different = [
            f"{key} is {found.get(key, 'missing')} there, {value} here"
            for key, value in expected.items()
            if found.get(key) != value
        ]
        if different:
            raise ClusterError(f"worker {where} differs from this machine: {'; '.join(different)}")
    try:
        return work(chunk)
    except Exception as error:  # a remote traceback does not say where it came from: name the worker
        raise ClusterError(f"chunk {chunk!r} failed on worker {where}: {type(error).__name__}: {error}") from None


__all__ = ["CONNECT_SECONDS", "WORKERS_SECONDS", "cluster_chunks", "connect", "scheduler_address"]
