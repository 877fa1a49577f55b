"""``wordfeud-bot hint``: the analysis a player wants for a position: the top moves with their notation,
score, the tiles kept (the leave), what the strategy thinks the leave is worth, and the equity.

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

from bot.board_svg import BoardView, board_svg, squares_of
from bot.terminal import board_picture
from engine.board import Board
from engine.errors import EngineError, PositionError
from engine.move import Move, Placement, Swap, format_move, kept, oriented, square_name
from engine.movegen import generate
from engine.rack import Rack
from engine.rules import Ruleset
from engine.simulation import CandidateStats, Sim
from engine.strategy import Equity, Situation, Strategy, leave_weight, unseen_tiles
from engine.tiles import BLANK_FLAG, LETTER_MASK, Alphabet


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
    #: by its chance of winning from there, engine.winprob, above the pre-endgame); only when
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


class InputError(EngineError):
    """A board or rack given to ``hint`` that cannot be read; the message names the line or field."""


def read_board(text: str, alphabet: Alphabet, name: str | None = None, source: str = "board") -> tuple[Board, str]:
    """A board from the positions text format: ``= NAME RACK`` then 15 rows (``.`` empty, lower case a
    blank), or just the 15 rows. Returns the board and the rack text of the header ('' without one).
    With several positions, ``name`` picks one (default: the first)."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    if not lines:
        raise InputError(f"{source}: empty; expected 15 board rows, optionally after a '= NAME RACK' line")
    if not lines[0].startswith("="):
        try:
            return Board.from_text("\n".join(lines), alphabet), ""
        except EngineError as exc:
            raise InputError(f"{source}: {exc}") from None
    names = []
    for i, line in enumerate(lines):
        if not line.startswith("="):
            continue
        parts = line[1:].split()
        if len(parts) != 2:
            raise InputError(f"{source}: expected '= NAME RACK', got {line!r}")
        names.append(parts[0])
        if name is None or parts[0] == name:
            try:
                return Board.from_text("\n".join(lines[i + 1 : i + 16]), alphabet), parts[1]
            except EngineError as exc:
                raise InputError(f"{source}: position {parts[0]}: {exc}") from None
    raise InputError(f"{source}: no position named {name!r}; it has {', '.join(names)}")


def situation_for(
    board: Board,
    rack: Rack,
    rules: Ruleset,
    lexicon: Any,
    *,
    bag: int | None = None,
    scores: tuple[int, int] = (0, 0),
) -> Situation:
    """A position given as a board and a rack: the unseen tiles are worked out; the bag holds all of
    them but a full opponent rack unless ``bag`` says otherwise (PositionError when it cannot)."""
    unseen = unseen_tiles(board, rack, rules)
    bag_count = max(0, len(unseen) - rules.rack_size) if bag is None else bag
    if not 0 <= len(unseen) - bag_count <= rules.rack_size:
        raise PositionError(
            f"--bag {bag_count}: with {len(unseen)} tiles unseen the opponent would hold "
            f"{len(unseen) - bag_count} (a rack holds {rules.rack_size})"
        )
    return Situation(board, rack, rules, lexicon, unseen, bag_count, scores)


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
        model = static._model(situation.rules)
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
                " chance of winning from there (engine.winprob) above the pre-endgame; it ranks them now"
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


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def hint_text(result: Hint, situation: Situation, *, colour: bool = False) -> str:
    """The hint as a person reads it: the position, the board with the best move on it, the table."""
    rules = situation.rules
    lines = [
        f"Ruleset {rules.id} ({rules.name}), rack {result.rack}, {result.bag_count} in the bag, "
        f"scores {result.scores[0]}-{result.scores[1]}; strategy {result.strategy}; "
        f"{result.placements:,} placements"
    ]
    best = result.best
    board = situation.board.copy()
    if best is not None:
        board.place(best.tiles)
        lines.append(f"The board with the best move ({result.moves[0].notation}) on it:")
    lines.append(board_picture(board, rules.layout, squares_of(best.tiles) if best else frozenset(), colour=colour))
    width = max([len("move"), *(len(m.notation) for m in result.moves)])
    sims = any(m.sim_value is not None for m in result.moves)
    ahead = any(m.sim_ahead is not None for m in result.moves)
    head = f"{'#':>3}  {'move':<{width}}  {'score':>5}  {'leave':<8} {'leave value':>11}  {'equity':>7}"
    lines.append(head + (f"  {'sim value':>9}" if sims else "") + (f"  {'ahead':>5}" if ahead else ""))
    for m in result.moves:
        line = (
            f"{m.rank:>3}  {m.notation:<{width}}  {m.score:>5}  {m.leave or '-':<8} "
            f"{_figure(m.leave_value):>11}  {_figure(m.equity):>7}"
        )
        if sims:
            line += f"  {_figure(m.sim_value):>9}"
        if ahead:
            line += f"  {'-' if m.sim_ahead is None else f'{m.sim_ahead:.0%}':>5}"
        lines.append(line)
    if result.note:
        lines.append(f"({result.note})")
    return "\n".join(lines)


def hint_svg(result: Hint, situation: Situation, names: tuple[str, str] = ("you", "opponent")) -> str:
    """The board with the hint's best move on it, highlighted, and the scores: an SVG file's text."""
    board = situation.board.copy()
    best = result.best
    if best is not None:
        board.place(best.tiles)
    title = f"Best move: {result.moves[0].notation}" if result.moves else "No move"
    players = ((names[0], result.scores[0]), (names[1], result.scores[1]))
    last = squares_of(best.tiles) if best else frozenset()
    view = BoardView(board, situation.rules.layout, last, players, 0, title, footer=svg_footer(result))
    return board_svg(view)


def svg_footer(result: Hint, runners_up: int = 3) -> list[str]:
    """The lines under a hint's picture: the move with its score and the rack, then the runners-up."""
    if not result.moves:
        return [f"Rack {result.rack}: no move"]
    lines = [f"{_move_line(result.moves[0])}; rack {result.rack}, {result.bag_count} in the bag"]
    lines.extend(f"{move.rank}. {_move_line(move)}" for move in result.moves[1 : runners_up + 1])
    return lines


def _move_line(move: HintMove) -> str:
    """A move with its figures, as the picture writes it."""
    text = f"{move.notation}  {move.score} points" if move.kind == "move" else move.notation
    if move.equity is not None:
        text += f", equity {move.equity:.1f}"
    if move.sim_value is not None:
        text += f", simulated {move.sim_value:+.1f}"
    return text


__all__ = [
    "Hint", "HintMove", "InputError", "figures", "hint", "hint_svg", "hint_text", "read_board", "situation_for",
    "svg_footer",
]  # fmt: skip
