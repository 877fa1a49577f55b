"""``wordfeud-bot replay GAME --html FILE``: a recorded game as one self-contained HTML page.

The page holds the board after every move, stepped through with a slider, the buttons or the keyboard
(left/right arrows, Home, End), the bag count, the candidates the bot weighed at each of its moves with
their figures, the move list with both players' scores, the server's points against the engine's, what the
bot would play now with the configured strategy, the opponent's rack at the end, and a graph of the scores.
Everything is in the one file (style, script, pictures): it opens from a disk or a mail with no network.

The board is drawn once (``bot.views.board_svg.boards_svg``: the squares once, each tile once for the
positions it stays on) and the script shows the position asked for: a 23-move game's page is about 80 KB,
where one whole board picture a position made it 830 KB.
"""

from __future__ import annotations

import base64
import hashlib
from html import escape

from bot.records.history import Frame, GameRecord
from bot.views.board_svg import STEP_SCRIPT, STYLE, BoardView, boards_svg
from bot.views.weighed import weighed_html
from engine.errors import RulesetError
from engine.rules.ruleset import Ruleset

_PAGE_STYLE = """
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 16px; background: #f7f4ec; color: #2b2415; }
h1 { font-size: 20px; margin: 0 0 4px; } .sub { color: #6b6456; margin: 0 0 12px; }
.layout { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
.controls { display: flex; gap: 8px; align-items: center; margin: 8px 0; }
.controls input[type=range] { width: 360px; max-width: 100%; }
.caption { min-height: 3em; margin: 6px 0; max-width: 560px; } .bag { margin: 0 0 6px; color: #6b6456; }
.thinking summary { cursor: pointer; font-size: 13px; } .note { font-size: 12px; color: #6b6456; max-width: 560px; }
.wide { max-width: 100%; overflow-x: auto; } td.play { white-space: nowrap; }
.frame[hidden] { display: none; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 3px 7px; border-bottom: 1px solid #ddd6c4; text-align: left; white-space: nowrap; }
th { white-space: normal; vertical-align: bottom; }
td.num { text-align: right; } tr.current { background: #ffe9a0; } tbody tr { cursor: pointer; }
tr.differs td.points { color: #b5432f; font-weight: bold; }
.main svg.wf-board { width: 560px; max-width: 100%; height: auto; } .side { width: 600px; max-width: 100%; }
.layout > * { min-width: 0; max-width: 100%; } .controls { flex-wrap: wrap; } .main { width: 560px; }
svg.graph { max-width: 100%; height: auto; } .caption, h1, .sub { overflow-wrap: anywhere; }
@media (max-width: 600px) {
  body { margin: 8px; } th, td { padding: 2px 3px; } th { white-space: normal; }
  table.moves th:nth-child(4), table.moves td:nth-child(4) { display: none; }  /* the caption gives the points */
  table { font-size: 12px; }
}
#list { position: relative; max-height: 440px; overflow-y: auto; overflow-x: auto; }
.graph .bot { stroke: #2f6fa3; } .graph .opponent { stroke: #b5432f; }
.graph polyline { fill: none; stroke-width: 2.5; } .graph .axis { stroke: #9c9582; stroke-width: 1; }
.graph text { font-size: 11px; fill: #6b6456; }
.graph .legend-bot { fill: #2f6fa3; font-weight: bold; } .graph .legend-opponent { fill: #b5432f; font-weight: bold; }
.graph .cursor { stroke: #d9a400; stroke-width: 2; }
kbd { border: 1px solid #bbb; border-radius: 3px; padding: 0 4px; background: #fff; }
"""

_SCRIPT = (
    STEP_SCRIPT
    + r"""
(function () {
  const frames = document.querySelectorAll('.frame');
  const rows = document.querySelectorAll('tbody tr[data-frame]');
  const slider = document.getElementById('slider');
  const label = document.getElementById('position');
  const cursor = document.getElementById('cursor');
  const last = frames.length - 1;
  function show(i) {
    i = Math.max(0, Math.min(last, i));
    frames.forEach(function (f, k) { f.hidden = k !== i; });
    show_step(i);
    rows.forEach(function (r) { r.classList.toggle('current', Number(r.dataset.frame) === i); });
    slider.value = i;
    label.textContent = frames[i].dataset.label;
    document.body.dataset.frame = i;
    const x = cursor.dataset['x' + i];
    cursor.setAttribute('x1', x); cursor.setAttribute('x2', x);
    const row = document.querySelector('tbody tr[data-frame="' + i + '"]');
    const list = document.getElementById('list');
    if (row) { list.scrollTop = Math.max(0, row.offsetTop - list.clientHeight / 2); }
  }
  function current() { return Number(document.body.dataset.frame || 0); }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { show(current() + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { show(current() - 1); e.preventDefault(); }
    else if (e.key === 'Home') { show(0); e.preventDefault(); }
    else if (e.key === 'End') { show(last); e.preventDefault(); }
  });
  slider.addEventListener('input', function () { show(Number(slider.value)); });
  document.getElementById('previous').addEventListener('click', function () { show(current() - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current() + 1); });
  rows.forEach(function (r) { r.addEventListener('click', function () { show(Number(r.dataset.frame)); }); });
  function after(n) {  // the board after move n: the first frame of the most moves up to n
    let pick = 0;
    frames.forEach(function (f, k) {
      const m = Number(f.dataset.moves);
      if (m <= n && m > Number(frames[pick].dataset.moves)) { pick = k; }
    });
    return pick;
  }
  function opened() {
    const asked = /^#(\d+)$/.exec(location.hash);
    show(asked ? after(Number(asked[1])) : 0);
  }
  window.addEventListener('hashchange', opened);
  opened();
})();
"""
)


def _points(frame: Frame, short: bool = False) -> str:
    """The server's points against the engine's (``36 / 36`` when ``short``)."""
    if frame.points is None and frame.engine_points is None:
        return ""
    server = "?" if frame.points is None else str(frame.points)
    engine = "?" if frame.engine_points is None else str(frame.engine_points)
    return f"{server} / {engine}" if short else f"server {server}, engine {engine}"


def _differs(frame: Frame) -> bool:
    return frame.points is not None and frame.engine_points is not None and frame.points != frame.engine_points


def _would(frame: Frame) -> str:
    """What the bot would play now, or ``same`` when it is the move it played."""
    if frame.would_play and frame.would_play.rsplit(" ", 1)[0] == frame.action:
        return "same"
    return frame.would_play


def caption(frame: Frame) -> str:
    """One line saying what the frame shows (plain text)."""
    if frame.action == "start":
        return f"Before move {frame.moves + 1}" if frame.moves else "The start: an empty board"
    if frame.action == "game over":
        (a, sa), (b, sb) = frame.players
        return f"Game over: {a} {sa}, {b} {sb} ({'; '.join(frame.notes)})"
    verb = "" if frame.action.startswith(("swapped", "passed", "resigned", "moved")) else "played "
    text = f"Move {frame.moves}: {frame.actor} {verb}{frame.action}"
    figures = _points(frame)
    if figures:
        text += f" ({figures}{'; they differ' if _differs(frame) else ''})"
    if frame.rack:
        text += f"; rack {frame.rack}"
    if frame.would_play:
        text += f"; would play now: {frame.would_play}"
    return text


def label(frame: Frame, last: int) -> str:
    """The counter's text for a frame, in the game's move numbers (move N: the game's N-th move, both
    players counted from 1; ``last``: the number of the last move recorded)."""
    if frame.action == "game over":
        return f"game over after move {last}"
    if frame.action == "start":
        return f"before move {frame.moves + 1} of {last}" if frame.moves else f"start, {last} moves"
    return f"move {frame.moves} of {last}"


def _graph(frames: list[Frame]) -> str:
    """The two scores by move as an SVG line graph, with a cursor the script moves to the frame shown."""
    width, height, left, bottom = 580, 220, 36, 22
    top = max([1, *(max(f.players[0][1], f.players[1][1]) for f in frames)])
    span = max(1, len(frames) - 1)

    def x(i: int) -> float:
        return left + (width - left - 10) * i / span

    def y(value: int) -> float:
        return height - bottom - (height - bottom - 10) * max(value, 0) / top

    lines = []
    for seat, name in ((0, "bot"), (1, "opponent")):
        points = " ".join(f"{x(i):.1f},{y(f.players[seat][1]):.1f}" for i, f in enumerate(frames))
        lines.append(f'<polyline class="{name}" points="{points}"/>')
    cursor_xs = "".join(f' data-x{i}="{x(i):.1f}"' for i in range(len(frames)))
    bot, opponent = frames[0].players[0][0], frames[0].players[1][0]
    return (
        f'<svg class="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img"><title>Scores by move</title>'
        f'<line class="axis" x1="{left}" y1="{height - bottom}" x2="{width - 10}" y2="{height - bottom}"/>'
        f'<line class="axis" x1="{left}" y1="10" x2="{left}" y2="{height - bottom}"/>'
        f'<text x="{left - 4}" y="16" text-anchor="end">{top}</text>'
        f'<text x="{left - 4}" y="{height - bottom}" text-anchor="end">0</text>'
        f'<text x="{width - 10}" y="{height - 6}" text-anchor="end">move {frames[-1].moves}</text>'
        + "".join(lines)
        + f'<line id="cursor" class="cursor" x1="{left}" y1="10" x2="{left}" y2="{height - bottom}"{cursor_xs}/>'
        f'<text class="legend-bot" x="{left + 6}" y="22">{escape(bot)}</text>'
        f'<text class="legend-opponent" x="{left + 6}" y="36">{escape(opponent)}</text></svg>'
    )


#: The page's one script, by hash, for a server's Content-Security-Policy (the status page's replay).
SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(_SCRIPT.encode("utf-8")).digest()).decode("ascii")


def replay_html(game: GameRecord, strategy: str) -> str:
    """The whole page of a recorded game (``strategy``: the name the 'would play now' column used; ''
    leaves the column out, for a record made without a lexicon)."""
    try:
        rules_name = Ruleset.for_id(game.ruleset).name
    except RulesetError:  # an unknown ruleset id must not stop the page: it is only a label
        rules_name = "unknown ruleset"
    final = game.frames[-1].players
    state = "running" if game.running else "finished"
    title = f"Game {game.game_id}: {game.bot} against {game.opponent}"
    frames = []
    last = game.frames[-1].moves
    views = [BoardView(f.board, f.layout, f.last, f.players, f.to_move) for f in game.frames]
    for i, frame in enumerate(game.frames):
        bag = "" if frame.bag is None else f'<p class="bag">{frame.bag} in the bag</p>'
        frames.append(
            f'<section class="frame" data-index="{i}" data-moves="{frame.moves}" '
            f'data-label="{escape(label(frame, last))}"{" hidden" if i else ""}>'
            f'<p class="caption">{escape(caption(frame))}</p>{bag}'
            f"{weighed_html(frame.weighed, f'What {game.bot} weighed at move {frame.moves}')}</section>"
        )
    ending = ", and the final scores" if game.frames[-1].action == "game over" else ""
    end_rack = f" {escape(game.opponent)} held {escape(game.opponent_rack)} at the end." if game.opponent_rack else ""
    would = bool(strategy)  # the status page's replay has no lexicon to say what the bot would play now
    rows = []
    for i, frame in enumerate(game.frames):
        if frame.action == "start":
            continue
        (_, mine), (_, theirs) = frame.players
        rows.append(
            f'<tr data-frame="{i}"{" class=differs" if _differs(frame) else ""}><td class="num">{frame.moves}</td>'
            f"<td>{escape(frame.actor)}</td><td>{escape(frame.action)}</td>"
            f'<td class="points num">{escape(_points(frame, short=True))}</td>'
            f'<td class="num">{mine}&ndash;{theirs}</td>'
            + (f"<td>{escape(_would(frame))}</td>" if would else "")
            + "</tr>"
        )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{STYLE}{_PAGE_STYLE}</style></head>
<body data-frame="0">
<h1>{escape(title)}</h1>
<p class="sub">Ruleset {game.ruleset} ({escape(rules_name)}), {state}: {escape(game.bot)} {final[0][1]},
{escape(game.opponent)} {final[1][1]}.{end_rack} {last} moves: the start, the board after each move{ending};
step with <kbd>&larr;</kbd> <kbd>&rarr;</kbd>,
<kbd>Home</kbd>, <kbd>End</kbd> or the slider
(<code>#N</code> at the end of the address opens the board after move N; moves are numbered as in the game,
both players' counted from 1).{f' "Would play now" is the {escape(strategy)} strategy of today.' if would else ""}</p>
<div class="layout"><div class="main">
<div class="controls"><button id="previous" type="button">&larr; previous</button>
<input id="slider" type="range" min="0" max="{len(game.frames) - 1}" value="0" aria-label="position">
<button id="next" type="button">next &rarr;</button> <span id="position"></span></div>
{boards_svg(views, title=title)}
{"".join(frames)}
</div><div class="side">
{_graph(game.frames)}
<div id="list"><table class="moves"><thead><tr>
<th>move</th><th>player</th><th>play</th><th>points (server / engine)</th>
<th>score</th>
{f"<th>would play now ({escape(strategy)})</th>" if would else ""}</tr></thead><tbody>
{"".join(rows)}
</tbody></table></div></div></div>
<script>{_SCRIPT}</script>
</body></html>
"""
