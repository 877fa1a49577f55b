"""``Dawg.with_words`` (words the server accepted added to a lexicon) and with ``without`` on top.

The derived copy must hold exactly the old words plus the new ones, and both move generators must
find on it exactly the moves they find on a lexicon built from scratch from the same words."""

from __future__ import annotations

import random

import pytest

from engine import native
from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.rules.ruleset import Ruleset
from tests.engine.randomgames import play_random, random_games

EN = Ruleset.for_id(5)
GENERATORS = ["python", "native"] if native.NATIVE is not None else ["python"]


def lex(words: list[str]) -> Dawg:
    return Dawg.build([EN.alphabet.parse_word(w) for w in words], EN.alphabet)


def texts(dawg: Dawg) -> list[str]:
    return [EN.alphabet.format_word(w) for w in dawg.words()]


def codes(words: list[str]) -> list[tuple[int, ...]]:
    return [EN.alphabet.parse_word(w) for w in words]


def test_added_words_and_only_they_appear() -> None:
    base = lex(["BATS", "CATS", "CAT", "DOG"])  # BATS and CATS share their ending nodes
    larger = base.with_words(codes(["CATSUP", "CA", "ZA", "DOGE", "AAH"]))
    assert texts(larger) == sorted(["AAH", "BATS", "CA", "CAT", "CATS", "CATSUP", "DOG", "DOGE", "ZA"])
    assert len(larger) == 9 and larger.derived
    assert "BATSUP" not in larger and "C" not in larger and "Z" not in larger
    assert texts(base) == ["BATS", "CAT", "CATS", "DOG"]  # the original is untouched
    assert base.with_words(codes(["CAT"])) is base  # nothing new: the lexicon itself
    with pytest.raises(LexiconError, match="cannot add word"):
        base.with_words([()])
    with pytest.raises(LexiconError, match="outside the alphabet"):
        base.with_words([(1, 40)])


def test_an_empty_lexicon_grows() -> None:
    empty = Dawg.build([], EN.alphabet)
    assert texts(empty.with_words(codes(["QI", "ZA"]))) == ["QI", "ZA"]


def test_added_then_refused_words_compose() -> None:
    base = lex(["CAT", "CATS", "BAT", "BATS"])
    view = base.with_words(codes(["CATSUP", "ZA"])).without(codes(["CATS", "BAT"]))
    assert texts(view) == ["BATS", "CAT", "CATSUP", "ZA"] and len(view) == 4
    again = view.with_words(codes(["CATS"]))
    assert texts(again) == ["BATS", "CAT", "CATS", "CATSUP", "ZA"]


@pytest.mark.parametrize("seed", range(30))
def test_random_additions_match_a_rebuild(seed: int) -> None:
    rng = random.Random(seed)
    letters = "ABCDEZ"
    universe = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(2, 6))) for _ in range(400)})
    base_words = rng.sample(universe, 150)
    extra = rng.sample(universe, 40) + [w + "Q" for w in rng.sample(base_words, 5)] + [w[:-1] for w in base_words[:5]]
    extra = [w for w in extra if len(w) >= 2]
    larger = lex(base_words).with_words(codes(extra))
    expected = sorted(set(base_words) | set(extra))
    assert sorted(texts(larger)) == expected and len(larger) == len(expected)
    for probe in [*universe, "QQ", "AQ"]:
        assert (probe in larger) == (probe in expected)


def test_generators_find_the_same_moves_as_on_a_rebuilt_lexicon() -> None:
    """On 120 positions of random games: each generator on base + added words == on the rebuilt list."""
    rng = random.Random(7)
    checked = 0
    for _label, rules, word_list, board, rack, game_rng in random_games(120, rulesets=(5,)):
        words = sorted(word_list)
        added = rng.sample(words, len(words) // 5)
        base_words = [w for w in words if w not in added]
        alphabet = rules.alphabet
        base = Dawg.build([alphabet.parse_word(w) for w in base_words], alphabet)
        derived = base.with_words([alphabet.parse_word(w) for w in added])
        rebuilt = Dawg.build([alphabet.parse_word(w) for w in words], alphabet)
        want = {(m.tiles, m.direction, m.score) for m in generate(board, rack, rebuilt, rules, generator="python")}
        for generator in GENERATORS:
            got = {(m.tiles, m.direction, m.score) for m in generate(board, rack, derived, rules, generator=generator)}
            assert got == want, generator
        play_random(game_rng, board, generate(board, rack, rebuilt, rules))
        checked += 1
    assert checked == 120
