"""The blunder census: its table by phase, a strategy measured against itself loses nothing, a weaker one
loses points, and bad options are usage errors that name the option."""

from __future__ import annotations

import subprocess
import sys

import pytest

from offline.census import PHASES, main, phase_of, rows, run_census, table_lines

TINY = "sim:candidates=3,iterations=8,seconds=0"


def test_phases_follow_the_move_number_and_the_bag() -> None:
    assert [phase_of(0, 90), phase_of(1, 0), phase_of(2, 17), phase_of(2, 16), phase_of(5, 7)] == [
        "opening",
        "opening",
        "middle",
        "late",
        "late",
    ]
    assert [phase_of(9, 6), phase_of(9, 1), phase_of(9, 0)] == ["pre-endgame", "pre-endgame", "endgame"]


def test_a_strategy_measured_against_itself_loses_nothing_in_every_phase() -> None:
    decisions = run_census(TINY, "equity", TINY, games=1, ruleset=5, seed=3)
    table = rows(decisions)
    assert [row.phase for row in table] == [*PHASES, "all"]
    assert table[-1].decisions == len(decisions) > 5
    measured = [row for row in table if row.loss is not None]
    assert {row.phase for row in measured} >= {"opening", "middle", "all"}
    for row in measured:
        assert row.loss == 0.0 and row.agreed == 1.0 and row.win_loss in (None, 0.0), row
    # the endgame is counted but not measured
    assert all(d.loss is None for d in decisions if d.phase == "endgame")
    lines = list(table_lines(decisions))
    assert len(lines) == 1 + len(PHASES) + 1 and lines[0].split()[0] == "phase"
    assert [line.split()[0] for line in lines[1:]] == [*PHASES, "all"]


def test_a_weaker_strategy_loses_points_against_the_reference() -> None:
    decisions = run_census("greedy", "equity", TINY, games=1, ruleset=5, seed=3)
    everything = rows(decisions)[-1]
    assert everything.loss is not None and everything.loss > 0 and everything.agreed < 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "--games 0: expected at least 1"),
        (["--a", "sim"], "--a: strategy 'sim' has a time limit"),
        (["--b", "nosuch"], "--b: unknown strategy 'nosuch'"),
        (["--reference", "equity"], "--reference 'equity': expected a sim"),
        (["--reference", "sim:candidates=x,seconds=0"], "--reference: sim option candidates='x'"),
        (["--ruleset", "99"], "--ruleset 99: unknown ruleset id"),
    ],
)
def test_bad_options_are_usage_errors_naming_the_option(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_the_command_has_help() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "offline.census", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0 and "--reference" in done.stdout and "pre-endgame" in done.stdout
