"""``python -m offline.bench.speedup``: a checkout's look-ahead against an older one's, in one run. Its probe runs
here on
this checkout's own engine (as it would in an older checkout); the command's rounds run fake checkouts
(tests/offline/fakecheckouts.py) that print the lines the test chose."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import native
from offline.bench.endgames import DEFAULT_FILE
from offline.bench.speedup import PROBE, main, new_figures, old_figures
from tests.offline.fakecheckouts import fake_checkout

ROOT = Path(__file__).resolve().parents[3]
BASELINE = (
    "# baseline\tplayouts=6144\tplayouts_per_cpu_s={playouts}\tendgames=20\tendgame_nodes=1"
    "\tendgame_nodes_per_cpu_s={nodes}"
)
BENCH = (
    "# sim figures\tpositions file=p.txt",
    "# playouts\tpositions=48\tcandidates=8\tdraws_native=64\tnative_per_cpu_s={eight}\tpython_per_cpu_s=2,055",
    "# playouts\tpositions=48\tcandidates=25\tdraws_native=64\tnative_per_cpu_s={many}\tpython_per_cpu_s=2,194",
    "# endgame g4\tEEILNOT vs ABDHIIL\tnodes=261415",
    "# endgames\tsolver=active\tsolved_within_2s=20/20\tnodes_per_cpu_s={nodes}\tnodes=3004271",
)


def probe(positions: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """The probe run on this checkout as ``offline.bench.speedup`` runs it on an older one."""
    argv = [sys.executable, str(PROBE), "--positions", str(positions), "--endgames", str(DEFAULT_FILE), *extra]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)


def bench_lines(eight: str, many: str, nodes: str) -> list[str]:
    return [line.format(eight=eight, many=many, nodes=nodes) for line in BENCH]


@pytest.fixture
def positions(tmp_path: Path) -> Path:
    rows = ["." * 15] * 15
    rows[7] = ".......CAT....."
    path = tmp_path / "positions.txt"
    path.write_text("= mid AEINRST\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.skipif(native.NATIVE is None, reason=f"the C extension is not in use: {native.describe()}")
def test_the_probe_times_the_playouts_and_endgames_of_the_checkout_that_runs_it(positions: Path) -> None:
    done = probe(positions, "--draws", "2", "--candidates", "3", "--endgame-limit", "1", "--endgame-seconds", "0.05")
    assert done.returncode == 0, done.stderr
    assert "\tplayouts=6\t" in done.stdout and "\tendgames=1\t" in done.stdout  # 3 candidates on 2 draws, 1 endgame
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("# endgame ")]  # the first one's own line
    fields = dict(field.split("=") for field in line.split("\t")[2:])
    assert line.startswith("# endgame g4\tEEILNOT vs ABDHIIL\t") and fields["complete"] in ("True", "False"), line
    assert int(fields["nodes"]) > 0 and float(fields["seconds"]) > 0, line
    figures = old_figures(done.stdout)
    assert figures["playouts_per_cpu_s"] > 0 and figures["endgame_nodes_per_cpu_s"] > 0


def test_the_probe_refuses_bad_arguments_by_name(positions: Path, tmp_path: Path) -> None:
    for extra, message in (
        (["--draws", "0"], "--draws must be at least 1, got 0"),
        (["--endgame-seconds", "0"], "--endgame-seconds above 0"),
        (["--endgames", str(tmp_path / "none.txt")], "none.txt: no such file"),
    ):
        done = probe(positions, *extra)
        assert done.returncode == 2 and message in done.stderr


def test_each_sides_figures_are_read_from_their_own_lines() -> None:
    assert new_figures("\n".join(bench_lines("16,338", "18,729", "750,966"))) == {
        "native_playouts_per_cpu_s_8": 16338.0,
        "native_playouts_per_cpu_s_25": 18729.0,
        "endgame_nodes_per_cpu_s": 750966.0,
    }
    assert old_figures(BASELINE.format(playouts="1,500", nodes="38,080")) == {
        "playouts_per_cpu_s": 1500.0,
        "endgame_nodes_per_cpu_s": 38080.0,
    }
    assert old_figures("# endgames\tnodes_per_cpu_s=5") == {}


def test_the_sides_run_in_turn_and_each_figure_gets_its_ratio(
    tmp_path: Path, positions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "runs.log"
    old = fake_checkout(tmp_path / "old", log, [BASELINE.format(playouts="1,500", nodes="40,000")])
    new = fake_checkout(tmp_path / "new", log, bench_lines("16,500", "18,000", "800,000"))
    assert main([str(old), "--new", str(new), "--positions", str(positions), "--rounds", "3", "--limit", "5"]) == 0
    runs = log.read_text(encoding="utf-8").splitlines()
    assert [line.split()[0] for line in runs] == ["old", "new", "new", "old", "old", "new"]
    assert (
        f"{ROOT}/offline/bench/speedprobe.py --positions {positions} --endgames {DEFAULT_FILE} --limit 5 --draws 16"
        in runs[0]
    )
    assert f"-m offline.bench --positions {positions} --sim --limit 5 --sim-candidates 8 25" in runs[1]
    out = capsys.readouterr().out.splitlines()
    assert "round 2\told\tendgame_nodes_per_cpu_s=40,000\tplayouts_per_cpu_s=1,500" in out
    assert out[-3:] == [
        "# playouts, 8 candidates: new C / old Python\trounds=3\tgeometric_mean=11.000 (11.000 .. 11.000)"
        "\tmedian=11.000\tnew_faster_in=3/3",
        "# playouts, 25 candidates: new C / old Python\trounds=3\tgeometric_mean=12.000 (12.000 .. 12.000)"
        "\tmedian=12.000\tnew_faster_in=3/3",
        "# endgame nodes per CPU second: new / old\trounds=3\tgeometric_mean=20.000 (20.000 .. 20.000)"
        "\tmedian=20.000\tnew_faster_in=3/3",
    ]


def test_what_stops_a_run_is_named(tmp_path: Path, positions: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "runs.log"
    old = fake_checkout(tmp_path / "old", log, ["# baseline\tplayouts_per_cpu_s=1,500"])
    new = fake_checkout(tmp_path / "new", log, bench_lines("16,500", "18,000", "800,000"))
    assert main([str(old), "--new", str(new), "--positions", str(positions)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: checkout old ({old}): `{old}/.venv/bin/python {ROOT}/offline/bench/speedprobe.py")
    assert "gave no endgame_nodes_per_cpu_s in its output: a warning on stderr" in err
    assert main([str(tmp_path / "none"), "--positions", str(positions)]) == 2
    assert capsys.readouterr().err.startswith(f"error: checkout {tmp_path / 'none'}: no such directory")


def test_bad_arguments_are_refused_with_their_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in (
        (["old", "--positions", str(tmp_path / "none.txt")], "--positions " + str(tmp_path / "none.txt")),
        (["old", "--positions", "p.txt", "--rounds", "0"], "--rounds must be at least 1, got 0"),
        (["old"], "the following arguments are required: --positions"),
    ):
        with pytest.raises(SystemExit):
            main(argv)
        assert message in capsys.readouterr().err
