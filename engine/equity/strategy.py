"""Strategies: which move to play, given the position and every generated placement.

``Greedy`` plays the highest score. ``Equity`` plays the highest *equity*: score plus the value
of the tiles kept (``engine.equity.leave``); swaps are moves too (0 points plus the kept tiles' value,
only with at least ``swap_min_bag`` tiles in the bag), and a pass is the last resort. When the
bag is empty the opponent's rack is known (the unseen tiles), and the end game counts what
matters then: going out ends the game and wins twice the opponent's rack, every tile kept costs
its points, and a move that leaves the opponent an out-play is penalised by what that play
would score. Ties break by a fixed key, so decisions are reproducible.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Protocol

from engine import native
from engine.board.board import Board
from engine.board.move import Move, Pass, Placement, Swap
from engine.board.rack import Rack
from engine.endgame.native import solve_endgame
from engine.equity import native as leavenative
from engine.equity.leave import LeaveModel
from engine.equity.leavetable import best_leave
from engine.errors import PositionError
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import check, generate
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK, BLANK_FLAG, LETTER_MASK, board_tile


@dataclass(frozen=True)
class Situation:
    """What a strategy sees: the board, its rack, the unseen tiles (bag + opponent's rack, letter
    codes with ``BLANK`` for blanks), the bag count and the scores (mine first)."""

    board: Board
    rack: Rack
    rules: Ruleset
    lexicon: Dawg
    unseen: tuple[int, ...]
    bag_count: int
    scores: tuple[int, int] = (0, 0)
    scoreless: int = 0  # scoreless turns in a row so far (the end game counts them)
    last_play: Placement | None = None  # the opponent's last placement, if it was one (for inference)
    game_id: int = 0  # the game's id, which seeds the levels' human choices (0: none, as in self-play)

    def __post_init__(self) -> None:
        """Refuse racks no game can have: the rankings' cost grows with the subsets of the rack (and,
        with the bag empty, of the unseen tiles, the opponent's rack), so these would never finish."""
        size = self.rules.rack_size
        if len(self.rack) > size:
            raise PositionError(f"a rack of {len(self.rack)} tiles; ruleset {self.rules.id} racks hold {size}")
        if self.bag_count <= 0 and len(self.unseen) > size:
            raise PositionError(f"the bag is empty but {len(self.unseen)} tiles are unseen (a rack holds {size})")

    @classmethod
    def of(cls, game: Game) -> Situation:
        """A local game as its side to move sees it: its rack, the unseen tiles, the scores (its own first),
        the scoreless turns and the opponent's last play when it was a placement (for inference); the one
        such view for the arena and the offline tools."""
        seat = game.current
        last = game.history[-1].action if game.history and game.history[-1].player != seat else None
        return cls(
            game.board, game.rack, game.rules, game.lexicon, tuple(game.unseen(seat)), len(game.bag),
            (game.scores[seat], game.scores[1 - seat]), game.scoreless_turns,
            last if isinstance(last, Placement) else None,
        )  # fmt: skip


def unseen_tiles(board: Board, rack: Rack, rules: Ruleset) -> tuple[int, ...]:
    """The tiles a player cannot see (bag and opponent's rack): the full set minus the board and the
    rack, sorted, as letter codes and ``BLANK`` for blanks (what ``Game.unseen`` knows from inside)."""
    alphabet = rules.alphabet
    remaining = list(alphabet.counts)
    blanks = alphabet.blanks - rack.blanks
    for _, _, tile in board.tiles():
        if tile & BLANK_FLAG:
            blanks -= 1
        else:
            remaining[tile & LETTER_MASK] -= 1
    for code in rack.letters():
        remaining[code] -= 1
    letters = [code for code, count in enumerate(remaining) for _ in range(max(count, 0))]
    return tuple(sorted(letters + [BLANK] * max(blanks, 0)))


class Strategy(Protocol):
    """Ranks the possible moves of a situation, best first (never empty: a pass is always there)."""

    name: str

    def rank(self, situation: Situation, placements: Sequence[Placement]) -> list[Move]:
        """Every move worth considering, best first."""
        ...

    def best(self, situation: Situation, k: int) -> list[Move]:
        """The first ``k`` moves of ``rank`` over every placement of the situation, found the fastest
        way available (the C kernel ranks inside the search, without an object per move)."""
        ...

    def budgeted(self, seconds: float) -> Strategy:
        """This strategy thinking at most ``seconds`` a move (itself, if it never looks ahead)."""
        ...


def leave_weight(bag_count: int) -> float:
    """What a leave counts for in a move played with ``bag_count`` tiles in the bag: all of it with 7 or
    more, ``bag_count``/7 of it with fewer (a leave matters less when the game is nearly over).

    >>> leave_weight(20), leave_weight(0), round(leave_weight(3), 3)
    (1.0, 0.0, 0.429)
    """
    return 1.0 if bag_count >= 7 else bag_count / 7


def placement_key(move: Placement) -> tuple[tuple[int, int, int], ...]:
    """The fixed tie-break: the placed tiles in reading order."""
    return move.tiles


def whole_rack_swap(situation: Situation) -> list[Move]:
    """Swap everything if the bag allows it, else pass."""
    if situation.bag_count >= situation.rules.swap_min_bag and len(situation.rack):
        return [Swap(tuple(situation.rack.bag_tiles())), Pass()]
    return [Pass()]


class Greedy:
    """The highest score; without a placement, swap the whole rack (or pass)."""

    name = "greedy"

    def rank(self, situation: Situation, placements: Sequence[Placement]) -> list[Move]:
        ordered = sorted(placements, key=lambda m: (-(m.score or 0), placement_key(m)))
        return [*ordered, *whole_rack_swap(situation)]

    def budgeted(self, seconds: float) -> Strategy:
        return self

    def best(self, situation: Situation, k: int) -> list[Move]:
        if native.GENERATOR != "native":
            return self.rank(situation, _placements(situation))[:k]
        check(situation.board, situation.rack, situation.lexicon, situation.rules)
        # equity with a leave worth nothing is the score, ranked with the same tie-break
        top, _ = leavenative.top_equity(
            situation.board, situation.rack, situation.lexicon, situation.rules, None,
            k=k, weight=0.0, swaps=0, swap_cost=0.0,
        )  # fmt: skip
        return [*(move for _, move in top), *whole_rack_swap(situation)][:k]


@dataclass(frozen=True)
class EndgameBudget:
    """How long the exact endgame search may take per move: ``seconds`` on ``clock`` and, if given,
    ``nodes`` (a node budget gives the same moves on every machine, for the arena)."""

    seconds: float = 2.0
    nodes: int | None = None
    clock: Callable[[], float] = time.monotonic


class Equity:
    """Score plus leave value; swaps among the best subsets to keep; an end game when the bag is empty."""

    def __init__(
        self,
        leave: LeaveModel | None = None,
        *,
        source: Callable[[Ruleset], LeaveModel] = best_leave,
        name: str = "equity",
        swap_cost: float = 0.0,
        solver: EndgameBudget | None = None,
    ) -> None:
        self.leave = leave  # a fixed model; else the model comes from ``source`` per ruleset
        self.source = source
        self.name = name
        self.swap_cost = swap_cost  # points a swap gives up beyond its leave (tempo); tuned by the arena
        self.endgame_width = 12  # end-game moves whose opponent replies are searched
        self.solver = solver  # with the bag empty: the exact endgame search within this budget

    def leave_model(self, rules: Ruleset) -> LeaveModel:
        """The leave model this strategy values kept tiles with, for ``rules``."""
        return self.leave if self.leave is not None else self.source(rules)

    def budgeted(self, seconds: float) -> Strategy:
        if self.solver is None or self.solver.seconds <= seconds:
            return self
        copy = Equity(self.leave, source=self.source, name=self.name, swap_cost=self.swap_cost)
        copy.solver = replace(self.solver, seconds=seconds)
        return copy

    def rank(self, situation: Situation, placements: Sequence[Placement]) -> list[Move]:
        if situation.bag_count == 0:
            return self._endgame(situation, placements)
        uses = _rack_uses(situation.rack, self.leave_model(situation.rules))
        values = {key: value for _, key, value in uses}
        weight = leave_weight(situation.bag_count)
        scored: list[tuple[float, int, Placement | Swap]] = []
        for move in placements:
            key = 1
            for _, _, tile in move.tiles:
                key *= _TILE_PRIME[tile]
            scored.append(((move.score or 0) + weight * values[key], 0, move))
        if situation.bag_count >= situation.rules.swap_min_bag:
            # a swap gives back some tiles for 0 points and keeps the rest (never all, never none)
            scored.extend((value - self.swap_cost, 1, Swap(used)) for used, _, value in uses if used)
        # ties: placements before swaps, then by the tiles (reading order / tile codes)
        scored.sort(key=lambda item: (-item[0], item[1], item[2].tiles))
        return [move for _, _, move in scored] + [Pass()]

    def best(self, situation: Situation, k: int) -> list[Move]:
        if situation.bag_count == 0 or native.GENERATOR != "native":
            return self.rank(situation, _placements(situation))[:k]
        rules = situation.rules
        check(situation.board, situation.rack, situation.lexicon, rules)
        weight = leave_weight(situation.bag_count)
        placements, swaps = leavenative.top_equity(
            situation.board, situation.rack, situation.lexicon, rules, self.leave_model(rules),
            k=k, weight=weight, swaps=k if situation.bag_count >= rules.swap_min_bag else 0, swap_cost=self.swap_cost,
        )  # fmt: skip
        scored: list[tuple[float, int, tuple[object, ...], Move]] = [(e, 0, m.tiles, m) for e, m in placements]
        scored += [(e, 1, tiles, Swap(tiles)) for e, tiles in swaps]
        scored.sort(key=lambda item: (-item[0], item[1], item[2]))
        return [*(move for *_, move in scored), Pass()][:k]

    def _endgame(self, situation: Situation, placements: Sequence[Placement]) -> list[Move]:
        """Bag empty: both racks known. With a solver budget, the endgame search's move comes first
        and the static ranking below follows."""
        ranked = self._static_endgame(situation, placements)
        if self.solver is None:
            return ranked
        budget = self.solver
        opponent = Rack.from_bag_tiles(situation.rules.alphabet, situation.unseen)
        best = solve_endgame(
            situation.board, situation.rack, opponent, situation.lexicon, situation.rules,
            scoreless=situation.scoreless, seconds=budget.seconds, max_nodes=budget.nodes, clock=budget.clock,
        ).move  # fmt: skip
        return [best, *(move for move in ranked if move != best)]

    def _static_endgame(self, situation: Situation, placements: Sequence[Placement]) -> list[Move]:
        """Value = score, + 2x the opponent's rack when going out, - 2x the points kept otherwise, - the
        best reply that takes the opponent out."""
        rules = situation.rules
        alphabet = rules.alphabet
        opponent = Rack.from_bag_tiles(alphabet, situation.unseen)
        opponent_points = opponent.points()
        ranked: list[tuple[float, Move]] = []
        for move in placements:
            leave = situation.rack.leave([t for _, _, t in move.tiles])
            if not len(leave):
                ranked.append(((move.score or 0) + 2 * opponent_points + 1000, move))  # going out wins the race
            else:
                ranked.append(((move.score or 0) - 2 * leave.points(), move))
        ranked.sort(key=lambda item: (-item[0], _move_key(item[1])))
        # the opponent's reply is only searched for the most promising moves (each search is a movegen)
        checked: list[tuple[float, Move]] = []
        for base, candidate in ranked[: self.endgame_width]:
            cost = 0.0
            if base < 1000 and isinstance(candidate, Placement):
                kept = situation.rack.leave([t for _, _, t in candidate.tiles]).points()
                cost = self._their_out_play(situation, candidate, opponent, kept)
            checked.append((base - cost, candidate))
        checked.sort(key=lambda item: (-item[0], _move_key(item[1])))
        return [move for _, move in checked] + [move for _, move in ranked[self.endgame_width :]] + [Pass()]

    @staticmethod
    def _their_out_play(situation: Situation, move: Placement, opponent: Rack, kept_points: int) -> float:
        """What the opponent's best out-play after ``move`` would cost us (0 if they cannot go out)."""
        board = situation.board
        board.place(move.tiles)
        try:
            replies = generate(board, opponent, situation.lexicon, situation.rules)
        finally:
            board.undo()
        size = len(opponent)
        outs = [r.score or 0 for r in replies if len(r.tiles) == size]
        return float(max(outs) + 2 * kept_points) if outs else 0.0


def _placements(situation: Situation) -> list[Placement]:
    return generate(situation.board, situation.rack, situation.lexicon, situation.rules)


def _primes(count: int) -> list[int]:
    found: list[int] = []
    candidate = 2
    while len(found) < count:
        if all(candidate % p for p in found):
            found.append(candidate)
        candidate += 1
    return found


_PRIMES = _primes(BLANK_FLAG + 1)
#: A prime per board tile (every blank-flagged tile shares the blank's prime): the product over a
#: placement's tiles names the multiset of rack tiles it uses, with no sorting per move.
_TILE_PRIME = [_PRIMES[t] if t < BLANK_FLAG else _PRIMES[BLANK_FLAG] for t in range(2 * BLANK_FLAG)]


def _rack_uses(rack: Rack, model: LeaveModel) -> list[tuple[tuple[int, ...], int, float]]:
    """Every distinct multiset of rack tiles a move can use (sorted bag tiles), its prime product,
    and the value of what it keeps."""
    tiles = sorted(rack.bag_tiles())
    uses: list[tuple[tuple[int, ...], int, float]] = []
    for size in range(len(tiles) + 1):
        for used in sorted(set(combinations(tiles, size))):
            key = 1
            for tile in used:
                key *= _PRIMES[board_tile(tile)]
            uses.append((used, key, model.value(rack.leave([board_tile(t) for t in used]))))
    return uses


def _move_key(move: Move) -> tuple[int, tuple[object, ...]]:
    if isinstance(move, Placement):
        return (0, tuple(placement_key(move)))
    if isinstance(move, Swap):
        return (1, tuple(move.tiles))
    return (2, ())


__all__ = ["EndgameBudget", "Equity", "Greedy", "Situation", "Strategy", "leave_weight", "unseen_tiles"]
