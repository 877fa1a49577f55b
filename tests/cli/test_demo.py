"""The demo's lines: after each of the bot's moves, its rack and the candidates it weighed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli.demo import WEIGHED_SHOWN, weighed_lines
from tests.bot.recorded import record_demo

BOT_MOVE = re.compile(r"^Move \d+: bot (played|swapped) (.+?)(?: for \d+ points)?   \(bot -?\d+\)$")
WEIGHED = re.compile(r"^  rack [A-Z?]{1,7}, \d+ in the bag; equity weighed:$")
CANDIDATE = re.compile(r"^    (\d)\. (.+?)  +\d+ points(, equity -?\d+\.\d)?$")


def test_every_bot_move_is_followed_by_its_rack_and_top_candidates(tmp_path: Path) -> None:
    lines = record_demo(tmp_path).lines
    moves = [index for index, line in enumerate(lines) if BOT_MOVE.match(line)]
    assert len(moves) > 10
    for index in moves:
        played = BOT_MOVE.match(lines[index])
        assert played is not None
        assert WEIGHED.match(lines[index + 1]), lines[index : index + 3]
        shown = [CANDIDATE.match(line) for line in lines[index + 2 : index + 2 + WEIGHED_SHOWN]]
        ranks = [match.group(1) for match in shown if match]
        assert ranks and ranks == [str(rank) for rank in range(1, len(ranks) + 1)], lines[index : index + 5]
        first = shown[0]
        assert first is not None and first.group(2) == played.group(2)  # the bot played its first candidate
    # mid-game moves show their equity; with the bag empty the end game ranks without one
    assert any(", equity " in line for line in lines)


def test_a_simulations_candidates_show_its_value_and_the_share_ahead_when_it_ranks_by_wins() -> None:
    facts = {
        "rack": "BEEILMS", "bag": 10, "strategy": "sim", "note": "",
        "candidates": [
            {"notation": "D12 M(IN)E", "score": 25, "equity": 30.2, "sim_value": 51.1, "sim_ahead": 0.16},
            {"notation": "3L BE", "score": 22, "equity": 26.0, "sim_value": 46.1, "sim_ahead": 0.13},
            {"notation": "3L ME", "score": 19, "equity": 24.2, "sim_value": 43.9, "sim_ahead": 0.13},
            {"notation": "D4 BESMILE", "score": 82, "equity": 82.0, "sim_value": 53.9, "sim_ahead": 0.12},
        ],
    }  # fmt: skip
    assert weighed_lines(facts) == [
        "  rack BEEILMS, 10 in the bag; sim weighed:",
        "    1. D12 M(IN)E   25 points, sim value 51.1, ahead 16%",
        "    2. 3L BE        22 points, sim value 46.1, ahead 13%",
        "    3. 3L ME        19 points, sim value 43.9, ahead 13%",
    ]
    early = {**facts, "bag": 40, "candidates": [{**facts["candidates"][0], "sim_ahead": None}]}  # type: ignore[index]
    assert weighed_lines(early)[1] == "    1. D12 M(IN)E   25 points, sim value 51.1"


@pytest.mark.parametrize("candidates", [[], [{"notation": "SWAP FTTV", "score": 0, "equity": -1.25}]])
def test_what_is_weighed_shows_whatever_figures_there_are(candidates: list[dict[str, object]]) -> None:
    lines = weighed_lines({"rack": "FFTTVVW", "bag": 86, "strategy": "equity", "candidates": candidates})
    assert lines[0] == "  rack FFTTVVW, 86 in the bag; equity weighed:"
    assert lines[1:] == ["    1. SWAP FTTV    0 points, equity -1.2"] * len(candidates)
