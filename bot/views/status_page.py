"""What the status page shows, read from the state file: running games with their boards and whose turn
it is, the last decisions, the record (wins, draws, losses, mean scores, per ruleset), the words the
server refused, the words learned from plays it accepted, and the daemon's health. ``snapshot`` gathers
it as data (``/status.json``), ``fragment`` and ``page`` write it as HTML (the page refreshes its
fragment on its own)."""

from __future__ import annotations

import base64
import hashlib
import re
import time
from html import escape
from typing import Any

from bot.errors import BotError
from bot.records.history import record
from bot.store.store import GameRow, Store
from bot.views.board_svg import STYLE, BoardView, board_svg
from bot.views.weighed import weighed_html
from engine.errors import EngineError, RulesetError
from engine.rules.ruleset import RULESET_IDS, Ruleset

_DECISIONS = 15
_LEARNED_SHOWN = 30  # learned words listed per ruleset (the newest); the count says how many in all
_CHAT_SHOWN = 5  # the opponent's newest chat messages shown per running game
_FINISHED_SHOWN = 10  # finished games listed (the newest)


def _record(rows: list[GameRow]) -> dict[str, Any]:
    def summary(group: list[GameRow]) -> dict[str, Any]:
        count = len(group) or 1
        return {
            "games": len(group),
            "wins": sum(1 for r in group if r.result == "won"),
            "draws": sum(1 for r in group if r.result == "drawn"),
            "losses": sum(1 for r in group if r.result == "lost"),
            "mean": round(sum(r.my_score for r in group) / count, 1),
            "theirs": round(sum(r.their_score for r in group) / count, 1),
        }

    finished = [r for r in rows if not r.running]
    rulesets = sorted({r.ruleset for r in finished})
    by_ruleset = {str(k): summary([r for r in finished if r.ruleset == k]) for k in rulesets}
    return {"running": len(rows) - len(finished), **summary(finished), "by_ruleset": by_ruleset}


def _game(store: Store, row: GameRow) -> dict[str, Any]:
    """A running game as the bot knows it: its latest recorded position with the bot's own applied move
    put on it (the bot reads the board again only at its next pass), as data and an SVG."""
    facts: dict[str, Any] = {
        "id": row.game_id,
        "opponent": row.opponent,
        "ruleset": row.ruleset,
        "moves": row.move_count,
        "bot_to_move": row.my_turn,
        "scores": [row.my_score, row.their_score],
        "updated": row.updated,
    }
    facts["thinking"] = store.thinking(row.game_id)
    facts["level"] = store.level(row.game_id)  # (level, why), from the game's last decision
    try:
        recorded = record(store, row.game_id)
    except (LookupError, BotError, EngineError) as exc:
        return {**facts, "svg": f'<p class="problem">no board: {escape(str(exc))}</p>'}
    frame = recorded.frames[-1]
    facts["rack"], facts["bag"] = recorded.final_rack, recorded.bag
    facts["board"] = "random" if recorded.random_board else "standard"
    view = BoardView(frame.board, frame.layout, frame.last, frame.players, frame.to_move, f"game {row.game_id}")
    facts["chat"] = [text for _, text in store.chat(row.game_id)][-_CHAT_SHOWN:]
    return {
        **facts,
        "moves": frame.moves,
        "bot_to_move": frame.to_move == 0,
        "scores": [frame.players[0][1], frame.players[1][1]],
        "last": f"{frame.actor} {frame.action}".strip() if frame.action != "start" else "",
        "svg": board_svg(view, style=False),
    }


def snapshot(store: Store, health: dict[str, Any]) -> dict[str, Any]:
    """The page's facts as JSON-ready data."""
    rows = store.games()
    games = [_game(store, r) for r in rows if r.running]
    finished = sorted((r for r in rows if not r.running), key=lambda r: r.updated, reverse=True)[:_FINISHED_SHOWN]
    decisions = [
        {
            "at": d_at,
            "game": d.game_id,
            "move": d.move_count + 1,
            "kind": d.kind,
            "notation": d.notation,
            "points": d.points,
            "server_points": d.server_points,
            "status": d.status,
        }
        for d, d_at in store.recent_decisions(_DECISIONS)
    ]
    refused = store.rejected()
    # words the bot's lexicon lacked until a game proved them: a count and the newest, not the table
    learned = {str(k): v for k, v in sorted(store.newest_learned(_LEARNED_SHOWN).items())}
    return {
        "health": health,
        "record": _record(rows),
        "games": games,
        "finished": [
            {
                "id": r.game_id, "opponent": r.opponent, "ruleset": r.ruleset, "result": r.result,
                "scores": [r.my_score, r.their_score], "moves": r.move_count, "ended": r.updated,
            }
            for r in finished
        ],
        "decisions": decisions,
        "refused": {str(k): sorted(words) for k in RULESET_IDS if (words := refused.words(k))},
        "learned": {k: words for k, (_, words) in learned.items()},
        "learned_counts": {k: count for k, (count, _) in learned.items()},
    }


def rules_name(ruleset: int) -> str:
    """A ruleset's name for a heading (an unknown id is named as such: it is only a label)."""
    try:
        return Ruleset.for_id(ruleset).name
    except RulesetError:
        return "unknown ruleset"


def _ago(now: float, stamp: float | None) -> str:
    if stamp is None:
        return "never"
    seconds = max(0.0, now - stamp)
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(stamp))
    return f"{when} ({seconds:.0f} s ago)"


def _count(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def _rack(game: dict[str, Any]) -> str:
    """The bot's rack (as tiles) and the bag count of a running game."""
    if not game.get("rack") and game.get("bag") is None:
        return ""
    tiles = "".join(f'<span class="tile">{escape(t)}</span>' for t in _rack_tiles(game.get("rack", "")))
    return f'<p class="rack">rack {tiles or "(empty)"} &middot; {game.get("bag", 0)} in the bag</p>'


def _rack_tiles(rack: str) -> list[str]:
    """A rack text's tiles (``[CH]`` is one tile)."""
    return [tile.strip("[]") for tile in re.findall(r"\[[^\]]*\]|.", rack)]


def _thinking(game: dict[str, Any]) -> str:
    """The last decision's top candidates with their figures (equity; the simulation's value and wins)."""
    return weighed_html(game.get("thinking"), "What the bot weighed last")


def _cell(label: str, text: str, kind: str = "") -> str:
    """A cell of a stacked table: its column's name in ``data-label``, shown before it at phone width."""
    classes = f' class="{kind}"' if kind else ""
    return f'<td data-label="{escape(label)}"{classes}>{text}</td>'


def _finished(finished: list[dict[str, Any]], now: float) -> str:
    """The newest finished games with their results and links to their replay pages and GCG records."""
    if not finished:
        return '<section id="finished"><h2>Finished games</h2><p>None yet.</p></section>'
    rows = "".join(
        f'<tr class="{escape(g["result"])}">'
        + _cell("game", str(g["id"]), "id")
        + _cell("against", escape(g["opponent"]))
        + _cell("result", escape(g["result"]), "result")
        + _cell("score", f"{g['scores'][0]}&ndash;{g['scores'][1]}")
        + _cell("ruleset", str(g["ruleset"]))
        + _cell("ended", _ago(now, g["ended"]), "time")
        + _cell(
            "records",
            f'<a href="games/{g["id"]}/replay.html">replay</a> &middot; '
            f'<a href="games/{g["id"]}/record.gcg" download="{g["id"]}.gcg">GCG</a>',
        )
        + "</tr>"
        for g in finished
    )
    return (
        f'<section id="finished"><h2>Finished games (newest {len(finished)})</h2><div class="wide">'
        '<table class="stack"><thead><tr><th>game</th><th>opponent</th><th>result</th><th>score</th>'
        f"<th>ruleset</th><th>ended</th><th>records</th></tr></thead><tbody>{rows}</tbody></table></div></section>"
    )


def _level(game: dict[str, Any]) -> str:
    """The strength level the game plays at and why, for its heading (nothing before its first decision)."""
    if not game.get("level"):
        return ""
    level, reason = game["level"]
    return f' <span class="level">at level {escape(level)} ({escape(reason)})</span>'


def _chat(game: dict[str, Any]) -> str:
    """The opponent's newest chat messages, shown as text (never interpreted)."""
    messages = game.get("chat") or []
    if not messages:
        return ""
    items = "".join(f"<li>{escape(text)}</li>" for text in messages)
    return f'<div class="chat"><h4>{escape(game["opponent"])} wrote</h4><ul>{items}</ul></div>'


def fragment(facts: dict[str, Any]) -> str:
    """The page's changing part: health, record, games with boards, decisions, refused words."""
    health = facts["health"]
    now = health["now"]
    state = "healthy" if health["healthy"] else "unhealthy"
    parts = [
        f'<section id="health" class="{state}" data-passes="{health["passes"]}"><h2>Health: {state}</h2><p>'
        f"{escape(health['reason'])}; {_count(health['passes'], 'pass', 'passes')} "
        f"since {_ago(now, health['started'])}.<br>"
        f"Last successful poll: {_ago(now, health['last_success'])}.<br>"
        f"Last error: {escape(health['last_error'] or 'none')}"
        f"{' at ' + _ago(now, health['last_error_at']) if health['last_error_at'] else ''}.</p></section>"
    ]
    record = facts["record"]
    rows = "".join(
        f"<tr><td>ruleset {escape(k)}</td><td>{v['games']}</td><td>{v['wins']}</td><td>{v['draws']}</td>"
        f"<td>{v['losses']}</td><td>{v['mean']}</td><td>{v['theirs']}</td></tr>"
        for k, v in record["by_ruleset"].items()
    )
    parts.append(
        f'<section id="record"><h2>Record</h2><p>{_count(record["games"], "finished game")}: '
        f"{_count(record['wins'], 'win')}, {_count(record['draws'], 'draw')}, "
        f"{_count(record['losses'], 'loss', 'losses')}; mean score {record['mean']} against "
        f"{record['theirs']}. {record['running']} running.</p>"
        + (
            '<div class="wide"><table><thead><tr><th></th><th>games</th><th>wins</th><th>draws</th><th>losses</th>'
            f"<th>mean</th><th>theirs</th></tr></thead><tbody>{rows}</tbody></table></div>"
            if rows
            else ""
        )
        + "</section>"
    )
    cards = []
    for game in facts["games"]:
        turn = "the bot is to move" if game["bot_to_move"] else f"{escape(game['opponent'])} is to move"
        board = f", {game['board']} board" if game.get("board") else ""
        cards.append(
            f'<article class="game" data-game="{game["id"]}" data-moves="{game["moves"]}">'
            f"<h3>Game {game['id']} against {escape(game['opponent'])}: ruleset {game['ruleset']} "
            f"({escape(rules_name(game['ruleset']))}){board}{_level(game)}</h3>"
            f'<p><span class="moves">{game["moves"]} moves</span>, {turn}; '
            f"{game['scores'][0]}&ndash;{game['scores'][1]}"
            f"{'; last: ' + escape(game['last']) if game.get('last') else ''}</p>"
            f"{_rack(game)}{game['svg']}{_thinking(game)}{_chat(game)}</article>"
        )
    parts.append(
        f'<section id="games"><h2>Running games ({len(cards)})</h2>'
        + ("".join(cards) or "<p>No game is running.</p>")
        + "</section>"
    )
    parts.append(_finished(facts.get("finished", []), now))
    decisions = "".join(
        "<tr>"
        + _cell("at", time.strftime("%H:%M:%S", time.localtime(d["at"])), "time")
        + _cell("game", str(d["game"]), "id")
        + _cell("move", str(d["move"]))
        + _cell("play", escape(d["notation"]), "play")
        + _cell("engine", str(d["points"]))
        + _cell("server", "" if d["server_points"] is None else str(d["server_points"]))
        + _cell("outcome", escape(d["status"]))
        + "</tr>"
        for d in facts["decisions"]
    )
    parts.append(
        '<section id="decisions"><h2>Last decisions</h2>'
        + (
            '<div class="wide"><table class="stack"><thead><tr><th>at</th><th>game</th><th>move</th><th>play</th>'
            "<th>engine</th><th>server</th>"
            f"<th>outcome</th></tr></thead><tbody>{decisions}</tbody></table></div>"
            if decisions
            else "<p>None yet.</p>"
        )
        + "</section>"
    )
    refused = "".join(
        f"<li>ruleset {escape(k)}: {escape(', '.join(words))}</li>" for k, words in facts["refused"].items()
    )
    parts.append(
        f'<section id="refused"><h2>Words the server refused</h2>{f"<ul>{refused}</ul>" if refused else "<p>None.</p>"}'
        "</section>"
    )
    learned = "".join(
        f"<li>ruleset {escape(k)} ({facts['learned_counts'][k]:,} in all, newest first): "
        f"{escape(', '.join(words))}</li>"
        for k, words in facts["learned"].items()
    )
    parts.append(
        '<section id="learned"><h2>Words learned from accepted plays</h2>'
        f"{f'<ul>{learned}</ul>' if learned else '<p>None yet.</p>'}</section>"
    )
    return "".join(parts)


_PAGE_STYLE = """
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 16px; background: #f7f4ec; color: #2b2415; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin: 14px 0 4px; } h3 { font-size: 14px; margin: 0 0 4px; }
#health.healthy h2 { color: #2d7a3a; } #health.unhealthy h2 { color: #b5432f; }
#games { display: flex; flex-wrap: wrap; gap: 16px; } #games h2 { width: 100%; }
.game { width: 440px; max-width: 100%; min-width: 0; }
.game svg.wf-board { width: 420px; max-width: 100%; height: auto; }
table { border-collapse: collapse; font-size: 13px; } th, td { padding: 2px 8px; border-bottom: 1px solid #ddd6c4; }
.wide { max-width: 100%; overflow-x: auto; } p, li, h3, summary { overflow-wrap: anywhere; }
th, td { white-space: nowrap; text-align: left; } td.num { text-align: right; } .note { max-width: 640px; }
.rack .tile { display: inline-block; min-width: 1.4em; margin-right: 2px; padding: 1px 3px; text-align: center;
  background: #f3d9a4; border: 1px solid #b99b5f; border-radius: 3px; font-weight: bold; }
.thinking summary { cursor: pointer; font-size: 13px; } .note { font-size: 12px; color: #6b6456; }
.chat h4 { font-size: 13px; margin: 6px 0 2px; } .chat ul { margin: 0; padding-left: 18px; font-size: 13px; }
tr.won td.result { color: #2d7a3a; } tr.lost td.result { color: #b5432f; }
@media (max-width: 600px) {
  body { margin: 8px; } th, td { padding: 2px 4px; }
  /* a stacked table: each row a block of its cells, each cell after its column's name, never broken */
  table.stack thead { display: none; } table.stack, table.stack tbody { display: block; }
  table.stack tr { display: block; padding: 4px 0; border-bottom: 1px solid #ddd6c4; }
  table.stack td { display: inline-block; border: 0; padding: 1px 10px 1px 0; }
  table.stack td::before { content: attr(data-label) " "; color: #6b6456; font-size: 11px; }
  table.stack td:empty { display: none; }
}
.problem { color: #b5432f; } footer { color: #6b6456; font-size: 12px; margin-top: 16px; }
"""

_SCRIPT = """
(function () {
  const every = Number(document.body.dataset.refresh) * 1000;
  function refresh() {
    fetch('fragment', {cache: 'no-store'}).then(function (r) {
      if (!r.ok) { throw new Error('HTTP ' + r.status); }
      return r.text();
    }).then(function (html) {
      document.getElementById('content').innerHTML = html;
      document.body.dataset.updated = String(Date.now());
      document.getElementById('stale').hidden = true;
    }).catch(function () { document.getElementById('stale').hidden = false; })
      .finally(function () { setTimeout(refresh, every); });
  }
  setTimeout(refresh, every);
})();
"""


#: The page's one script, allowed by its hash: no other script (an injected one included) runs.
SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(_SCRIPT.encode("utf-8")).digest()).decode("ascii")
def security_policy(script_hash: str) -> str:
    """The Content-Security-Policy of a page whose one script has this hash."""
    return (
        f"default-src 'self'; script-src '{script_hash}'; style-src 'unsafe-inline'; img-src 'self' data:; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


#: The Content-Security-Policy of every answer but a replay page's: the page's own script only (by hash), its
#: inline styles, images from itself or data: URLs, requests to itself; nothing else.
CONTENT_SECURITY_POLICY = security_policy(SCRIPT_HASH)


def page(facts: dict[str, Any], refresh_seconds: float) -> str:
    """The whole page; its script fetches the fragment again every ``refresh_seconds``."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>wordfeud-bot status</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{STYLE}{_PAGE_STYLE}</style></head>
<body data-refresh="{refresh_seconds:g}">
<h1>wordfeud-bot status</h1>
<p id="stale" class="problem" hidden>The daemon does not answer: the figures below may be old.</p>
<div id="content">{fragment(facts)}</div>
<footer>Updates every {refresh_seconds:g} s. <a href="status.json">status.json</a> &middot;
<a href="healthz">healthz</a></footer>
<script>{_SCRIPT}</script>
</body></html>
"""
