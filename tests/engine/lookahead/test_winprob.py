"""The win-chance model: its shape, its data, the fit that makes it, and how the simulation uses it."""

from __future__ import annotations

import dataclasses
import math
import random
import tomllib
from pathlib import Path

import pytest

from engine.board.move import Direction, Pass, Placement
from engine.equity.strategy import Equity
from engine.errors import EngineError
from engine.lookahead.simulation import SimSettings, Simulator
from engine.lookahead.winprob import FALLBACK_RULESET, WinModel
from engine.players.registry import strategy_named
from engine.rules.ruleset import RULESET_IDS, Ruleset
from offline.learning import winfit
from offline.learning.winfit import Sample
from tests.engine.lookahead.test_simulation import english, midgame


def test_the_chance_rises_with_the_lead_and_a_lead_counts_more_late() -> None:
    model = WinModel(5, tempo=20.0, scale=15.0, per_tile=0.5, tiles_per_move=4.5)
    leads = [-300.0, -50.0, 0.0, 20.0, 40.0, 300.0]
    chances = [model.probability(lead, 30) for lead in leads]
    assert chances == sorted(chances) and chances[0] < 1e-3 and chances[-1] > 1 - 1e-3
    assert model.probability(20.0, 50) == pytest.approx(0.5)  # the tempo is the even lead
    assert model.probability(50.0, 0) > model.probability(50.0, 80) > 0.5
    assert model.probability(-1e6, 0) == 0.0 and model.probability(1e6, 0) == 1.0  # no overflow


@pytest.mark.parametrize(
    ("scale", "per_tile", "tiles_per_move"),
    [(0.0, 1.0, 4.0), (10.0, -1.0, 4.0), (10.0, 1.0, 0.0), (math.nan, 1.0, 4.0)],
)
def test_a_model_that_cannot_be_is_refused(scale: float, per_tile: float, tiles_per_move: float) -> None:
    with pytest.raises(ValueError, match="not a win model"):
        WinModel(5, 0.0, scale, per_tile, tiles_per_move)


def test_every_ruleset_has_a_fit_of_its_own_and_the_shipped_fits_say_where_they_come_from() -> None:
    for ruleset in RULESET_IDS:
        model = WinModel.for_ruleset(ruleset)
        assert model.ruleset == ruleset  # not the fallback's (fitted per ruleset)
        assert 0 < model.probability(0.0, 50) < 1
    data = tomllib.loads((Path(winfit.__file__).parents[2] / "engine/data/winprob.toml").read_text())
    assert str(FALLBACK_RULESET) in data["ruleset"]
    for entry in data["ruleset"].values():
        assert "winfit --ruleset " in entry["source"]  # the command of its day: offline.winfit before 2026-12-07


def drawn(truth: WinModel, count: int, rng: random.Random) -> list[Sample]:
    """``count`` positions of random leads and bags, each won with the chance ``truth`` gives it."""
    samples = []
    for _ in range(count):
        lead, bag = rng.uniform(-120, 160), rng.randrange(0, 90)
        samples.append(Sample(lead, bag, 1.0 if rng.random() < truth.probability(lead, bag) else 0.0))
    return samples


def test_the_fit_finds_the_parameters_samples_were_drawn_from() -> None:
    truth = WinModel(5, tempo=18.0, scale=12.0, per_tile=0.7, tiles_per_move=4.0)
    rng = random.Random(3)
    samples = drawn(truth, 6000, rng)
    fitted = winfit.fit(5, samples, 4.0)
    assert fitted.tempo == pytest.approx(18.0, abs=3.0)
    assert fitted.scale == pytest.approx(12.0, rel=0.3)
    assert fitted.per_tile == pytest.approx(0.7, rel=0.3)
    # and it predicts better than the bare sign of the lead on samples it was not fitted on
    fresh = drawn(truth, 2000, rng)
    assert winfit.brier(fresh, lambda s: fitted.probability(s.lead, s.bag)) < winfit.brier(fresh, winfit.sign)


def test_the_report_sets_the_fit_beside_another_rulesets_model_and_the_sign() -> None:
    truth = WinModel(3, tempo=15.0, scale=13.0, per_tile=0.6, tiles_per_move=3.9)
    other = WinModel(5, tempo=21.0, scale=14.6, per_tile=0.64, tiles_per_move=4.5)
    held_out = drawn(truth, 4000, random.Random(5))
    lines = winfit.report(truth, held_out, other)
    assert (
        lines[0]
        == "held out: 4,000 positions; Brier score (lower is better), model vs ruleset 5's model vs sign of the lead"
    )
    scores = dict(part.rsplit(" ", 1) for part in lines[-1].split(": ", 1)[1].split(", "))
    assert float(scores["model"]) < float(scores["ruleset 5's model"]) < float(scores["sign"])
    assert float(scores["model"]) == pytest.approx(
        winfit.brier(held_out, lambda s: truth.probability(s.lead, s.bag)), abs=5e-5
    )
    assert all("ruleset 5's model" in line for line in lines[1:])  # every bucket and the whole
    assert "ruleset 5's model" not in "\n".join(winfit.report(truth, held_out))


def test_too_few_samples_are_refused() -> None:
    with pytest.raises(EngineError, match="3 samples are too few"):
        winfit.fit(5, [Sample(1.0, 1, 1.0)] * 3, 4.0)


def test_self_play_samples_are_positions_of_a_finished_game() -> None:
    samples, placed = winfit.play(Ruleset.for_id(5), english(), seed=11)
    assert len(samples) > 10 and placed and all(1 <= n <= 7 for n in placed)
    assert {s.result for s in samples} <= {0.0, 0.5, 1.0}
    bags = [s.bag for s in samples]
    assert bags == sorted(bags, reverse=True)  # in the order they were played
    # the two sides alternate: their results are opposite (no draw in this game)
    assert {s.result for s in samples[:2]} == {0.0, 1.0}


def test_writing_a_fit_keeps_the_other_rulesets(tmp_path: Path) -> None:
    path = tmp_path / "winprob.toml"
    winfit.write(WinModel(5, 21.0, 15.0, 0.5, 4.5), "python -m offline.learning.winfit --ruleset 5", path)
    winfit.write(WinModel(1, 19.5, 14.0, 0.6, 4.2), "python -m offline.learning.winfit --ruleset 1", path)
    data = tomllib.loads(path.read_text())["ruleset"]
    assert data["5"]["tempo"] == 21.0 and data["1"]["per_tile"] == 0.6
    assert data["1"]["source"] == "python -m offline.learning.winfit --ruleset 1"


def test_winfit_refuses_a_bad_game_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        winfit.main(["--games", "2"])
    assert stopped.value.code == 2
    assert "--games must be at least 5, got 2" in capsys.readouterr().err


def test_sim_counts_a_lead_by_its_chance_above_the_pre_endgame_and_by_its_sign_below() -> None:
    situation = midgame(5)  # many tiles in the bag
    assert situation.bag_count > 30
    ranked_by_wins = SimSettings(by_wins_below=100)  # by wins at every bag size, so the model shows this early
    simulation = Simulator(Equity(), ranked_by_wins, rng=random.Random(1))
    chance = WinModel.for_ruleset(5)
    won = simulation._winning(situation, ranked_by_wins.phase(situation.bag_count))
    move = Pass()
    later = round(max(0.0, situation.bag_count - 2 * chance.tiles_per_move))
    assert won(move)(30.0) == pytest.approx(chance.probability(30.0, later))
    assert 0 < won(move)(chance.tempo - 10) < 0.5 < won(move)(chance.tempo + 10) < 1  # the tempo is the even lead
    # a placement draws its tiles first: fewer left at the horizon, a lead counts more
    placement = Placement(((7, 7, 0), (7, 8, 1), (7, 9, 2)), Direction.ACROSS, 10)
    after_placement = round(max(0.0, situation.bag_count - 2 * chance.tiles_per_move - 3))
    assert won(placement)(60.0) == pytest.approx(chance.probability(60.0, after_placement)) and after_placement < later
    assert won(placement)(60.0) > won(move)(60.0)
    by_points = Simulator(Equity(), SimSettings(), rng=random.Random(1))
    sign = by_points._winning(situation, SimSettings().phase(situation.bag_count))(move)
    assert (sign(5.0), sign(0.0), sign(-5.0)) == (1.0, 0.5, 0.0)
    late = dataclasses.replace(situation, bag_count=SimSettings().pre_endgame)
    assert simulation._winning(late, ranked_by_wins.phase(late.bag_count))(move)(5.0) == 1.0
    no_model = SimSettings(win_model=False, by_wins_below=100)
    simulation = Simulator(Equity(), no_model, rng=random.Random(1))
    without = simulation._winning(situation, no_model.phase(situation.bag_count))
    assert without(move)(5.0) == 1.0


def test_the_sim_option_turns_the_model_off_and_names_bad_values() -> None:
    assert strategy_named("sim:winmodel=0").settings.win_model is False  # type: ignore[attr-defined]
    assert strategy_named("sim").settings.win_model is True  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="winmodel='2': expected 0 or 1"):
        strategy_named("sim:winmodel=2")


def test_the_sim_option_sets_where_ranking_by_wins_begins() -> None:
    assert strategy_named("sim:winsbelow=200").settings.by_wins_below == 200  # type: ignore[attr-defined]
    assert strategy_named("sim").settings.by_wins_below == SimSettings().by_wins_below  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"winsbelow='2\.5': expected a whole number"):
        strategy_named("sim:winsbelow=2.5")
