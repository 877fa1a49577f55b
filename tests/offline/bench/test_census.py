"""The blunder census: its table by phase, a strategy measured against itself loses nothing, a weaker one
loses points, and bad options are usage errors that name the option."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from engine.board.move import Move, Pass
from engine.board.rack import Rack
from engine.endgame.native import solve_endgame
from engine.equity.strategy import Situation
from engine.movegen.generate import generate
from engine.players.registry import strategy_named
from offline.bench.census import PHASES, endgame_value, main, measure, phase_of, rows, run_census, table_lines
from tests.engine.lookahead.test_simulation import EN, played, seen_by_mover

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
    # endgame searches of one node never finish: the endgame is counted, not measured, here (the TINY
    # sim's own endgame search has a node cap, so against the exact search it may lose points there)
    decisions = run_census(TINY, "equity", TINY, games=1, ruleset=5, seed=3, endgame_nodes=1)
    table = rows(decisions)
    assert [row.phase for row in table] == [*PHASES, "all"]
    assert table[-1].decisions == len(decisions) > 5
    measured = [row for row in table if row.loss is not None]
    assert {row.phase for row in measured} >= {"opening", "middle", "all"}
    for row in measured:
        assert row.loss == 0.0 and row.agreed == 1.0 and row.win_loss in (None, 0.0), row
    endgame = [d for d in decisions if d.phase == "endgame"]
    assert any(d.loss is None for d in endgame)  # searches that cannot finish: counted, not measured
    # a search of one node finishes only in the smallest ends, where the same strategy loses nothing
    assert all(d.loss in (None, 0.0) for d in endgame)
    lines = list(table_lines(decisions))
    assert len(lines) == 1 + len(PHASES) + 1 and lines[0].split()[0] == "phase"
    assert [line.split()[0] for line in lines[1:]] == [*PHASES, "all"]


def test_a_weaker_strategy_loses_points_against_the_reference() -> None:
    decisions = run_census("greedy", "equity", TINY, games=1, ruleset=5, seed=3)
    everything = rows(decisions)[-1]
    assert everything.loss is not None and everything.loss > 0 and everything.agreed < 1


def small_endgame() -> Situation:
    """A position of a seeded equity game with the bag empty and at most three tiles on each rack."""
    for seed in range(40):
        game = played(seed, lambda g: g.is_over or (not g.bag and all(len(r) <= 3 for r in g.racks)))
        if not game.is_over:
            return seen_by_mover(game)
    raise AssertionError("no small endgame in 40 seeded games")


def test_the_endgame_is_measured_against_the_exact_search() -> None:
    situation = small_endgame()
    exact = solve_endgame(
        situation.board, situation.rack, Rack.from_bag_tiles(EN.alphabet, situation.unseen), situation.lexicon, EN,
        scoreless=situation.scoreless, seconds=math.inf,
    )  # fmt: skip
    assert exact.complete
    moves: list[Move] = [*generate(situation.board, situation.rack, situation.lexicon, EN), Pass()]
    values = []
    for move in moves:
        found = endgame_value(situation, move, 10**7)
        assert found is not None and found[0] == exact.value
        values.append(found[1])
    # every move is worth at most the position, and the best move is worth it exactly: the one-move
    # expansion (points, going out, the scoreless end) agrees with the search's own rules
    assert max(values) == exact.value == values[moves.index(exact.move)]
    worst = moves[values.index(min(values))]
    decision = measure(strategy_named(TINY), situation, worst, "endgame")  # type: ignore[arg-type]
    assert decision.loss == exact.value - min(values) and decision.agreed == (min(values) == exact.value)
    assert measure(strategy_named(TINY), situation, exact.move, "endgame").loss == 0.0  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "--games 0: expected at least 1"),
        (["--endgame-nodes", "0"], "--endgame-nodes 0: expected at least 1"),
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
        [sys.executable, "-m", "offline.bench.census", "--help"], capture_output=True, text=True, timeout=60,
        check=False
    )
    assert done.returncode == 0 and "--reference" in done.stdout and "pre-endgame" in done.stdout
