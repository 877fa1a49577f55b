"""The analysis of a position: the strategy's top moves with their notation, score, the tiles kept (the
leave), what the strategy thinks the leave is worth, and the equity; what ``hint`` shows and a decision stores.

The moves are the strategy's own ranking (``Strategy.rank`` over every generated placement), so the
order is exactly what the bot would play; the figures are worked out beside it the way ``Equity``
ranks: equity = score + weight x leave value, with weight 1 while 7 or more tiles are in the bag and
bag/7 below that; a swap's equity is its leave value less the strategy's swap cost. With the bag
empty the end-game ranking counts other things (going out, the opponent's out-play), so no leave
value or equity is given then; ``greedy`` ranks by score alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.board.board import Board
from engine.board.move import Move, Placement, Swap, format_move, kept, oriented, square_name
from engine.equity.strategy import Equity, Situation, Strategy, leave_weight
from engine.lookahead.simulation import CandidateStats, Sim
from engine.movegen.generate import generate
from engine.rules.tiles import BLANK_FLAG, LETTER_MASK


@dataclass(frozen=True)
class HintTile:
    """A tile a move puts down: its square as the move's notation writes it (``8H`` across, ``H8``
    down), letter and whether it is a blank."""

    square: str
    letter: str
    blank: bool


@dataclass(frozen=True)
class HintMove:
    """One ranked move and its figures (None where the strategy has no such figure)."""

    rank: int
    kind: str  # move | swap | pass
    notation: str
    score: int
    leave: str
    leave_value: float | None
    equity: float | None
    tiles: tuple[HintTile, ...]
    #: a simulating strategy's mean value of the move: the points ahead after it, the opponent's reply and
    #: our next move, the tiles each side keeps counted (the score so far left out)
    sim_value: float | None = None
    #: the share of the iterations that ended with us ahead in the game after those three moves (each counted
    #: by its chance of winning from there, engine.lookahead.winprob, above the pre-endgame); only when
    #: the simulation ranked by it (fewer than ``SimSettings.by_wins_below`` tiles in the bag), since early
    #: in a game nearly every move ends ahead and the share says nothing about winning
    sim_ahead: float | None = None

@dataclass(frozen=True)
class Hint:
    """The analysis of a position: what it was, which strategy ranked it, and the top moves."""

    ruleset: int
    rack: str
    bag_count: int
    scores: tuple[int, int]
    strategy: str
    placements: int  # how many placements the generator found
    note: str
    moves: list[HintMove]
    best: Placement | None = field(default=None, repr=False)  # the first move if a placement (for pictures)

    def to_json(self) -> dict[str, Any]:
        """The hint as plain JSON data (``--json``)."""
        data = asdict(self)
        del data["best"]
        return data


def hint(situation: Situation, strategy: Strategy, top: int = 10) -> Hint:
    """The strategy's ``top`` best moves in the situation, with their figures."""
    placements = generate(situation.board, situation.rack, situation.lexicon, situation.rules)
    return figures(situation, strategy, strategy.rank(situation, placements)[:top], len(placements))


def figures(situation: Situation, strategy: Strategy, ranked: Sequence[Move], placements: int) -> Hint:
    """The figures of moves the strategy has ranked (best first): leaves, equities, and the simulation's
    values when the strategy simulated (its last decision must be this one)."""
    simulated: dict[Move, CandidateStats] = {}
    static: Strategy = strategy
    iterations = 0
    by_wins = False
    if isinstance(strategy, Sim):
        static = strategy.static  # leaves and equities are the static ones the candidates came from
        if strategy.last is not None:
            simulated = {entry.move: entry for entry in strategy.last.ranked}
            iterations = strategy.last.iterations
            by_wins = strategy.last.by_wins
    note = ""
    model = None
    if situation.bag_count == 0:
        note = "the bag is empty: moves are ranked by the end game (going out, tiles kept, the opponent's reply)"
    elif isinstance(static, Equity):
        model = static.leave_model(situation.rules)
    else:
        note = f"{strategy.name} ranks by score alone"
    if simulated:
        note = (
            f"simulated {len(simulated)} candidates over {iterations} iterations; sim value: the mean points ahead "
            "after the move, the opponent's reply and our next move, tiles kept counted"
        )
        if by_wins:
            note += (
                "; ahead: the share of iterations that end with us ahead in the game, each counted by its"
                " chance of winning from there (engine.lookahead.winprob) above the pre-endgame; it ranks them now"
            )
    weight = leave_weight(situation.bag_count)
    moves = []
    for rank, move in enumerate(ranked, 1):
        leave = kept(situation.rack, move)
        value = model.value(leave) if model is not None else None
        equity = None
        if value is not None and isinstance(static, Equity):
            if isinstance(move, Placement):
                equity = (move.score or 0) + weight * value
            elif isinstance(move, Swap):
                equity = value - static.swap_cost
        sim = simulated.get(move)
        moves.append(
            HintMove(
                rank=rank,
                kind="move" if isinstance(move, Placement) else "swap" if isinstance(move, Swap) else "pass",
                notation=format_move(move, situation.board),
                score=move.score or 0 if isinstance(move, Placement) else 0,
                leave=leave.text(),
                leave_value=None if value is None else round(value, 2),
                equity=None if equity is None else round(equity, 2),
                tiles=_tiles(move, situation.board),
                sim_value=None if sim is None or not sim.count else round(sim.mean, 2),
                sim_ahead=None if sim is None or not sim.count or not by_wins else round(sim.win_rate, 3),
            )
        )
    return Hint(
        ruleset=situation.rules.id,
        rack=situation.rack.text(),
        bag_count=situation.bag_count,
        scores=situation.scores,
        strategy=strategy.name,
        placements=placements,
        note=note,
        moves=moves,
        best=ranked[0] if ranked and isinstance(ranked[0], Placement) else None,
    )


def _tiles(move: Move, board: Board) -> tuple[HintTile, ...]:
    """The tiles a move puts down, each square written as the move's notation writes squares: row first
    across (``8H``), column first down (``H8``)."""
    if not isinstance(move, Placement):
        return ()
    direction = oriented(move, board).direction
    symbol = board.alphabet.symbol
    return tuple(
        HintTile(square_name(r, c, direction), symbol(t & LETTER_MASK), bool(t & BLANK_FLAG)) for r, c, t in move.tiles
    )


__all__ = ["Hint", "HintMove", "HintTile", "figures", "hint"]
