"""What a decision weighed (``Store.thinking``, ``Store.weighed``: the strategy, the rack, the bag, the top
candidates with their figures) as an HTML table, for the status page and the HTML replay.

"Ahead" (the share of the simulation's playouts that end with the bot ahead, weighed by its chance of
winning from there) is what ``sim`` ranks by late in the game only, with fewer than 16 tiles in the bag (its
``winsbelow``); above that it ranks by points (the simulated value) and has no share to show, which the table
says instead of leaving the column empty.
"""

from __future__ import annotations

from html import escape
from typing import Any

#: sim's default ``winsbelow``: with this many tiles in the bag or more it ranks by points, not by wins.
WINS_BELOW = 16


def ahead_explained(thought: dict[str, Any]) -> str:
    """Why a decision's table has no "ahead" figures ('' when it has them, or when nothing was simulated)."""
    candidates = thought.get("candidates") or []
    simulated = any(c.get("sim_value") is not None for c in candidates)
    if not simulated or any(c.get("sim_ahead") is not None for c in candidates):
        return ""
    bag = thought.get("bag")
    where = f"with {bag} tiles in the bag" if isinstance(bag, int) else "early in the game"
    return (
        f"No \u201cahead\u201d (the share of playouts won): {where} the simulation ranks by points, the simulated "
        f"value; it ranks by the share won with fewer than {WINS_BELOW} in the bag (sim's winsbelow)."
    )


def weighed_html(thought: dict[str, Any] | None, heading: str = "What the bot weighed") -> str:
    """A ``details`` element with the candidates' table and the strategy's note ('' without candidates)."""
    if not thought or not thought.get("candidates"):
        return ""
    candidates = thought["candidates"]
    sims = any(c.get("sim_value") is not None for c in candidates)
    ahead = any(c.get("sim_ahead") is not None for c in candidates)
    equities = any(c.get("equity") is not None for c in candidates)

    def cell(value: float | None, text: str) -> str:
        return f'<td class="num">{"" if value is None else text}</td>'

    rows = "".join(
        f'<tr><td class="play">{escape(str(c["notation"]))}</td><td class="num">{c["score"]}</td>'
        + (cell(c.get("equity"), f"{c.get('equity') or 0:.1f}") if equities else "")
        + (cell(c.get("sim_value"), f"{c.get('sim_value') or 0:+.1f}") if sims else "")
        + (cell(c.get("sim_ahead"), f"{100 * (c.get('sim_ahead') or 0):.0f}%") if ahead else "")
        + "</tr>"
        for c in candidates
    )
    head = (
        "<th>move</th><th>score</th>"
        + ("<th>equity</th>" if equities else "")
        + ("<th>simulated</th>" if sims else "")
        + ('<th title="the share of playouts won">ahead</th>' if ahead else "")
    )
    notes = [text for text in (str(thought.get("note") or ""), ahead_explained(thought)) if text]
    bag = thought.get("bag")
    return (
        f'<details class="thinking" open><summary>{escape(heading)} ({escape(str(thought.get("strategy", "")))}, '
        f"rack {escape(str(thought.get('rack', '')))}{'' if bag is None else f', {bag} in the bag'})</summary>"
        f'<div class="wide"><table class="weighed"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>'
        + "".join(f'<p class="note">{escape(text)}</p>' for text in notes)
        + "</details>"
    )


__all__ = ["WINS_BELOW", "ahead_explained", "weighed_html"]
