"""The exact endgame: with the bag empty both racks are known, so the game is a finite game tree.

``solve`` searches it by negamax with alpha-beta pruning for the play that maximises the final
spread: the points of every turn to the end, plus the end of the game as ``engine.game`` plays it
(a player who empties the rack gains the other's rack points and the other loses them; the
``scoreless_turns_to_end``-th scoreless turn in a row ends it with each player losing their own
rack points). Moves are ordered by their immediate value and by the best move the transposition
table remembers (keyed by a Zobrist hash of the board, both racks, who moves and the scoreless
count). Iterative deepening runs within a time budget read from an injected clock; when time runs
out the best move of the deepest finished iteration is returned, and ``complete`` says whether the
last one searched the whole tree (then the value is exact).

>>> from engine.board.board import Board
>>> from engine.lexicon.dawg import Dawg
>>> from engine.board.rack import Rack
>>> from engine.rules.ruleset import Ruleset
>>> rules = Ruleset.for_id(5)
>>> en = rules.alphabet
>>> lexicon = Dawg.build([en.parse_word(w) for w in ["AT", "TA", "CAT"]], en)
>>> board = Board(en)
>>> board.place([(7, 7, en.code("A"))])
>>> result = solve(board, Rack.from_text("T", en), Rack.from_text("C", en), lexicon, rules)
>>> result.complete, result.value, result.move.score  # T makes AT or TA and goes out: 2 + 2 x C's 4
(True, 10, 2)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.board.board import Board
from engine.board.move import Move, Pass, Placement
from engine.board.rack import Rack
from engine.errors import PositionError
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG

#: Exact, lower or upper bound of a transposition-table value.
_EXACT, _LOWER, _UPPER = 0, 1, 2
_CHECK_EVERY = 64  # nodes between two readings of the clock


@dataclass(frozen=True)
class EndgameResult:
    """The best move found, its value (the mover's spread from now to the end), the depth of the
    deepest finished iteration, whether that iteration saw the whole tree, and the nodes searched."""

    move: Move
    value: int
    depth: int
    complete: bool
    nodes: int
    seconds: float


class _OutOfTimeError(Exception):
    """The budget ran out in the middle of an iteration."""


@dataclass
class _Entry:
    depth: int  # remaining depth it was searched with; _WHOLE when nothing below was cut off
    flag: int
    value: int
    best: Move | None


_WHOLE = 10**6

def _zobrist_table() -> list[int]:
    rng = random.Random(20261123)  # fixed: the hash is part of no result, only of the search's memory
    return [rng.getrandbits(64) for _ in range(15 * 15 * 2 * BLANK_FLAG)]


_ZOBRIST = _zobrist_table()


def _square_key(row: int, col: int, tile: int) -> int:
    return _ZOBRIST[(row * 15 + col) * 2 * BLANK_FLAG + tile]


class _Search:
    """One solve: the board is changed in place while searching and always restored."""

    def __init__(
        self,
        board: Board,
        lexicon: Dawg,
        rules: Ruleset,
        clock: Callable[[], float],
        deadline: float,
        max_nodes: int | None,
    ) -> None:
        self.board = board
        self.lexicon = lexicon
        self.rules = rules
        self.clock = clock
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.cut = False  # some node of the current iteration was cut off by its depth
        self.table: dict[tuple[object, ...], _Entry] = {}

    def value(
        self, depth: int, alpha: int, beta: int, mover: Rack, other: Rack, scoreless: int, key: int
    ) -> tuple[int, Move | None]:
        """Negamax value of the position for the player to move (holding ``mover``), and the best move."""
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0 and (
            self.clock() >= self.deadline or (self.max_nodes is not None and self.nodes >= self.max_nodes)
        ):
            raise _OutOfTimeError
        memo = (key, mover.counts, mover.blanks, other.counts, other.blanks, scoreless)
        entry = self.table.get(memo)
        if (
            entry is not None
            and entry.depth >= depth
            and (
                entry.flag == _EXACT
                or (entry.flag == _LOWER and entry.value >= beta)
                or (entry.flag == _UPPER and entry.value <= alpha)
            )
        ):
            if entry.depth != _WHOLE:
                self.cut = True  # the value rests on a search that was cut off
            return entry.value, entry.best
        if depth == 0:
            self.cut = True
            return other.points() - mover.points(), None  # a guess: whose rack weighs more
        cut_before, self.cut = self.cut, False
        original_alpha = alpha
        best_value, best_move = -(10**9), None
        for move in self._ordered(mover, other, entry.best if entry else None):
            value = self._after(move, depth, alpha, beta, mover, other, scoreless, key)
            if value > best_value:
                best_value, best_move = value, move
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        flag = _UPPER if best_value <= original_alpha else _LOWER if best_value >= beta else _EXACT
        self.table[memo] = _Entry(depth if self.cut else _WHOLE, flag, best_value, best_move)
        self.cut = self.cut or cut_before
        return best_value, best_move

    def _after(
        self, move: Move, depth: int, alpha: int, beta: int, mover: Rack, other: Rack, scoreless: int, key: int
    ) -> int:
        """The mover's value of playing ``move``: its points, then the opponent's best reply negated."""
        next_key = key
        if isinstance(move, Placement):
            for row, col, tile in move.tiles:
                next_key ^= _square_key(row, col, tile)

        def reply(first: Rack, second: Rack, next_scoreless: int, points: int) -> int:
            # the move's value is its points minus the reply: the reply's window is shifted by them
            value, _ = self.value(depth - 1, points - beta, points - alpha, first, second, next_scoreless, next_key)
            return value

        return move_value(self.board, move, mover, other, scoreless, self.rules, reply)

    def _ordered(self, mover: Rack, other: Rack, first: Move | None) -> list[Move]:
        """Placements by immediate value (going out counts the other's rack twice), the remembered best
        move first, the pass last; ties by the tiles so that the order is fixed."""
        size = len(mover)
        bonus = 2 * other.points()

        def immediate(move: Placement) -> tuple[int, tuple[tuple[int, int, int], ...]]:
            return (-((move.score or 0) + (bonus if len(move.tiles) == size else 0)), move.tiles)

        placements = sorted(generate(self.board, mover, self.lexicon, self.rules), key=immediate)
        moves: list[Move] = [*placements, Pass()]
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves


def move_value(
    board: Board,
    move: Move,
    mover: Rack,
    other: Rack,
    scoreless: int,
    rules: Ruleset,
    rest: Callable[[Rack, Rack, int, int], int],
) -> int:
    """The exact value for the player holding ``mover`` of playing ``move`` here with the bag empty (their
    spread from now to the end): the move's points, plus the other's rack twice when it goes out, or each
    player's own rack against them when it is the game's last scoreless turn; else minus the value of
    what follows for the other player, ``rest(their rack, the mover's rack after the move, scoreless
    turns in a row, the move's points)``, asked with the move on the board (taken off after)."""
    if isinstance(move, Placement):
        left = mover.leave([tile for _, _, tile in move.tiles])
        points = move.score or 0
        if not len(left):  # out: the game ends, the other's rack is ours
            return points + 2 * other.points()
        board.place(move.tiles)
        try:
            return points - rest(other, left, 0, points)
        finally:
            board.undo()
    if scoreless + 1 >= rules.scoreless_turns_to_end:  # this pass ends the game
        return other.points() - mover.points()
    return -rest(other, mover, scoreless + 1, 0)


def solve(
    board: Board,
    mine: Rack,
    theirs: Rack,
    lexicon: Dawg,
    rules: Ruleset,
    *,
    scoreless: int = 0,
    seconds: float = 1.0,
    clock: Callable[[], float] = time.monotonic,
    max_depth: int = 64,
    max_nodes: int | None = None,
) -> EndgameResult:
    """The best play for the player holding ``mine`` with the bag empty (``theirs`` is the opponent's
    rack, ``scoreless`` the scoreless turns in a row so far), searched for at most ``seconds`` and, if
    given, ``max_nodes`` nodes (a budget in nodes makes the result the same on every machine).

    The board is used as scratch and left as it was. Raises PositionError for racks no game has.
    """
    for rack in (mine, theirs):
        if len(rack) > rules.rack_size or rack.blanks > rules.alphabet.blanks:
            raise PositionError(f"an endgame rack of {len(rack)} tiles ({rack.text()}) cannot occur")
    started = clock()
    search = _Search(board, lexicon, rules, clock, started + seconds, max_nodes)
    key = 0
    for row, col, tile in board.tiles():
        key ^= _square_key(row, col, tile)
    best: tuple[int, Move, int, bool] | None = None
    depth = 0
    while depth < max_depth:
        depth += 1
        search.cut = False
        try:
            value, move = search.value(depth, -(10**9), 10**9, mine, theirs, scoreless, key)
        except _OutOfTimeError:
            break
        assert move is not None
        best = (value, move, depth, not search.cut)
        if not search.cut:
            break  # the whole tree was seen: the value is exact
    if best is None:  # not even depth 1 finished: the best immediate play
        moves = search._ordered(mine, theirs, None)
        best = (0, moves[0], 0, False)
    value, move, finished, complete = best
    return EndgameResult(move, value, finished, complete, search.nodes, clock() - started)


__all__ = ["EndgameResult", "move_value", "solve"]
