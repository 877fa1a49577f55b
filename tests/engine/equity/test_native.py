"""The strategies' ``best``: the top k moves ranked inside the C search must be exactly the first k of
ranking every move in Python (the same moves, equities and tie-breaks), for learned and hand-made
leaves, greedy, every bag size, and every k; the learned leave values agree to the last bit."""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator
from functools import cache

import pytest

from dictionaries import bundled_path
from engine import native
from engine.board.rack import Rack
from engine.equity import native as leavenative
from engine.equity.leavetable import LearnedLeave
from engine.equity.strategy import Equity, Greedy, Situation, Strategy
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset
from tests.engine.randomgames import random_layout, synthetic_words

needs_native = pytest.mark.skipif(native.NATIVE is None, reason=native.describe())


@cache
def english() -> Dawg:
    rules = Ruleset.for_id(5)
    return Dawg.load(bundled_path("en/enable.dawg"), rules.alphabet)


@cache
def synthetic(ruleset: int, seed: int) -> Dawg:
    rules = Ruleset.for_id(ruleset)
    words = synthetic_words(random.Random(seed), rules, 1500)
    return Dawg.build([rules.alphabet.parse_word(w) for w in words], rules.alphabet)


def situations(games: int) -> Iterator[tuple[str, Situation]]:
    """Every turn of seeded games (English with its real lexicon; Norwegian with a learned table and
    Spanish with the hand model on dense synthetic lexicons; a third of them on random boards)."""
    for number in range(games):
        rng = random.Random(number)
        ruleset = (5, 5, 1, 6)[number % 4]
        rules = Ruleset.for_id(ruleset)
        lexicon = english() if ruleset == 5 else synthetic(ruleset, number)
        if number % 3 == 2:
            rules = rules.with_layout(random_layout(rng))
        game = Game(rules, lexicon, rng)
        turn = 0
        while not game.is_over and turn < 30:
            seat = game.current
            situation = Situation(
                game.board, game.rack, rules, lexicon, tuple(game.unseen(seat)), len(game.bag), (0, 0)
            )
            yield f"game {number} turn {turn} ({rules.code}, bag {len(game.bag)})", situation
            moves = generate(game.board, game.rack, lexicon, rules)
            if moves:
                game.place(rng.choice(sorted(moves, key=lambda m: m.tiles)))
            elif len(game.bag) >= rules.swap_min_bag:
                game.swap(game.rack.letters()[:1] or [-1])
            else:
                game.pass_turn()
            turn += 1


STRATEGIES: tuple[Strategy, ...] = (strategy_named("equity"), strategy_named("equity-hand"), Greedy())


@needs_native
def test_best_is_the_head_of_rank_for_every_strategy_and_k() -> None:
    checked = swaps_seen = 0
    for label, situation in situations(24):
        placements = generate(situation.board, situation.rack, situation.lexicon, situation.rules, generator="python")
        for strategy in STRATEGIES:
            ranked = strategy.rank(situation, placements)
            for k in (1, 3, 25):
                assert strategy.best(situation, k) == ranked[:k], f"{label}: {strategy.name} k={k}"
                checked += 1
            swaps_seen += any(type(m).__name__ == "Swap" for m in ranked[:25])
    assert checked > 3000 and swaps_seen > 20, (checked, swaps_seen)


@needs_native
def test_the_native_leave_table_adds_like_the_reference() -> None:
    for ruleset in (5, 1):
        rules = Ruleset.for_id(ruleset)
        model = LearnedLeave.shipped(rules)
        assert model is not None
        table = leavenative.leave_table(model)
        rng = random.Random(ruleset)
        for _ in range(2000):
            size = rng.randint(0, 7)
            blanks = rng.choice((0, 0, 0, 1, 2))
            letters = [rng.randrange(len(rules.alphabet)) for _ in range(max(0, size - blanks))]
            leave = Rack.from_codes(rules.alphabet, letters, blanks)
            assert table.value(leave.counts, leave.blanks) == model.value(leave)  # bit for bit


@needs_native
def test_kept_values_follow_the_mixed_radix_order() -> None:
    rules = Ruleset.for_id(5)
    rack = Rack.from_text("AAB?", rules.alphabet)
    hand = Equity().leave_model(rules)
    values = leavenative.kept_values(rack, hand)
    # letters in code order (A x2, B x1), then the blank: index = a + 3 * b + 6 * blank
    assert len(values) == 3 * 2 * 2
    assert values[0] == 0.0  # nothing kept
    assert values[2 + 3 * 1 + 6 * 1] == hand.value(rack)
    assert values[1 + 6] == hand.value(Rack.from_text("A?", rules.alphabet))
    assert leavenative.kept_values(rack, None) == [0.0] * 12


@needs_native
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"leave": [0.0] * 3}, "3 kept-leave values for a rack with 64 kept multisets"),
        ({"leave": "abc"}, "kept-leave values|must be real number"),
        ({"leave": object()}, "LeaveTable or a sequence"),
        ({"k": -1}, "k=-1"),
        ({"swaps": 10**9}, "swaps=1000000000"),
        ({"counts": (9,) * 26}, "holds 9|racks hold"),
        ({"blanks": 40}, "blanks"),
    ],
)
def test_top_equity_refuses_bad_input_naming_it(change: dict[str, object], message: str) -> None:
    rules = Ruleset.for_id(5)
    rack = Rack.from_text("AEIRST", rules.alphabet)
    native.set_types()  # what the first generate does
    arguments: dict[str, object] = {
        "lexicon": native.lexicon(english()),
        "rules": native.rules(rules),
        "grid": [[-1] * 15 for _ in range(15)],
        "counts": rack.counts,
        "blanks": 0,
        "leave": [0.0] * 64,
        "k": 5,
        "weight": 1.0,
        "swaps": 5,
        "swap_cost": 0.0,
    }
    arguments.update(change)
    assert native.NATIVE is not None
    with pytest.raises((ValueError, TypeError), match=message):
        native.NATIVE.top_equity(**arguments)


@needs_native
def test_a_leave_table_of_the_wrong_shape_is_refused() -> None:
    assert native.NATIVE is not None
    with pytest.raises(ValueError, match="leave weights must be"):
        native.NATIVE.LeaveTable(array("d", [0.0] * 10), 26, 0, 6)
    with pytest.raises(ValueError, match="vowel outside"):
        native.NATIVE.LeaveTable(array("d", [0.0] * 10), 3, 1 << 5, 6)
    with pytest.raises(ValueError, match="not supported"):
        native.NATIVE.LeaveTable(array("d"), 0, 0, 6)


def test_without_the_kernel_best_is_rank_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "GENERATOR", "python")
    for label, situation in situations(2):
        placements = generate(situation.board, situation.rack, situation.lexicon, situation.rules)
        for strategy in STRATEGIES:
            assert strategy.best(situation, 4) == strategy.rank(situation, placements)[:4], label
