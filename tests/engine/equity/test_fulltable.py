"""The full leave table: its fit (own values shrunk towards the factorised model, which the rare leaves
keep), its file, and equity playing by it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.board.board import Board
from engine.board.move import Placement
from engine.board.rack import Rack
from engine.equity.fulltable import FullLeave, LeaveStats, fit_full, read_leave_model
from engine.equity.leavetable import LearnedLeave, LeaveFeatures
from engine.equity.strategy import Situation
from engine.errors import LeaveTableError
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5)


def base(weights: dict[str, float], baseline: float = 30.0) -> LearnedLeave:
    features = LeaveFeatures.for_ruleset(EN)
    return LearnedLeave(5, features, tuple(weights.get(n, 0.0) for n in features.names), baseline, {"games": 1})


def rack(text: str) -> Rack:
    return Rack.from_text(text, EN.alphabet)


def test_fit_shrinks_own_means_towards_the_factorised_value_and_backs_off_below_the_count() -> None:
    model = base({"S": 4.0, "E": 1.0, "Q": -6.0, "E2": -3.0})
    stats = {
        "S": LeaveStats(300, 300 * 40.0, {}),  # own mean 40 - 30 = 10; prior 4
        "EE": LeaveStats(100, 100 * 25.0, {}),  # own mean -5; prior E + E2 = 1 - 3 = -2
        "Q": LeaveStats(9, 9 * 0.0, {}),  # seen 9 times, below the count: the factorised -6
        "": LeaveStats(1000, 1000 * 31.0, {}),  # nothing kept: always 0
    }
    full = fit_full(stats, model, EN, min_count=10, shrink=100.0, rounds=1)
    assert full.value(rack("S")) == pytest.approx((300 * 10.0 + 100 * 4.0) / 400)  # 8.5
    assert full.value(rack("EE")) == pytest.approx((100 * -5.0 + 100 * -2.0) / 200)  # -3.5
    assert full.value(rack("Q")) == pytest.approx(-6.0)
    assert full.value(rack("")) == 0.0
    assert full.value(rack("SE")) == pytest.approx(5.0)  # never seen: the factorised sum
    assert set(full.values) == {(rack(t).counts, rack(t).blanks) for t in ["S", "EE"]}
    assert fit_full(stats, model, EN, min_count=10, shrink=0.0, rounds=1).value(rack("S")) == pytest.approx(10.0)


def test_later_rounds_value_the_next_leave_by_the_table_itself() -> None:
    # a blank kept: 35 points next turn, kept again half the time; the factorised model says 0 for it
    stats = {"?": LeaveStats(200, 200 * 35.0, {"?": 100})}
    one = fit_full(stats, base({}), EN, min_count=1, shrink=0.0, rounds=1)
    assert one.value(rack("?")) == pytest.approx(5.0)
    settled = fit_full(stats, base({}), EN, min_count=1, shrink=0.0, rounds=60)
    assert settled.value(rack("?")) == pytest.approx(10.0, abs=1e-6)  # v = 5 + v / 2


def test_full_table_file_round_trips_and_a_truncated_or_foreign_file_is_refused(tmp_path: Path) -> None:
    full = fit_full({"S?": LeaveStats(50, 50 * 60.0, {})}, base({"?": 20.0}), EN, min_count=5, shrink=50.0, rounds=1)
    path = tmp_path / "full.json"
    path.write_text(full.to_json(EN), encoding="utf-8")
    again = read_leave_model(str(path), EN)
    assert isinstance(again, FullLeave) and again.values == full.values and again.base.weights == full.base.weights
    assert again.value(rack("S?")) == pytest.approx(25.0) and again.value(rack("?")) == pytest.approx(20.0)
    factorised = tmp_path / "factorised.json"
    factorised.write_text(base({"Q": -5.0}).to_json(), encoding="utf-8")
    assert isinstance(read_leave_model(str(factorised), EN), LearnedLeave)
    document = json.loads(full.to_json(EN))
    text = full.to_json(EN)
    for name, content, message in [
        ("truncated.json", text[: len(text) // 2], "is not JSON"),
        ("foreign.json", json.dumps({"format": "some other program's leaves"}), "is not a wordfeud-bot leave table"),
        ("other.json", json.dumps({**document, "ruleset": 0}), "made for ruleset 0, not ruleset 5"),
        ("badleave.json", json.dumps({**document, "leaves": {"S5": 1.0}}), "leave 'S5' is not a leave"),
        ("long.json", json.dumps({**document, "leaves": {"SSSSEEE": 1.0}}), "has 7 tiles"),
        ("nobase.json", json.dumps({**document, "base": {"format": "x"}}), "its factorised model"),
    ]:
        bad = tmp_path / name
        bad.write_text(content, encoding="utf-8")
        with pytest.raises(LeaveTableError, match=rf"leave table {bad}.*{message}"):
            read_leave_model(str(bad), EN)


def test_equity_plays_by_a_full_table_file(tmp_path: Path) -> None:
    words = ["QI", "QAT", "AT", "TA", "EAT", "TEA"]
    lexicon = Dawg.build(sorted({EN.alphabet.parse_word(w) for w in words}), EN.alphabet)
    s = Situation(Board(EN.alphabet), rack("QATEEEI"), EN, lexicon, (), 50)
    moves = generate(s.board, s.rack, s.lexicon, EN)
    q = EN.alphabet.code("Q")
    for own, plays_q in [(-50.0, True), (50.0, False)]:
        # the factorised model says nothing; the table's own values for the leaves with the Q decide
        values = {(r.counts, r.blanks): own for r in (rack(t) for t in ["QEEE", "QEEI", "QEE", "QEEEI", "QIEE"])}
        path = tmp_path / f"q{own}.json"
        path.write_text(FullLeave(base({}), values, 1, 0.0).to_json(EN), encoding="utf-8")
        for name in (f"equity:{path}",):
            strategy = strategy_named(name)
            choice = strategy.rank(s, moves)[0]
            assert isinstance(choice, Placement)
            assert any(t == q for _, _, t in choice.tiles) is plays_q
            best = strategy.best(s, 1)[0]  # the C kernel, given the kept values
            assert isinstance(best, Placement) and best.tiles == choice.tiles
