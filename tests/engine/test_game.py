"""The local game: dealing, turns, swaps, passes, resigning, the end rules and tile conservation."""

from __future__ import annotations

import random
from functools import cache

import pytest

from dictionaries import bundled_path
from engine.board.board import Board
from engine.board.move import Pass, Placement, Swap, parse_move
from engine.board.rack import Rack
from engine.errors import GameOverError, IllegalMoveError
from engine.game import OUT, RESIGNED, SCORELESS, Game, Resign
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.rules.layout import BoardLayout
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK

EN = Ruleset.for_id(5)
NB = Ruleset.for_id(1)


@cache
def english() -> Dawg:
    return Dawg.load(bundled_path("en/enable.dawg"), EN.alphabet)


def full_set(rules: Ruleset) -> list[int]:
    alphabet = rules.alphabet
    return sorted([c for c, n in enumerate(alphabet.counts) for _ in range(n)] + [BLANK] * alphabet.blanks)


def check_invariants(game: Game) -> None:
    assert game.all_tiles() == full_set(game.rules)
    for player in (0, 1):
        points = sum(t.points for t in game.history if t.player == player)
        assert game.scores[player] == points + game.end_adjustments[player]
        assert len(game.racks[player]) <= game.rules.rack_size


def greedy(game: Game) -> Placement | None:
    moves = generate(game.board, game.rack, game.lexicon, game.rules)
    return max(moves, key=lambda m: (m.score or 0, sorted(m.tiles)), default=None)


def play_out(game: Game, *, max_turns: int = 200) -> None:
    """Greedy self-play to the end: the best placement, else a swap of the whole rack, else a pass."""
    for _ in range(max_turns):
        if game.is_over:
            return
        move = greedy(game)
        if move is not None:
            turn = game.place(move)
            assert turn.points == move.score
        elif len(game.bag) >= game.rules.swap_min_bag:
            game.swap(game.rack.bag_tiles())
        else:
            game.pass_turn()
        check_invariants(game)
    raise AssertionError("the game did not end")


def test_deal() -> None:
    game = Game(EN, english(), random.Random(3))
    assert len(game.bag) == 104 - 14
    assert [len(r) for r in game.racks] == [7, 7]
    assert game.current == 0 and not game.is_over and game.winner() is None
    check_invariants(game)
    assert len(game.unseen(0)) == 90 + 7
    assert Game(EN, english(), random.Random(3)).racks == game.racks  # the seed decides the deal


@pytest.mark.parametrize("seed", range(6))
def test_greedy_games_end_and_keep_every_tile(seed: int) -> None:
    game = Game(EN, english(), random.Random(seed), first_player=seed % 2)
    play_out(game)
    assert game.end_reason in {OUT, SCORELESS}
    assert len(game.history) > 10
    if game.end_reason == OUT:
        finisher = game.history[-1].player
        assert not len(game.racks[finisher]) and not game.bag
        assert game.end_adjustments[finisher] == game.racks[1 - finisher].points()
        assert game.end_adjustments[1 - finisher] == -game.racks[1 - finisher].points()


def test_a_copy_plays_on_alone_and_ends_as_the_game_would() -> None:
    game = Game(EN, english(), random.Random(4))
    for _ in range(6):
        move = greedy(game)
        assert move is not None
        game.place(move)
    before = ([row[:] for row in game.board.grid], list(game.bag), list(game.racks), list(game.scores), game.current)
    copied = game.copy()
    play_out(copied)
    assert copied.is_over and not game.is_over and len(game.history) == 6
    assert ([row[:] for row in game.board.grid], game.bag, game.racks, game.scores, game.current) == before
    play_out(game)  # the game itself, played on the same way, ends the same
    assert (game.scores, game.end_reason, game.board.grid) == (copied.scores, copied.end_reason, copied.board.grid)


@cache
def norwegian() -> Dawg:
    rng = random.Random(11)
    letters = "AEIORSTNLKDGÆØÅ"
    words = {"".join(rng.choice(letters) for _ in range(rng.choice((2, 3, 3, 4, 5)))) for _ in range(3000)}
    return Dawg.build([NB.alphabet.parse_word(w) for w in words], NB.alphabet)


def test_greedy_game_in_norwegian_on_a_random_board() -> None:
    rng = random.Random(5)
    grid = [[rng.choice((0, 0, 0, 1, 2, 3, 4)) for _ in range(15)] for _ in range(15)]
    rules = NB.with_layout(BoardLayout.from_api_grid(grid))
    game = Game(rules, norwegian(), random.Random(9))
    play_out(game)
    assert game.is_over


def test_illegal_placement_changes_nothing() -> None:
    game = Game(EN, english(), random.Random(1))
    before = (game.board.text(), list(game.racks), list(game.bag), game.current)
    off_centre = Placement(
        ((0, 0, game.rack.letters()[0]), (0, 1, game.rack.letters()[1])),
        parse_move("1A AB", Board(EN.alphabet)).direction,
    )
    with pytest.raises(IllegalMoveError, match="start square"):
        game.place(off_centre)
    with pytest.raises(IllegalMoveError, match="not in rack"):
        game.place(parse_move("8H ZZ", game.board))
    assert (game.board.text(), list(game.racks), list(game.bag), game.current) == before


def test_swap_rules() -> None:
    game = Game(EN, english(), random.Random(2))
    rack = game.rack
    missing = next(c for c in range(len(EN.alphabet)) if not rack.counts[c])
    with pytest.raises(IllegalMoveError, match="not in rack"):
        game.swap([missing])
    with pytest.raises(IllegalMoveError, match="at least one tile"):
        game.swap([])
    turn = game.swap(rack.letters()[:3])
    assert isinstance(turn.action, Swap) and turn.points == 0 and len(turn.drawn) == 3
    assert game.current == 1 and game.scoreless_turns == 1
    check_invariants(game)
    game.bag[:] = game.bag[:6]  # a nearly empty bag: the rest of the tiles are "elsewhere"
    with pytest.raises(IllegalMoveError, match="at least 7 tiles in the bag, 6 left"):
        game.swap(game.rack.letters()[:1])


def test_three_scoreless_turns_end_the_game() -> None:
    game = Game(EN, english(), random.Random(4))
    game.pass_turn()
    game.swap(game.rack.letters()[:2])
    racks = list(game.racks)
    turn = game.pass_turn()
    assert isinstance(turn.action, Pass)
    assert game.end_reason == SCORELESS
    assert game.scores == [-racks[0].points(), -racks[1].points()]
    check_invariants(game)
    with pytest.raises(GameOverError, match="over"):
        game.pass_turn()


def test_swaps_need_not_count_as_scoreless() -> None:
    game = Game(EN, english(), random.Random(4), swap_counts_as_scoreless=False)
    game.pass_turn()
    game.pass_turn()
    game.swap(game.rack.letters()[:1])
    assert game.scoreless_turns == 0 and not game.is_over
    game.pass_turn()
    assert not game.is_over


def test_placement_resets_the_scoreless_count() -> None:
    game = Game(EN, english(), random.Random(6))
    game.pass_turn()
    game.pass_turn()
    move = greedy(game)
    assert move is not None
    game.place(move)
    assert game.scoreless_turns == 0
    game.pass_turn()
    game.pass_turn()
    assert not game.is_over


def test_resign_at_any_time() -> None:
    game = Game(EN, english(), random.Random(7))
    turn = game.resign(1)  # not player 1's turn
    assert isinstance(turn.action, Resign)
    assert game.end_reason == RESIGNED and game.winner() == 0
    with pytest.raises(GameOverError):
        game.resign()


def test_going_out_collects_the_opponents_rack() -> None:
    game = Game(EN, english(), random.Random(8))
    en = EN.alphabet
    game.bag.clear()
    game.racks = [Rack.from_text("AT", en), Rack.from_text("QZ", en)]
    game.scores = [10, 20]
    turn = game.place(parse_move("8H AT", game.board))
    assert turn.points == 2 and turn.words == ("AT",)
    assert game.end_reason == OUT and game.winner() == 0
    assert game.scores == [10 + 2 + 20, 20 - 20]
    assert game.end_adjustments == [20, -20]
