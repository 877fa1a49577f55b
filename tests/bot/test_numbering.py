"""One numbering of moves everywhere, the game's: move N is the game's N-th move, both players' moves
counted from 1. The log, the status page, the replay (text and HTML) and ``hint --move`` agree."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bot.records.history import position_before_move, record
from bot.store.store import DecisionStatus
from bot.views.replay_html import label, replay_html
from bot.views.status_page import snapshot
from cli.main import main
from tests.bot.conftest import Sandbox


def test_the_log_the_status_page_the_replay_and_hint_number_a_move_alike(
    sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    sgame = sandbox.game()  # the bot moves first: its moves are the game's 1st and 3rd
    wiring = sandbox.wire(tmp_path / "state.db")
    with caplog.at_level(logging.INFO, logger="bot"):
        wiring.bot.turns.play(sgame.id)
        wiring.bot.turns.play(sgame.id)
    found = (re.search(r"\(ruleset \d+, move (\d+),", r.getMessage()) for r in caplog.records)
    logged = [int(m.group(1)) for m in found if m]
    assert logged == [1, 3]
    store = wiring.store
    page = sorted(d["move"] for d in snapshot(store, {})["decisions"])
    assert page == [1, 3]
    frames = record(store, sgame.id).frames
    assert [f.moves for f in frames if f.actor == "bot"] == [1, 3]
    assert [f.moves for f in frames if f.actor == "house"] == [2]
    decisions = store.decisions(sgame.id, DecisionStatus.APPLIED)
    for number, decision in zip((1, 3), decisions, strict=True):
        position = position_before_move(store, sgame.id, number)  # hint --move N
        assert position.move_count == decision.move_count == number - 1
    with pytest.raises(LookupError, match="recorded moves of the bot: 1, 3"):
        position_before_move(store, sgame.id, 2)  # the house's move
    html = replay_html(record(store, sgame.id), "equity")
    assert 'data-moves="3" data-label="move 3 of 3"' in html
    assert "opens the board after move N" in html
    store.close()


def test_the_replay_counter_names_moves_not_positions(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    wiring = sandbox.wire(tmp_path / "state.db")
    wiring.bot.turns.play(sgame.id)
    wiring.bot.turns.play(sgame.id)
    frames = record(wiring.store, sgame.id).frames
    wiring.store.close()
    assert [label(f, 3) for f in frames] == ["start, 3 moves", "move 1 of 3", "move 2 of 3", "move 3 of 3"]


def test_hint_moves_help_says_the_games_move_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["hint", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "the bot's N-th move" not in text and "12th" not in text
    assert "the game's move N, which the bot made" in text
