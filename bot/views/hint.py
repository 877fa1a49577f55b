"""``wordfeud-bot hint``: a position read from a board file, and its analysis (``bot.play.analysis``) as text or SVG."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

from bot.play.analysis import Hint, HintMove
from bot.views.board_svg import BoardView, board_svg, square_name, squares_of
from bot.views.terminal import board_picture
from engine.board.board import Board
from engine.board.rack import Rack
from engine.equity.strategy import Situation, unseen_tiles
from engine.errors import EngineError, PositionError
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK, Alphabet, bag_tile


class InputError(EngineError):
    """A board or rack given to ``hint`` that cannot be read; the message names the line or field."""


def board_file_text(name: str) -> str:
    """The text of a ``--board`` file (``-``: stdin); InputError naming it when it is missing, a
    directory, unreadable or not UTF-8 text."""
    source = "stdin" if name == "-" else name
    try:
        if name == "-":
            return sys.stdin.read()
        return Path(name).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{source}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start}); "
            "a board file is UTF-8 text: 15 rows of '.' and letters"
        ) from None
    except FileNotFoundError:
        raise InputError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{source}: is a directory, not a board file") from None
    except OSError as exc:
        raise InputError(f"{source}: cannot read it: {exc.strerror or exc}") from None


def check_position(board: Board, rack: Rack, rules: Ruleset, source: str, rack_source: str) -> None:
    """A board and rack a game of ``rules`` can reach: the tiles cover the start square and hang
    together, and no letter (or blank) is there more often than the ruleset's bag holds it.
    InputError naming the file (``source``) or the rack (``rack_source``) otherwise."""
    squares = {(row, col) for row, col, _ in board.tiles()}
    if squares:
        start = rules.layout.start
        if start not in squares:
            raise InputError(
                f"{source}: no tile on the start square {square_name(*start)}; the first move of a game covers it"
            )
        reached, todo = {start}, [start]
        while todo:
            row, col = todo.pop()
            for near in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if near in squares and near not in reached:
                    reached.add(near)
                    todo.append(near)
        apart = sorted(squares - reached)
        if apart:
            names = ", ".join(square_name(*square) for square in apart[:5]) + (", ..." if len(apart) > 5 else "")
            raise InputError(f"{source}: the tiles at {names} do not touch the tiles on the start square")
    alphabet = rules.alphabet
    on_board = Counter(bag_tile(tile) for _, _, tile in board.tiles())
    on_rack = Counter(rack.letters())
    on_rack[BLANK] += rack.blanks
    for code in sorted(set(on_board) | set(on_rack)):
        have = alphabet.blanks if code == BLANK else alphabet.counts[code]
        what = "blank" if code == BLANK else f"{alphabet.symbol(code)} tile"
        if on_board[code] > have:
            where = f"{source}: {_count(on_board[code], what)} on the board"
        elif on_rack[code] > have:
            where = f"{rack_source}: {_count(on_rack[code], what)} on the rack"
        elif on_board[code] + on_rack[code] > have:
            both = f"{_count(on_board[code], what)} on the board and {on_rack[code]} on the rack"
            where = f"{source} and {rack_source}: {both}"
        else:
            continue
        raise InputError(f"{where}; the bag of ruleset {rules.id} ({rules.code}) holds {have}")


def _count(count: int, what: str) -> str:
    return f"{count} {what}{'' if count == 1 else 's'}"


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
    """The board with the hint's best move on it, highlighted, and the scores, the sides named by ``names``
    (the account's name first): an SVG file's text. The lines under the board are wrapped to its width."""
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
    if move.sim_ahead is not None:
        text += f", ahead {move.sim_ahead:.0%}"
    return text


__all__ = [
    "InputError", "board_file_text", "check_position", "hint_svg", "hint_text", "read_board", "situation_for",
    "svg_footer",
]  # fmt: skip
