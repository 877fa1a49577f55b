"""What the bot weighed, in pictures and pages: ``hint --svg`` writes the move, its score, the rack and
the runners-up under the board; each decision keeps its top candidates for the status page, which shows
them with the rack, the bag and the finished games."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from bot.play.analysis import hint
from bot.play.turn import THOUGHTS_KEPT
from bot.store.store import Store
from bot.views.hint import hint_svg, situation_for
from bot.views.status_page import fragment, snapshot
from bot.views.weighed import ahead_explained, weighed_html
from engine.board.board import Board
from engine.board.move import parse_move
from engine.board.rack import Rack
from engine.players.registry import strategy_named
from tests.bot.conftest import Sandbox
from tests.lexicons import EN, english

SVG = "{http://www.w3.org/2000/svg}"


def test_the_hint_picture_names_the_move_its_score_the_rack_and_the_runners_up() -> None:
    board = Board(EN.alphabet)
    board.place(parse_move("8G HOuSE", board).tiles)
    situation = situation_for(board, Rack.from_text("AEINRST", EN.alphabet), EN, english())
    result = hint(situation, strategy_named("equity"), 5)
    root = ET.fromstring(hint_svg(result, situation))
    parts: dict[str, list[str]] = {}  # a footer line wrapped to the picture's width: its parts, in order
    for e in root.iter(f"{SVG}text"):
        if "footer" in e.get("class", ""):
            parts.setdefault(e.get("class", ""), []).append((e.text or "").strip())
    lines = [" ".join(texts) for texts in parts.values()]
    best = result.moves[0]
    assert lines[0].startswith(f"{best.notation}  {best.score} points, equity {best.equity:.1f}")
    assert lines[0].endswith(f"rack AEINRST, {result.bag_count} in the bag")
    assert lines[1:] == [f"{m.rank}. {m.notation}  {m.score} points, equity {m.equity:.1f}" for m in result.moves[1:4]]
    height = float(root.get("height") or 0)
    assert all(float(e.get("y") or 0) < height for e in root.iter(f"{SVG}text"))  # nothing drawn off the picture


def test_each_decision_keeps_its_candidates_for_the_status_page(sandbox: Sandbox, tmp_path: Path) -> None:
    game = sandbox.game()
    wiring = sandbox.wire(tmp_path / "state.db")
    wiring.bot.run_pass()
    thought = wiring.store.thinking(game.id)
    assert thought is not None and thought["strategy"] == "equity"
    assert thought["bag"] == EN.alphabet.total_tiles - 2 * EN.rack_size  # the first move: both racks drawn
    candidates = thought["candidates"]
    assert 1 <= len(candidates) <= THOUGHTS_KEPT
    (played,) = wiring.store.decisions(game.id)
    assert candidates[0]["notation"] == played.notation and candidates[0]["score"] == played.points
    assert all(c["equity"] is not None for c in candidates if c["score"])
    equities = [c["equity"] for c in candidates]
    assert equities == sorted(equities, reverse=True)
    wiring.store.close()
    store = Store(tmp_path / "state.db")
    facts = snapshot(store, {"now": 0, "healthy": True, "reason": "", "passes": 1, "started": 0,
                             "last_success": None, "last_error": None, "last_error_at": None})  # fmt: skip
    store.close()
    (shown,) = facts["games"]
    assert shown["rack"] and shown["bag"] >= 79 and shown["thinking"]["candidates"] == candidates
    html = fragment(facts)
    assert 'class="thinking"' in html and candidates[0]["notation"] in html and 'id="finished"' in html


def test_the_weighed_table_shows_ahead_where_sim_ranks_by_it_and_says_why_not_elsewhere() -> None:
    candidates: list[dict[str, Any]] = [
        {"notation": "8D RETAINS", "score": 66, "equity": 70.1, "sim_value": 41.5, "sim_ahead": None},
        {"notation": "8H STAINER", "score": 62, "equity": 66.0, "sim_value": 38.0, "sim_ahead": None},
    ]
    early: dict[str, Any] = {
        "strategy": "sim",
        "rack": "AEINRST",
        "bag": 60,
        "note": "simulated 2",
        "candidates": candidates,
    }
    html = weighed_html(early)
    assert "<th>simulated</th>" in html and ">ahead</th>" not in html
    assert "with 60 tiles in the bag the simulation ranks by points" in html.replace("\u201c", '"')
    assert ahead_explained(early).startswith("No \u201cahead\u201d (the share of playouts won)")
    late = {**early, "bag": 9, "candidates": [{**c, "sim_ahead": 0.61} for c in early["candidates"]]}
    html = weighed_html(late)
    assert ">ahead</th>" in html and "61%" in html and ahead_explained(late) == ""
    static = {**early, "candidates": [{**c, "sim_value": None} for c in early["candidates"]]}
    assert ahead_explained(static) == "" and "<th>simulated</th>" not in weighed_html(static)
