"""The one board picture: an SVG of a Wordfeud board, for ``hint --svg``, the HTML replay and the status page.

It draws the premium squares of the board's layout (standard or random), the tiles with their points,
blanks marked (no points, the letter in red), the squares of the last move highlighted, the column
letters and row numbers, and the two players' scores. Only the standard library is used: the picture
is a string of SVG, which a browser shows as it is and a test reads back with ``xml.etree``.

Every element a test or a script may look for carries a class and a ``data-square`` name (``H8``:
column H, row 8): ``square`` rects (with ``premium-DL`` .. ``premium-TW``), ``tile`` groups (with
``blank`` and ``last``), ``coordinate`` labels and ``score`` texts.

>>> from engine.rules.ruleset import Ruleset
>>> from engine.board.board import Board
>>> rules = Ruleset.for_id(5)
>>> svg = board_svg(BoardView(Board(rules.alphabet), rules.layout))
>>> svg.count('class="square'), svg.count('class="tile')
(225, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape

from bot.escapes import escaped
from engine.board.board import EMPTY, Board
from engine.rules.layout import DL, DW, SIZE, TL, TW, BoardLayout
from engine.rules.tiles import BLANK_FLAG, LETTER_MASK, Alphabet

COLUMNS = "ABCDEFGHIJKLMNO"
_CELL = 40  # side of a square, in SVG units
_MARGIN = 22  # room for the coordinates
_HEADER = 34  # room for the scores
_FOOTER_LINE = 22  # height of a line of text under the board
_PREMIUM_NAMES = {DL: "DL", TL: "TL", DW: "DW", TW: "TW"}

#: The picture's style, once per page (``board_svg(..., style=False)`` leaves it to the page).
STYLE = """
.wf-board { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; }
.wf-board .square { fill: #d9d4c7; stroke: #f7f4ec; stroke-width: 2; }
.wf-board .premium-DL { fill: #8ec3e6; } .wf-board .premium-TL { fill: #2f6fa3; }
.wf-board .premium-DW { fill: #eba56b; } .wf-board .premium-TW { fill: #b5432f; }
.wf-board .premium-label { font-size: 11px; font-weight: bold; fill: #fff; text-anchor: middle; }
.wf-board .start { font-size: 20px; fill: #7a6f58; text-anchor: middle; }
.wf-board .tile rect { fill: #f3dfa8; stroke: #b49a5a; stroke-width: 1.5; }
.wf-board .tile.last rect { fill: #ffd84d; stroke: #d12f2f; stroke-width: 3; }
.wf-board .tile .letter { font-size: 22px; font-weight: bold; fill: #2b2415; text-anchor: middle; }
.wf-board .tile.blank .letter { fill: #c0392b; font-style: italic; }
.wf-board .tile .points { font-size: 10px; fill: #4d4330; text-anchor: end; }
.wf-board .coordinate { font-size: 12px; fill: #6b6456; text-anchor: middle; }
.wf-board .score { font-size: 16px; fill: #2b2415; }
.wf-board .score.to-move { font-weight: bold; }
.wf-board .footer { font-size: 15px; fill: #2b2415; }
.wf-board .footer.line-0 { font-weight: bold; }
.wf-board .background { fill: #f7f4ec; }
.wf-board .off { display: none; }
"""


def square_name(row: int, col: int) -> str:
    """A square's name, column letter then row number: ``square_name(7, 7) == 'H8'``."""
    return f"{COLUMNS[col]}{row + 1}"


@dataclass(frozen=True)
class BoardView:
    """What one picture shows: the tiles, the premium layout, the last move's squares (row, col), the
    players as (name, score) pairs, and the seat to move (None: nobody, e.g. the game is over)."""

    board: Board
    layout: BoardLayout
    last: frozenset[tuple[int, int]] = frozenset()
    players: Sequence[tuple[str, int]] = ()
    to_move: int | None = None
    title: str = ""
    extra: dict[str, str] = field(default_factory=dict)  # data-* attributes of the <svg>, for pages
    footer: Sequence[str] = ()  # lines of text under the board (a hint's move, rack and runners-up)


def squares_of(tiles: Iterable[tuple[int, int, int]]) -> frozenset[tuple[int, int]]:
    """The (row, col) squares of a move's (row, col, tile) triples, for ``BoardView.last``."""
    return frozenset((row, col) for row, col, _ in tiles)


#: The widest a footer character is drawn, in SVG units (15 px DejaVu Sans bold capitals and digits are
#: 10 to 12.5; mixed text averages far less): a line is wrapped to the picture's width by this measure.
_FOOTER_CHAR = 10.5


def wrap_footer(lines: Sequence[str], width: float) -> list[tuple[int, str]]:
    """Footer lines broken at spaces so that each fits ``width`` SVG units (a word longer than the line
    stays whole; a continued line is indented), each with the index of the line it is part of."""
    room = max(10, int((width - _MARGIN - 6) / _FOOTER_CHAR))
    wrapped: list[tuple[int, str]] = []
    for index, line in enumerate(lines):
        current = ""
        for word in line.split(" "):
            if current.strip() and len(current) + 1 + len(word) > room:
                wrapped.append((index, current))
                current = "   " + word
            else:
                current = f"{current} {word}" if current else word
        wrapped.append((index, current))
    return wrapped


def board_svg(view: BoardView, *, style: bool = True) -> str:
    """The SVG of a board view; with ``style`` the picture carries its own style (a file on its own)."""
    width = _MARGIN + SIZE * _CELL + 4
    footer = wrap_footer(view.footer, width)
    height = _HEADER + _MARGIN + SIZE * _CELL + 4 + _FOOTER_LINE * len(footer)
    attributes = "".join(f' data-{escape(k)}="{_text(v)}"' for k, v in view.extra.items())
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="wf-board" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img"{attributes}>'
    ]
    if view.title:
        parts.append(f"<title>{_text(view.title)}</title>")
    if style:
        parts.append(f"<style>{STYLE}</style>")
    parts.append(f'<rect class="background" x="0" y="0" width="{width}" height="{height}"/>')
    parts.extend(_scores(view, width))
    top = _HEADER + _MARGIN
    parts.extend(_coordinates(top))
    for row in range(SIZE):
        for col in range(SIZE):
            parts.extend(_square(view, row, col, _MARGIN + col * _CELL, top + row * _CELL))
    for row, (index, line) in enumerate(footer):
        y = top + SIZE * _CELL + _FOOTER_LINE * (row + 1) - 4
        parts.append(
            f'<text class="footer line-{index}" x="{_MARGIN}" y="{y}" xml:space="preserve">{_text(line)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def boards_svg(views: Sequence[BoardView], *, title: str = "") -> str:
    """One picture of a sequence of boards on one layout (a game's positions, oldest first), for a page
    that steps through them: the squares are drawn once, each tile once for the run of positions it stays
    on its square (``data-from`` .. ``data-to``, position indexes; ``data-last``: the positions at which it
    is of the last move), and the scores once for each run of positions they stay the same. The first
    position is shown; ``show_step`` of ``STEP_SCRIPT`` shows another (it hides the rest with ``off``)."""
    first = views[0]
    width = _MARGIN + SIZE * _CELL + 4
    height = _HEADER + _MARGIN + SIZE * _CELL + 4
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="wf-board steps" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img">'
    ]
    if title:
        parts.append(f"<title>{_text(title)}</title>")
    parts.append(f'<rect class="background" x="0" y="0" width="{width}" height="{height}"/>')
    start = 0
    for index in range(1, len(views) + 1):  # the scores, once for each run of positions where they stay
        if index < len(views) and _score_key(views[index]) == _score_key(views[start]):
            continue
        hidden = " off" if start > 0 else ""
        parts.append(f'<g class="scores{hidden}" data-from="{start}" data-to="{index - 1}">')
        parts.extend(_scores(views[start], width))
        parts.append("</g>")
        start = index
    top = _HEADER + _MARGIN
    parts.extend(_coordinates(top))
    empty = BoardView(Board(first.board.alphabet), first.layout)
    for row in range(SIZE):
        for col in range(SIZE):
            parts.extend(_square(empty, row, col, _MARGIN + col * _CELL, top + row * _CELL))
    for row in range(SIZE):
        for col in range(SIZE):
            parts.extend(_tile_runs(views, row, col, _MARGIN + col * _CELL, top + row * _CELL))
    parts.append("</svg>")
    return "".join(parts)


#: Shows position ``i`` of every ``boards_svg`` picture in the page: ``show_step(i)``.
STEP_SCRIPT = r"""
function show_step(i) {
  document.querySelectorAll('svg.steps [data-from]').forEach(function (e) {
    const on = Number(e.dataset.from) <= i && i <= Number(e.dataset.to);
    e.classList.toggle('off', !on);
    if (e.dataset.last !== undefined) { e.classList.toggle('last', e.dataset.last.split(' ').indexOf(String(i)) >= 0); }
  });
}
"""


def _score_key(view: BoardView) -> tuple[object, ...]:
    return (tuple(view.players[:2]), view.to_move)


def _tile_runs(views: Sequence[BoardView], row: int, col: int, x: int, y: int) -> list[str]:
    """A square's tiles over the positions: one tile group for each run of positions it stays."""
    parts: list[str] = []
    index = 0
    while index < len(views):
        tile = views[index].board.grid[row][col]
        if tile == EMPTY:
            index += 1
            continue
        end = index
        while end + 1 < len(views) and views[end + 1].board.grid[row][col] == tile:
            end += 1
        lasts = [str(i) for i in range(index, end + 1) if (row, col) in views[i].last]
        attributes = f' data-from="{index}" data-to="{end}"' + (f' data-last="{" ".join(lasts)}"' if lasts else "")
        classes = ("" if index == 0 else " off") + (" last" if "0" in lasts else "")
        parts.extend(_tile(views[index].board.alphabet, tile, row, col, x, y, classes, attributes))
        index = end + 1
    return parts


def _coordinates(top: int) -> list[str]:
    parts = []
    for col in range(SIZE):
        x = _MARGIN + col * _CELL + _CELL / 2
        parts.append(f'<text class="coordinate column" x="{x:g}" y="{top - 6}">{COLUMNS[col]}</text>')
    for row in range(SIZE):
        y = top + row * _CELL + _CELL / 2 + 4
        parts.append(f'<text class="coordinate row" x="{_MARGIN / 2:g}" y="{y:g}">{row + 1}</text>')
    return parts


def _text(value: str) -> str:
    """Text of a player's name, a title or a line as the picture holds it: control characters shown as
    escapes (``bot.escapes``: they are not XML, and a terminal showing the file would obey them), then
    XML-escaped."""
    return escape(escaped(value))


def _scores(view: BoardView, width: int) -> list[str]:
    parts = []
    for seat, (name, score) in enumerate(view.players[:2]):
        anchor, x = ("start", _MARGIN) if seat == 0 else ("end", width - 6)
        marker = " to-move" if view.to_move == seat else ""
        arrow = "\u25b6 " if view.to_move == seat and seat == 0 else ""
        after = " \u25c0" if view.to_move == seat and seat == 1 else ""
        parts.append(
            f'<text class="score seat-{seat}{marker}" x="{x}" y="22" text-anchor="{anchor}">'
            f"{arrow}{_text(name)} {score}{after}</text>"
        )
    return parts


def _square(view: BoardView, row: int, col: int, x: int, y: int) -> list[str]:
    name = square_name(row, col)
    code = view.layout.codes[row][col]
    premium = _PREMIUM_NAMES.get(code)
    kind = f"square premium-{premium}" if premium else "square"
    parts = [f'<rect class="{kind}" data-square="{name}" x="{x}" y="{y}" width="{_CELL}" height="{_CELL}"/>']
    tile = view.board.grid[row][col]
    cx, cy = x + _CELL / 2, y + _CELL / 2
    if tile == EMPTY:
        if premium:
            parts.append(f'<text class="premium-label" x="{cx:g}" y="{cy + 4:g}">{premium}</text>')
        elif (row, col) == view.layout.start:
            parts.append(f'<text class="start" x="{cx:g}" y="{cy + 7:g}">\u2605</text>')
        return parts
    parts.extend(_tile(view.board.alphabet, tile, row, col, x, y, " last" if (row, col) in view.last else ""))
    return parts


def _tile(
    alphabet: Alphabet, tile: int, row: int, col: int, x: int, y: int, more: str, attributes: str = ""
) -> list[str]:
    """A tile's group (``more``: further classes, `` last`` ..; ``attributes``: further attributes)."""
    name = square_name(row, col)
    cx, cy = x + _CELL / 2, y + _CELL / 2
    blank = bool(tile & BLANK_FLAG)
    letter = alphabet.symbol(tile & LETTER_MASK)
    classes = "tile" + (" blank" if blank else "") + more
    points = 0 if blank else alphabet.tile_points(tile)
    size = "" if len(letter) == 1 else f' style="font-size: {max(11, 22 - 5 * (len(letter) - 1))}px"'
    parts = [
        f'<g class="{classes}" data-square="{name}" data-letter="{escape(letter)}" data-points="{points}"{attributes}>'
        f'<rect x="{x + 2}" y="{y + 2}" width="{_CELL - 4}" height="{_CELL - 4}" rx="5"/>'
        f'<text class="letter" x="{cx:g}" y="{cy + 8:g}"{size}>{escape(letter)}</text>'
    ]
    if not blank:
        parts.append(f'<text class="points" x="{x + _CELL - 5}" y="{y + _CELL - 5}">{points}</text>')
    parts.append("</g>")
    return parts
