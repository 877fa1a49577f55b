"""The learned leave model: its features, its table file, the least-squares fit and the self-play samples."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest

from dictionaries.registry import LexiconRegistry
from engine.board.board import Board
from engine.board.move import Placement
from engine.board.rack import Rack
from engine.equity.leastsquares import ridge_fit, solve_positive_definite
from engine.equity.leave import HandLeave
from engine.equity.leavesamples import sample_game
from engine.equity.leavetable import LearnedLeave, LeaveFeatures, best_leave, learned_leave, read_table
from engine.equity.strategy import Equity, Greedy, Situation
from engine.errors import LeaveTableError
from engine.lexicon.dawg import Dawg
from engine.lru import LruCache
from engine.movegen.generate import generate
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5)
ES = Ruleset.for_id(6)  # CH, LL, RR are tiles of their own
SV = Ruleset.for_id(4)


def expected_names(rack: Rack, rules: Ruleset) -> list[str]:
    """The feature names of a leave, worked out from its letters (independently of the index arithmetic)."""
    tiles = [*((rules.alphabet.symbol(c), n) for c, n in enumerate(rack.counts) if n)]
    if rack.blanks:
        tiles.append(("?", rack.blanks))
    names = [f"{s}{k}" if k > 1 else s for s, n in tiles for k in range(1, min(n, 3) + 1)]
    names += [f"{a}+{b}" for (a, _), (b, _) in combinations(tiles, 2)]
    if len(rack):
        vowel_symbols = {rules.alphabet.symbol(c) for c in LeaveFeatures.for_ruleset(rules).vowels}
        vowels = sum(n for s, n in tiles if s in vowel_symbols)
        names.append(f"{len(rack)}v{vowels}")
    return names


@pytest.mark.parametrize("rules", [EN, ES, SV])
def test_features_of_random_leaves_match_their_names(rules: Ruleset) -> None:
    features = LeaveFeatures.for_ruleset(rules)
    assert len(set(features.names)) == features.size
    rng = random.Random(5)
    bag = [code for code, n in enumerate(rules.alphabet.counts) for _ in range(n)] + [-1, -1]
    for _ in range(300):
        tiles = rng.sample(bag, rng.randint(0, 6))
        rack = Rack.from_codes(rules.alphabet, [t for t in tiles if t >= 0], blanks=tiles.count(-1))
        active = features.of_rack(rack)
        assert sorted(features.names[i] for i in active) == sorted(expected_names(rack, rules)), rack.text()


def table(weights: dict[str, float], rules: Ruleset = EN) -> LearnedLeave:
    features = LeaveFeatures.for_ruleset(rules)
    values = tuple(weights.get(name, 0.0) for name in features.names)
    return LearnedLeave(rules.id, features, values, 30.0, {"games": 1})


def test_a_leave_is_worth_the_sum_of_its_features() -> None:
    model = table({"S": 8.0, "?": 25.0, "S+?": 3.0, "2v0": -1.0, "E": 1.0, "E2": -4.0, "1v1": 0.5})
    assert model.value(Rack.from_text("", EN.alphabet)) == 0.0
    assert model.value(Rack.from_text("S?", EN.alphabet)) == 8.0 + 25.0 + 3.0 - 1.0
    assert model.value(Rack.from_text("E", EN.alphabet)) == 1.0 + 0.5
    assert model.value(Rack.from_text("EE", EN.alphabet)) == 1.0 - 4.0  # 2v2 is 0 here
    assert model.weight("S+?") == 3.0


def test_a_copy_with_other_weights_values_leaves_by_its_own_weights() -> None:
    model = table({"S": 8.0})
    s = Rack.from_text("S", EN.alphabet)
    assert model.value(s) == 8.0  # now in the model's value cache
    dearer = replace(model, weights=tuple(2 * w for w in model.weights))
    assert dearer.value(s) == 16.0
    assert model.value(s) == 8.0
    logged: LruCache[tuple[tuple[int, ...], int], float] = LruCache(4)
    assert model.with_cache(logged).value(s) == 8.0
    assert len(logged) == 1


def test_table_file_round_trips_and_names_what_is_wrong(tmp_path: Path) -> None:
    model = table({"Q": -7.25, "Q+U": 4.5, "?": 24.0})
    again = LearnedLeave.from_json(model.to_json(), EN)
    assert again.weights == model.weights and again.baseline == model.baseline and again.about == {"games": 1}
    document = json.loads(model.to_json())
    assert set(document["weights"]) == {"Q", "Q+U", "?"}  # only non-zero weights are written

    def broken(change: dict[str, object]) -> str:
        return json.dumps({**document, **change})

    for text, rules, message in [
        ("{", EN, "is not JSON, so not a leave table"),
        (json.dumps({"format": "x"}), EN, "is not a wordfeud-bot leave table"),
        (broken({"version": 99}), EN, "has version 99"),
        (model.to_json(), Ruleset.for_id(0), "made for ruleset 5, not ruleset 0"),
        (broken({"alphabet": ["A"]}), EN, "another alphabet"),
        (broken({"weights": {"QQ+": 1}}), EN, "unknown feature 'QQ\\+'"),
        (broken({"weights": {"Q": "x"}}), EN, "'Q' has a non-numeric value"),
    ]:
        with pytest.raises(LeaveTableError, match=message):
            LearnedLeave.from_json(text, rules)
    path = tmp_path / "t.json"
    path.write_text(model.to_json(), encoding="utf-8")
    assert read_table(str(path), EN).weights == model.weights
    with pytest.raises(LeaveTableError, match=r"cannot read leave table .*missing\.json"):
        read_table(str(tmp_path / "missing.json"), EN)


def test_equity_plays_by_the_table_file_it_is_given(tmp_path: Path) -> None:
    words = ["QI", "QAT", "AT", "TA", "EAT", "TEA"]
    lexicon = Dawg.build(sorted({EN.alphabet.parse_word(w) for w in words}), EN.alphabet)
    s = Situation(Board(EN.alphabet), Rack.from_text("QATEEEI", EN.alphabet), EN, lexicon, (), 50)
    moves = generate(s.board, s.rack, s.lexicon, EN)
    for q_value, plays_q in [(-50.0, True), (50.0, False)]:
        path = tmp_path / f"q{q_value}.json"
        path.write_text(table({"Q": q_value}).to_json(), encoding="utf-8")
        choice = strategy_named(f"equity:{path}").rank(s, moves)[0]
        assert isinstance(choice, Placement)
        assert any(t == EN.alphabet.code("Q") for _, _, t in choice.tiles) is plays_q
    with pytest.raises(LeaveTableError, match=r"nowhere\.json"):
        strategy_named(f"equity:{tmp_path / 'nowhere.json'}").rank(s, moves)


def test_ridge_fit_recovers_known_values_and_shrinks_rare_ones() -> None:
    rng = random.Random(2)
    truth = [rng.uniform(-10, 10) for _ in range(12)]
    rows = []
    for _ in range(2000):
        active = sorted(rng.sample(range(12), rng.randint(0, 4)))
        rows.append((active, 1, 20 + sum(truth[i] for i in active)))
    intercept, weights = ridge_fit(rows, 12, ridge=0.0)
    assert intercept == pytest.approx(20, abs=1e-6)
    assert weights == pytest.approx(truth, abs=1e-6)
    # a feature seen once, with a wild target, is pulled towards 0 by the ridge
    _, lone = ridge_fit([([], 100, 100 * 20.0), ([0], 1, 80.0)], 1, ridge=30.0)
    assert 0 < lone[0] < 60 / 10
    with pytest.raises(ValueError, match="not positive definite"):
        solve_positive_definite([[1.0, 2.0], [2.0, 1.0]], [1.0, 1.0])


def english() -> Dawg:
    return LexiconRegistry().get(5)


def test_self_play_samples_are_reproducible_leaves_of_at_most_six_tiles() -> None:
    lexicon = english()
    samples = sample_game(Greedy(), EN, lexicon, seed=3)
    assert samples == sample_game(Greedy(), EN, lexicon, seed=3)
    assert 10 <= len(samples) <= 40
    for sample in samples:
        assert len(Rack.from_text(sample.leave, EN.alphabet)) <= 6
        assert sample.score >= 0
        assert sample.next_leave is None or len(Rack.from_text(sample.next_leave, EN.alphabet)) <= 6
    assert any(s.next_leave is None for s in samples) and any(s.next_leave for s in samples)
    exploring = sample_game(Greedy(), EN, lexicon, seed=3, explore=1.0)
    assert exploring != samples  # every turn picks among the top five


def test_equity_by_default_plays_the_shipped_table() -> None:
    assert Equity().leave_model(EN) is LearnedLeave.shipped(EN) is not None


@pytest.mark.parametrize(
    ("ruleset", "good", "bad"), [(5, ["?", "S", "ERS"], ["Q", "VV", "UUU"]), (1, ["?", "E", "ER"], ["W", "FH"])]
)
def test_shipped_tables_load_and_know_the_basics(ruleset: int, good: list[str], bad: list[str]) -> None:
    rules = Ruleset.for_id(ruleset)
    shipped = LearnedLeave.shipped(rules)
    assert shipped is not None and shipped.about["games"] and shipped.about["samples"]

    def value(text: str) -> float:
        return shipped.value(Rack.from_text(text, rules.alphabet))

    assert all(value(g) > 0 for g in good) and all(value(b) < 0 for b in bad)
    assert value("?") == max(value(t) for t in [*rules.alphabet.symbols, "?"])  # a blank is the best tile to keep
    if ruleset == 5:
        assert value("QU") > value("Q")  # the pair feature rescues the Q


@pytest.mark.parametrize("ruleset", range(13))
def test_every_ruleset_ships_a_table_in_which_a_blank_is_the_best_tile(ruleset: int) -> None:
    rules = Ruleset.for_id(ruleset)
    shipped = LearnedLeave.shipped(rules)
    assert shipped is not None and shipped.about["ruleset"] == ruleset
    games = shipped.about["games"]
    assert isinstance(games, int) and games >= 3000
    player = shipped.about["player"]
    if isinstance(player, str) and player.startswith("equity:"):  # learned from a table: its lineage is kept
        lineage = shipped.about.get("player_table")
        assert isinstance(lineage, dict) and lineage["ruleset"] == ruleset and lineage["games"]
    singles = {t: shipped.value(Rack.from_text(t, rules.alphabet)) for t in [*rules.alphabet.symbols, "?"]}
    assert max(singles, key=lambda t: singles[t]) == "?" and singles["?"] > 10
    assert min(singles.values()) < 0  # some tile is worse to keep than nothing


def test_a_ruleset_without_a_shipped_table_falls_back_to_the_hand_model(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(best_leave(EN), LearnedLeave)
    german = Ruleset.for_id(9)
    monkeypatch.setattr("engine.equity.leavetable._shipped", lambda ruleset_id: None)  # as if no file shipped for it
    assert LearnedLeave.shipped(german) is None and isinstance(best_leave(german), HandLeave)
    with pytest.raises(LeaveTableError, match="no learned leave table ships for ruleset 9"):
        learned_leave(german)
