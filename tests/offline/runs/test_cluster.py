"""``--scheduler``: arena and learn-leaves on a Dask cluster give what the local pool gives, and every way
to a cluster that cannot work fails at once (bounded) with an error naming the address or the worker.

The cluster is local: a scheduler and two worker processes listening on 127.0.0.1 only, with a home
and a data directory of their own (so a file only this process has is missing there, as on another machine).
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip(
    "distributed",
    reason="the cluster extra is not installed (pip install -e '.[cluster]'; '.[dev]' brings it)",
)

import dask
from distributed import LocalCluster

from cli.main import main
from engine.players.arena import GameRecord
from offline.arena.match import chunk_file, run_arena
from offline.errors import ClusterError
from offline.learning.learn import Settings, chunk_path, chunks, learn
from offline.runs.cluster import cluster_chunks, scheduler_address
from offline.runs.workers import run_chunks

SHIPPED_TABLE = Path(__file__).resolve().parents[3] / "engine" / "data" / "leaves" / "5.json"


def essence(records: list[GameRecord]) -> list[tuple[object, ...]]:
    """What the same deal must repeat wherever it is played (the thinking times differ)."""
    return [(r.seed, r.seat_of_a, r.scores, r.bingos, r.swaps, r.moves) for r in records]


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a local cluster of two worker processes on 127.0.0.1 (one thread each). Dask's own
    INFO lines are held back: its scheduler thread logs a client's goodbye after the test that closed the
    client has ended, into an output stream pytest has closed by then ("--- Logging error ---")."""
    elsewhere = tmp_path_factory.mktemp("worker-side")
    dask_log = logging.getLogger("distributed")
    level = dask_log.level
    dask_log.setLevel(logging.WARNING)
    try:
        yield from _local_cluster(elsewhere)
    finally:
        dask_log.setLevel(level)


def _local_cluster(elsewhere: Path) -> Iterator[str]:
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        local_directory=str(elsewhere / "scratch"),
        env={"HOME": str(elsewhere), "WORDFEUD_BOT_DATA": str(elsewhere / "data")},
    ) as cluster:
        workers = cluster.scheduler_info["workers"]
        assert len(workers) == 2 and all(address.startswith("tcp://127.0.0.1:") for address in workers)
        yield cluster.scheduler_address


def test_an_arena_on_a_cluster_plays_what_the_local_pool_plays(scheduler: str, tmp_path: Path) -> None:
    settings = {"pairs": 6, "ruleset": 5, "seed": 3, "chunk": 2}
    local = run_arena("equity", "greedy", workers=2, **settings)  # type: ignore[arg-type]
    remote = run_arena("equity", "greedy", scheduler=scheduler, work=tmp_path, **settings)  # type: ignore[arg-type]
    assert len(remote) == 12 and essence(remote) == essence(local)
    assert len({r.scores for r in local}) > 1  # real games, not a degenerate run that any backend repeats
    # the caller wrote the chunks it got back; a second run reads them and needs no cluster at all
    assert all(chunk_file(tmp_path, first, first + 1).exists() for first in (0, 2, 4))
    again = run_arena("equity", "greedy", scheduler="tcp://127.0.0.1:1", work=tmp_path, **settings)  # type: ignore[arg-type]
    assert essence(again) == essence(local)


def test_learn_leaves_on_a_cluster_writes_the_local_pool_s_samples_and_table(scheduler: str, tmp_path: Path) -> None:
    settings = Settings(ruleset=5, seed=4, player="equity-hand", explore=0.1, chunk=2)
    lines = {}
    for where, options in (("local", {"workers": 2}), ("cluster", {"scheduler": scheduler})):
        work = tmp_path / where
        out = work / "table.json"
        lines[where] = list(learn(work, out, settings, 5, ridge=30.0, rounds=3, **options))
    for first, last in chunks(5, 2):
        local = chunk_path(tmp_path / "local", first, last).read_text(encoding="utf-8")
        assert local and chunk_path(tmp_path / "cluster", first, last).read_text(encoding="utf-8") == local
    table = (tmp_path / "local" / "table.json").read_text(encoding="utf-8")
    assert (tmp_path / "cluster" / "table.json").read_text(encoding="utf-8") == table
    assert lines["cluster"][0] == lines["local"][0] and "5 games (5 played now)" in lines["local"][0]


def test_a_worker_without_a_file_the_caller_has_is_named(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # the workers have a home of their own, without this table
    shutil.copyfile(SHIPPED_TABLE, tmp_path / "mine.json")
    with pytest.raises(
        ClusterError,
        match=r"worker tcp://127\.0\.0\.1:\d+ differs from this machine: leave table "
        r"~/mine\.json is missing there, [0-9a-f]{16} here",
    ):
        run_arena("equity:~/mine.json", "greedy", pairs=2, ruleset=5, seed=1, scheduler=scheduler)


def test_a_chunk_that_fails_on_a_worker_names_the_worker(scheduler: str) -> None:
    results = dict(run_chunks(int, ["7"], scheduler=scheduler))
    assert results == {0: 7}
    with pytest.raises(ClusterError, match=r"chunk 'x' failed on worker tcp://127\.0\.0\.1:\d+: ValueError: "):
        dict(run_chunks(int, ["1", "x"], scheduler=scheduler))


def test_an_unreachable_scheduler_is_an_error_within_the_bound() -> None:
    with socket.socket() as probe:  # a port on 127.0.0.1 that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    unreachable = rf"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:{port} within 0\.5 s"
    with pytest.raises(ClusterError, match=unreachable):
        list(cluster_chunks(int, ["1"], f"127.0.0.1:{port}", connect_seconds=0.5))
    assert time.monotonic() - started < 10


def test_a_scheduler_without_workers_is_an_error_within_the_bound() -> None:
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address="127.0.0.1:0"
    ) as empty:
        started = time.monotonic()
        with pytest.raises(
            ClusterError, match=r"has no workers \(waited 0\.3 s\); start some with: dask worker tcp://"
        ):
            list(cluster_chunks(int, ["1"], empty.scheduler_address, workers_seconds=0.3))
        assert time.monotonic() - started < 10


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("nonsense", "missing port number"),
        ("http://127.0.0.1:8786", "unknown address scheme 'http'"),
        ("127.0.0.1:port", "invalid literal"),
        ("127.0.0.1:0", "a port from 1 to 65535"),
        ("127.0.0.1:65536", "a port from 1 to 65535"),
        (":8786", "a port from 1 to 65535"),
    ],
)
def test_a_bad_address_is_named(address: str, problem: str) -> None:
    with pytest.raises(ClusterError, match=rf"bad scheduler address '{address}': .*{problem}"):
        scheduler_address(address)


def test_the_commands_take_a_scheduler_address(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert scheduler_address("tcp://127.0.0.1:8786") == scheduler_address("127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert main(["arena", "greedy", "greedy", "--pairs", "1", "--scheduler", "nonsense"]) == 1
    assert "wordfeud-bot arena: bad scheduler address 'nonsense'" in capsys.readouterr().err
    argv = ["learn-leaves", "--work", str(tmp_path), "--games", "1", "--scheduler", "127.0.0.1:0"]
    assert main(argv) == 1
    assert "wordfeud-bot learn-leaves: bad scheduler address '127.0.0.1:0'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["arena", "greedy", "greedy", "--workers", "2", "--scheduler", "127.0.0.1:8786"])
    assert exit_info.value.code == 2
    assert "not allowed with argument --workers" in capsys.readouterr().err


@pytest.mark.logs_errors("Dask's scheduler logs the worker the test kills on purpose")
def test_a_chunk_that_kills_its_worker_is_an_error(tmp_path: Path) -> None:
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=1,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            local_directory=str(tmp_path),
        ) as cluster,
        pytest.raises(ClusterError, match=r"chunk 3 killed its workers: "),
    ):
        list(run_chunks(os._exit, [3], scheduler=cluster.scheduler_address))
