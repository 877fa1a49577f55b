"""The exact endgame solver against plain minimax (no pruning, no bounds, no ordering; only the exact
value of a position reached twice remembered) on small endgames, the minimax's end-of-game accounting
against ``engine.game``, and the time budget."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from functools import cache

import pytest

from engine.board.board import Board
from engine.board.move import Move, Pass, Placement
from engine.board.rack import Rack
from engine.endgame.search import move_value, solve
from engine.equity.strategy import EndgameBudget, Equity, Situation
from engine.errors import PositionError
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.rules.ruleset import Ruleset
from tests.engine.randomgames import english_sample, synthetic_words

ENDGAMES = 220


class Minimax:
    """Every line tried to its end. A position reached again by another order of the same moves has the
    value found the first time (exact values of this one search's positions: no bound, no pruning, no move
    order)."""

    def __init__(self, lexicon: Dawg, rules: Ruleset) -> None:
        self.lexicon = lexicon
        self.rules = rules
        #: by the board's squares, both racks (counts, blanks) and the scoreless turns
        self.known: dict[tuple[object, ...], int] = {}

    def value(self, board: Board, mover: Rack, other: Rack, scoreless: int) -> int:
        """The mover's best final spread from here."""
        position = (tuple(map(tuple, board.grid)), mover.counts, mover.blanks, other.counts, other.blanks, scoreless)
        if position in self.known:
            return self.known[position]
        moves: list[Move] = [*generate(board, mover, self.lexicon, self.rules), Pass()]
        best = max(self.outcome(board, move, mover, other, scoreless) for move in moves)
        self.known[position] = best
        return best

    def outcome(self, board: Board, move: Move, mover: Rack, other: Rack, scoreless: int) -> int:
        """The mover's final spread after ``move`` and best play by both from then on."""
        if isinstance(move, Placement):
            left = mover.leave([t for _, _, t in move.tiles])
            if not len(left):
                return (move.score or 0) + 2 * other.points()
            board.place(move.tiles)
            try:
                return (move.score or 0) - self.value(board, other, left, 0)
            finally:
                board.undo()
        if scoreless + 1 >= self.rules.scoreless_turns_to_end:
            return other.points() - mover.points()
        return -self.value(board, other, mover, scoreless + 1)


def minimax(board: Board, mover: Rack, other: Rack, scoreless: int, lexicon: Dawg, rules: Ruleset) -> int:
    """The mover's best final spread from here, by trying every line to its end."""
    return Minimax(lexicon, rules).value(board, mover, other, scoreless)


def outcome(board: Board, move: Move, mover: Rack, other: Rack, scoreless: int, lexicon: Dawg, rules: Ruleset) -> int:
    """The mover's final spread after ``move`` and best play by both from then on."""
    return Minimax(lexicon, rules).outcome(board, move, mover, other, scoreless)


@cache
def lexicon_of(seed: int) -> tuple[Ruleset, Dawg, tuple[int, ...]]:
    rng = random.Random(seed)
    rules = Ruleset.for_id(5) if seed % 3 else Ruleset.for_id(6)
    words = english_sample(rng, 300) if rules.id == 5 else synthetic_words(rng, rules, 300)
    dawg = Dawg.build([rules.alphabet.parse_word(w) for w in words], rules.alphabet)
    letters = tuple(sorted({c for w in words for c in rules.alphabet.parse_word(w)}))
    return rules, dawg, letters


def small_rack(rng: random.Random, rules: Ruleset, letters: tuple[int, ...]) -> Rack:
    """One to three tiles from the lexicon's letters, sometimes one of them a blank."""
    size = rng.randint(1, 3)
    blanks = 1 if rng.random() < 0.15 else 0
    return Rack.from_codes(rules.alphabet, [rng.choice(letters) for _ in range(size - blanks)], blanks)


def small_endgames(count: int) -> Iterator[tuple[Board, Rack, Rack, int, Dawg, Ruleset]]:
    """Boards from seeded games, racks of one to three tiles each (sometimes a blank), the bag empty."""
    seed = 0
    made = 0
    while made < count:
        rules, dawg, letters = lexicon_of(seed % 12)
        rng = random.Random(seed)
        seed += 1
        game = Game(rules, dawg, rng)
        for _ in range(rng.randint(1, 8)):
            moves = generate(game.board, game.rack, dawg, rules)
            if not moves or game.is_over:
                break
            game.place(max(moves, key=lambda m: (m.score or 0, m.tiles)))
        if game.board.is_empty():
            continue
        mine, theirs = small_rack(rng, rules, letters), small_rack(rng, rules, letters)
        yield game.board, mine, theirs, rng.choice((0, 0, 1, 2)), dawg, rules
        made += 1


def test_the_solver_agrees_with_minimax_on_small_endgames() -> None:
    outs = scoreless_ends = 0
    for number, (board, mine, theirs, scoreless, dawg, rules) in enumerate(small_endgames(ENDGAMES)):
        before = copy.deepcopy(board.grid)
        expected = minimax(board, mine, theirs, scoreless, dawg, rules)
        result = solve(board, mine, theirs, dawg, rules, scoreless=scoreless, seconds=60)
        label = f"endgame {number}: {mine.text()} vs {theirs.text()}, scoreless {scoreless}"
        assert result.complete, label
        assert result.value == expected, label
        # the move it chose achieves that value
        assert outcome(board, result.move, mine, theirs, scoreless, dawg, rules) == expected, label
        assert board.grid == before, "the board is left as it was"
        outs += isinstance(result.move, Placement) and len(result.move.tiles) == len(mine)
        scoreless_ends += isinstance(result.move, Pass)
    assert outs > ENDGAMES // 4 and scoreless_ends > 0, (outs, scoreless_ends)


def test_minimax_counts_the_end_of_the_game_as_the_game_does() -> None:
    """Random lines played in ``engine.game.Game`` end with the spread the minimax's accounting gives."""
    checked = 0
    for number, (board, mine, theirs, scoreless, dawg, rules) in enumerate(small_endgames(60)):
        rng = random.Random(number)
        game = Game(rules, dawg, rng)
        game.bag.clear()
        game.board = copy.deepcopy(board)
        game.racks = [mine, theirs]
        game.scores = [0, 0]
        game.current = 0
        game.scoreless_turns = scoreless
        spread = 0  # player 0's, by the minimax's rules
        sign = 1
        racks = [mine, theirs]
        while not game.is_over:
            mover, other = racks[game.current], racks[1 - game.current]
            moves: list[Move] = [*generate(game.board, mover, dawg, rules), Pass()]
            move = rng.choice(moves)
            if isinstance(move, Placement):
                left = mover.leave([t for _, _, t in move.tiles])
                spread += sign * ((move.score or 0) + (2 * other.points() if not len(left) else 0))
                racks[game.current] = left
                game.place(move)
            else:
                if game.scoreless_turns + 1 >= rules.scoreless_turns_to_end:
                    spread += sign * (other.points() - mover.points())
                game.pass_turn()
            sign = -sign
        assert game.scores[0] - game.scores[1] == spread, f"line {number}"
        checked += 1
    assert checked == 60


def test_the_budget_is_kept_with_an_injected_clock() -> None:
    ticks = iter(range(10**9))
    board, mine, theirs, _, dawg, rules = next(small_endgames(1))
    full = solve(board, mine, theirs, dawg, rules, seconds=60)
    # every reading of this clock is one second later: the budget of 3 s runs out after a few readings
    cut = solve(board, mine, theirs, dawg, rules, seconds=3, clock=lambda: float(next(ticks)))
    assert full.complete and cut.nodes <= full.nodes
    assert cut.seconds <= 64 * 4  # the clock is read once every 64 nodes


def minimax_rest(
    board: Board, move: Move, lexicon: Dawg, rules: Ruleset, calls: list[tuple[int, int]]
) -> Callable[[Rack, Rack, int, int], int]:
    """The minimax as ``move_value``'s rest, checking that ``move`` is on the board when it is asked and
    noting (scoreless turns, points) of each call in ``calls``."""

    def rest(first: Rack, second: Rack, scoreless: int, points: int) -> int:
        placed = move.tiles if isinstance(move, Placement) else ()
        assert all(board.grid[row][col] == tile for row, col, tile in placed)
        calls.append((scoreless, points))
        return minimax(board, first, second, scoreless, lexicon, rules)

    return rest


def test_the_value_of_a_move_is_the_minimaxs_and_asks_for_the_rest_with_the_move_on_the_board() -> None:
    """``move_value`` (one move, then what follows from ``rest``), shared by the solver and the blunder
    census: with the minimax as the rest, every move's value is the minimax's outcome; ``rest`` is asked
    with the move on the board and never when the move ends the game, and the board is left as it was."""
    asked = ends = 0
    for board, mine, theirs, scoreless, dawg, rules in small_endgames(20):
        before = [row[:] for row in board.grid]
        moves: list[Move] = [*generate(board, mine, dawg, rules), Pass()]
        for move in moves:
            calls: list[tuple[int, int]] = []
            rest = minimax_rest(board, move, dawg, rules, calls)
            value = move_value(board, move, mine, theirs, scoreless, rules, rest)
            assert value == outcome(board, move, mine, theirs, scoreless, dawg, rules)
            assert board.grid == before
            goes_out = isinstance(move, Placement) and len(move.tiles) == len(mine)
            last_pass = isinstance(move, Pass) and scoreless + 1 >= rules.scoreless_turns_to_end
            expected = (0, move.score or 0) if isinstance(move, Placement) else (scoreless + 1, 0)
            assert calls == ([] if goes_out or last_pass else [expected])
            asked += bool(calls)
            ends += not calls
    assert asked > 100 and ends > 10, (asked, ends)


def test_racks_no_game_has_are_refused() -> None:
    board, _, theirs, _, dawg, rules = next(small_endgames(1))
    with pytest.raises(PositionError, match="cannot occur"):
        solve(board, Rack.from_codes(rules.alphabet, [0] * 9), theirs, dawg, rules)


def test_the_endgame_strategy_plays_the_solvers_move() -> None:
    played = 0
    for board, mine, theirs, scoreless, dawg, rules in small_endgames(30):
        unseen = tuple(sorted([*theirs.letters(), *[-1] * theirs.blanks]))
        situation = Situation(board, mine, rules, dawg, unseen, 0, (0, 0), scoreless)
        strategy = Equity(name="equity+endgame", solver=EndgameBudget(seconds=60))
        placements = generate(board, mine, dawg, rules)
        ranked = strategy.rank(situation, placements)
        expected = solve(board, mine, theirs, dawg, rules, scoreless=scoreless, seconds=60)
        assert ranked[0] == expected.move
        assert outcome(board, ranked[0], mine, theirs, scoreless, dawg, rules) == expected.value
        assert sorted(map(str, ranked)) == sorted(map(str, Equity().rank(situation, placements)))  # same moves
        assert strategy.best(situation, 1) == ranked[:1]
        played += 1
    assert played == 30
