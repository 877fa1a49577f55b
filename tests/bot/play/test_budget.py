"""Thinking time: a turn keeps to its budget (read from an injected clock), and a pass shares the
poll interval between the games waiting, so that each is played within it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.play.service import PassReport
from bot.play.turn import Outcome, TurnReport
from engine.lookahead.simulation import Sim, SimSettings
from tests.bot.conftest import Sandbox, SteppingClock


def test_a_simulating_turn_keeps_to_its_budget(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game(5)
    wiring = sandbox.wire(tmp_path / "s.db", play={"seconds_per_move": 4.0})
    sim = Sim(settings=SimSettings(seconds=600.0, max_iterations=10**6, min_iterations=10**6), clock=SteppingClock())
    wiring.bot.turns.strategy = sim
    played = []
    original = Sim.budgeted

    def spy(self: Sim, seconds: float) -> Sim:
        chosen = original(self, seconds)
        played.append(chosen)
        return chosen

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Sim, "budgeted", spy)
        report = wiring.bot.turns.play(sgame.id)
    assert report.outcome == Outcome.PLAYED
    [used] = played
    assert used.settings.seconds == 4.0 and used.last is not None
    # one clock reading at the start, one before each further iteration: 4 s allow 4 iterations
    assert used.last.iterations == 4 and used.last.seconds == 5.0
    wiring.store.close()


def test_twenty_waiting_games_share_the_poll_interval(sandbox: Sandbox, tmp_path: Path) -> None:
    games = [sandbox.game(5) for _ in range(20)]
    wiring = sandbox.wire(tmp_path / "s.db", play={"strategy": "greedy", "seconds_per_move": 10.0})
    assert wiring.bot.pass_seconds == 30.0  # schedule.poll_seconds, the default
    budgets: list[tuple[int, float | None]] = []
    play = wiring.bot.turns.play

    def spy(game_id: int, seconds: float | None = None) -> TurnReport:
        budgets.append((game_id, seconds))
        return play(game_id, seconds)

    wiring.bot.turns.play = spy  # type: ignore[method-assign]
    report: PassReport = wiring.bot.run_pass()
    assert sorted(game_id for game_id, _ in budgets) == sorted(g.id for g in games)
    assert {seconds for _, seconds in budgets} == {0.8 * 30.0 / 20}  # 1.2 s each: 24 s for all twenty
    assert report.acted == 20
    wiring.store.close()
