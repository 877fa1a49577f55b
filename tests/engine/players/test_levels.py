"""Strength levels: only words of the level's vocabulary, no longer words than it allows, bingos only as
often as it sees them, slips to good moves only, the same move for the same game and position, and the
data of every level and language."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.board.board import Board
from engine.board.move import Placement
from engine.board.rack import Rack
from engine.equity.strategy import Greedy, Situation, unseen_tiles
from engine.game import Game
from engine.movegen.generate import generate
from engine.movegen.score import word_texts
from engine.players.levels import KEPT, LevelStrategy, common_words, level_named, levels, wordfreq_language
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset
from tests.lexicons import EN, english


def _situation(game: Game, game_id: int = 0) -> Situation:
    seat = game.current
    unseen = tuple(game.unseen(seat))
    scores = (game.scores[seat], game.scores[1 - seat])
    return Situation(game.board.copy(), game.rack, EN, english(), unseen, len(game.bag), scores, game_id=game_id)


def _positions(count: int, seed: int = 3) -> list[Situation]:
    """Positions from greedy self-play on the bundled English lexicon."""
    rng = random.Random(seed)
    found: list[Situation] = []
    while len(found) < count:
        game = Game(EN, english(), random.Random(rng.randrange(1 << 30)))
        for _ in range(rng.randrange(0, 12)):
            if game.is_over:
                break
            game.play(Greedy().best(_situation(game), 1)[0])
        if not game.is_over:
            found.append(_situation(game, rng.randrange(1, 1 << 40)))
    return found


def _words(situation: Situation, move: Placement) -> list[str]:
    return word_texts(situation.board, move)


def test_every_level_and_language_is_in_the_data() -> None:
    names = list(levels())
    assert names == ["beginner", "casual", "club", "strong", "full"]
    vocabularies = [levels()[n].vocabulary for n in names[:3]]
    assert vocabularies == sorted(vocabularies) and all(vocabularies)
    for rules in Ruleset.all():
        assert wordfreq_language(rules)
    assert wordfreq_language(Ruleset.for_code("nn")) == "nb"  # wordfreq has no nynorsk list
    with pytest.raises(ValueError, match="unknown level 'godlike'; known: beginner, casual"):
        level_named("godlike")
    assert strategy_named("level:strong").name == "level:strong"
    assert strategy_named("level:full").name == "sim"


def test_a_level_plays_only_words_of_its_vocabulary_and_length() -> None:
    words = common_words(EN, level_named("beginner").vocabulary)
    assert 5_000 < len(words) <= 8_000 and {"THE", "HOUSE", "WATER"} <= words and "QI" not in words
    strategy = strategy_named("level:beginner")
    played = 0
    for situation in _positions(25):
        placements = generate(situation.board, situation.rack, situation.lexicon, situation.rules)
        move = strategy.rank(situation, placements)[0]
        if isinstance(move, Placement):
            played += 1
            texts = _words(situation, move)
            assert all(text in words for text in texts), texts
            assert len(texts[0]) <= level_named("beginner").longest
    assert played >= 15


def test_an_injected_vocabulary_is_all_a_level_knows() -> None:
    board = Board(EN.alphabet)
    rack = Rack.from_text("AEINRST", EN.alphabet)
    situation = Situation(board, rack, EN, english(), unseen_tiles(board, rack, EN), 86)
    placements = generate(board, rack, english(), EN)
    bingo = replace(level_named("strong"), name="t", vocabulary=10, longest=0)
    known = LevelStrategy(bingo, Greedy(), words=lambda rules, size: frozenset({"RETAINS", "STAIR"}))
    ranked = known.rank(situation, placements)
    assert {" ".join(_words(situation, m)) for m in ranked if isinstance(m, Placement)} == {"RETAINS", "STAIR"}
    assert isinstance(ranked[0], Placement) and _words(situation, ranked[0]) == ["RETAINS"]  # the bingo scores more
    blind = LevelStrategy(replace(bingo, bingo=0.0), Greedy(), words=known.words)
    first = blind.rank(situation, placements)[0]
    assert isinstance(first, Placement) and _words(situation, first) == ["STAIR"]  # a bingo never seen


def test_slips_go_to_good_moves_and_the_same_position_gives_the_same_move() -> None:
    slipping = replace(level_named("strong"), name="slipping", slip=1.0, spread=4, floor=0.5)
    strategy = LevelStrategy(slipping, Greedy())
    slipped = 0
    for situation in _positions(20, seed=5):
        placements = generate(situation.board, situation.rack, situation.lexicon, situation.rules)
        best = Greedy().rank(situation, placements)
        first = strategy.rank(situation, placements)
        assert first == LevelStrategy(slipping, Greedy()).rank(situation, placements)  # replayed: the same
        chosen = first[0]
        if isinstance(chosen, Placement) and chosen != best[0]:
            slipped += 1
            assert chosen in best[1:5]
            assert (chosen.score or 0) >= 0.5 * (best[0].score or 0)
        assert len([m for m in first if isinstance(m, Placement)]) <= KEPT
    assert slipped >= 10


@pytest.mark.parametrize("name", ["beginner", "casual", "club"])
def test_each_level_plays_whole_games_and_ranks_a_move_every_turn(name: str) -> None:
    strategy = strategy_named(f"level:{name}")
    game = Game(EN, english(), random.Random(11))
    turns = 0
    while not game.is_over and turns < 60:
        situation = _situation(game, 7)
        ranked = strategy.rank(situation, generate(situation.board, situation.rack, situation.lexicon, EN))
        assert ranked
        game.play(ranked[0])
        turns += 1
    assert game.is_over
