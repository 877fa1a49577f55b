"""``python -m offline.bench.abtime``: two checkouts timed in turn. The checkouts here are fake
(tests/offline/fakecheckouts.py): each benchmark run prints the figure the test chose."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from offline.bench.abtime import (
    Run,
    Summary,
    alternate,
    endgames_bench,
    main,
    playouts_bench,
    selfplay_bench,
    summarize,
)
from tests.offline import fakecheckouts

ENDGAMES_LINE = "# endgames\tsolver=active\tsolved_within_2s=20/20\tnodes_per_cpu_s={figure}\tnodes=3004271\tcpu_s=4.56"


def fake_checkout(
    root: Path,
    log: Path,
    figure: str,
    *,
    generator: str = "native",
    engine_at: str = "",
    status: int = 0,
    flat: bool = False,
) -> Path:
    """A checkout whose benchmark runs print the endgames' line with ``figure`` (fakecheckouts.fake_checkout)."""
    lines = [ENDGAMES_LINE.format(figure=figure)]
    return fakecheckouts.fake_checkout(
        root, log, lines, generator=generator, engine_at=engine_at, status=status, flat=flat
    )


def test_a_figure_is_read_from_its_line_and_field_only() -> None:
    bench = endgames_bench()
    assert bench.figure("# endgame g4\tnodes=5\n" + ENDGAMES_LINE.format(figure="659,425")) == 659425.0
    assert bench.figure("# endgame g4\tnodes_per_cpu_s=5\n") is None  # (another line's field)
    assert bench.figure(ENDGAMES_LINE.format(figure="lots")) is None
    assert endgames_bench(3000).args[-4:] == ("--nodes", "3000", "--clock", "cpu")
    playouts = playouts_bench(Path("p.txt"), 60)
    line = "# playouts\tpositions=48\tnative_per_cpu_s=15,908\tpython_per_cpu_s=2,024"
    assert playouts.figure(line) == 15908.0


def test_the_ratios_pair_the_rounds_and_their_interval_uses_students_t() -> None:
    runs = [Run(1, "A", 110.0), Run(1, "B", 100.0), Run(2, "B", 100.0), Run(2, "A", 80.0), Run(3, "A", 1.0)]
    summary = summarize(runs, "A", "B")
    assert summary.ratios == (1.1, 0.8)  # round 3 has no B: left out
    assert summary.a_faster == 1
    assert summary.median == pytest.approx(0.95)
    # logs 1 and 0: mean 0.5, standard deviation sqrt(1/2), t(1 degree of freedom) 12.706
    interval = Summary((math.e, 1.0)).interval()
    assert interval is not None
    half = 12.706 * math.sqrt(0.5) / math.sqrt(2)
    assert interval == pytest.approx((math.exp(0.5 - half), math.exp(0.5 + half)))
    assert Summary((math.e, 1.0)).geometric_mean == pytest.approx(math.exp(0.5))
    assert Summary((1.2,)).interval() is None


def test_the_order_turns_every_round() -> None:
    order: list[str] = []

    def measure(label: str) -> float:
        order.append(label)
        return 1.0

    runs = alternate(3, ("A", "B"), measure, lambda run: None)
    assert order == ["A", "B", "B", "A", "A", "B"]
    assert [run.round for run in runs] == [1, 1, 2, 2, 3, 3]


def test_two_checkouts_timed_in_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "runs.log"
    a = fake_checkout(tmp_path / "new", log, "120,000")
    b = fake_checkout(tmp_path / "old", log, "100,000")
    assert main([str(a), str(b), "--rounds", "3", "--nodes", "3000"]) == 0
    runs = log.read_text(encoding="utf-8").splitlines()
    assert [line.split()[0] for line in runs] == ["new", "old", "old", "new", "new", "old"]
    assert all(
        f" {tmp_path}/{line.split()[0]} -m offline.bench.endgames --nodes 3000 --clock cpu" in line for line in runs
    )
    out = capsys.readouterr().out
    assert "round 2\tB\tnodes_per_cpu_s=100,000" in out
    summary = "# A / B\trounds=3\tgeometric_mean=1.200 (1.200 .. 1.200)\tmedian=1.200\tA_faster_in=3/3"
    assert out.splitlines()[-1] == summary


def test_a_checkout_from_before_the_packages_runs_its_endgames_by_their_old_name(tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    a = fake_checkout(tmp_path / "new", log, "120,000")
    b = fake_checkout(tmp_path / "old", log, "100,000", flat=True)
    assert main([str(a), str(b), "--rounds", "1", "--nodes", "3000"]) == 0
    new, old = log.read_text(encoding="utf-8").splitlines()
    assert " -m offline.bench.endgames --nodes 3000 " in new
    assert " -m offline.endgames --nodes 3000 " in old


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("python generator", "checkout B ({old}): its C extension is not in use (python)"),
        ("another engine", "checkout B ({old}): its Python imports the engine of /elsewhere"),
        ("failing run", "checkout B ({old}): `{old}/.venv/bin/python -m offline.bench.endgames --clock cpu` gave exit "
                        "status 3: a warning on stderr"),
        ("no figure", "checkout B ({old}): `{old}/.venv/bin/python -m offline.bench.endgames --clock cpu` gave no "
                      "nodes_per_cpu_s in its output"),
        ("no checkout", "checkout {old}: no such directory"),
    ],
)  # fmt: skip
def test_what_stops_a_timing_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, expected: str
) -> None:
    log = tmp_path / "runs.log"
    a = fake_checkout(tmp_path / "new", log, "120,000")
    old = tmp_path / "old"
    if kind != "no checkout":
        fake_checkout(
            old, log, "none" if kind == "no figure" else "100,000",
            generator="python" if kind == "python generator" else "native",
            engine_at="/elsewhere/engine/__init__.py" if kind == "another engine" else "",
            status=3 if kind == "failing run" else 0,
        )  # fmt: skip
    assert main([str(a), str(old), "--rounds", "2"]) == 2
    assert capsys.readouterr().err.startswith("error: " + expected.format(old=old))


def test_bad_arguments_are_refused_with_their_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in (
        (["a", "b", "--rounds", "0"], "--rounds must be at least 1, got 0"),
        (["a", "b", "--nodes", "0"], "--nodes must be at least 1, got 0"),
        (["a", "b", "--bench", "playouts"], "--bench playouts needs --positions FILE"),
        (["a", "b", "--bench", "playouts", "--positions", str(tmp_path / "none.txt")], "none.txt: no such file"),
    ):
        with pytest.raises(SystemExit):
            main(argv)
        assert message in capsys.readouterr().err


def test_the_selfplay_bench_times_the_learners_chunk_in_this_checkout() -> None:
    """The snippet runs in this checkout and prints the figure its Bench reads."""
    bench = selfplay_bench(2, "equity")
    done = subprocess.run([sys.executable, *bench.args], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr[-1000:]
    figure = bench.figure(done.stdout)
    assert figure is not None and figure > 0
