"""Free text from the server is bounded at the seam, and a snapshot is kept only when
the game's content changed (not its ``updated`` stamp): a 1 MB username costs the state file 64
characters once, not a megabyte per poll; and a status full of broken entries costs a few log lines
once, not a line per entry every pass."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
import responses
from pydantic import ValidationError

from bot.api import models
from bot.api.client import WordfeudClient
from bot.api.models import CUT_MARK, EMAIL_LIMIT, ERROR_MESSAGE_LIMIT, ERROR_TYPE_LIMIT, NAME_LIMIT, Game, Status
from bot.errors import ApiStatusError
from bot.play.service import SKIPPED_LOGGED, Bot
from bot.play.turn import TurnPlayer
from bot.store.store import Store
from tests.bot.helpers import BASE, SESSION, err, game_json, ok
from tests.lexicons import english

HUGE = 1_000_000


@pytest.fixture(autouse=True)
def _fresh_cut_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sees the first cut of each field (the set of fields reported lives as long as the process)."""
    monkeypatch.setattr(models, "_reported", set())


def hostile_game(username: str, **changes: Any) -> dict[str, Any]:
    game = game_json(**changes)
    game["players"][1]["username"] = username
    return game


def test_a_huge_username_is_cut_to_the_limit_and_the_cut_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.api.models"):
        first = Game.model_validate(hostile_game("e" * HUGE))
        second = Game.model_validate(hostile_game("v" * HUGE, updated=2.0))
    for game in (first, second):
        name = game.opponent(7).username
        assert len(name) == NAME_LIMIT and name.endswith(CUT_MARK)
    assert first.opponent(7).username == "e" * (NAME_LIMIT - 1) + CUT_MARK
    warnings = [r.getMessage() for r in caplog.records if r.name == "bot.api.models"]
    assert warnings == [f"the server sent a username of {HUGE} characters; cut to {NAME_LIMIT} "
                        "(further ones are cut without a message)"]  # fmt: skip


def test_names_at_the_limit_are_kept_whole() -> None:
    name = "n" * NAME_LIMIT
    assert Game.model_validate(hostile_game(name)).opponent(7).username == name


def test_every_free_text_field_is_bounded() -> None:
    login = models.LoginUser.model_validate({"id": 1, "username": "u" * HUGE, "email": "e" * HUGE})
    assert len(login.username) == NAME_LIMIT and login.email is not None and len(login.email) == EMAIL_LIMIT
    status = Status.model_validate(
        {
            "invites_received": [
                {"id": 1, "inviter": "i" * HUGE, "invitee": "j" * HUGE, "ruleset": 5},
                {"id": 2, "inviter": "ok", "ruleset": 5, "board_type": "b" * HUGE},
            ],
            "random_requests": [{"id": 3, "board_type": "r" * HUGE}],
        }
    )
    [invite] = status.invites_received
    assert len(invite.inviter) == NAME_LIMIT and invite.invitee is not None and len(invite.invitee) == NAME_LIMIT
    assert status.random_requests == []  # a board type is compared, not shown: a huge one is refused, named
    assert [s.split(":")[0] for s in status.skipped] == ["invites_received[1] (id 2)", "random_requests[0] (id 3)"]
    assert all(len(s) < 200 for s in status.skipped)
    # a last move with a huge type or word is dropped (it is informational), the game is kept
    game = Game.model_validate(game_json(last_move={"move_type": "m" * HUGE, "user_id": 8}))
    assert game.last_move is None
    game = Game.model_validate(game_json(last_move={"move_type": "move", "main_word": "W" * HUGE}))
    assert game.last_move is None
    result = models.MoveResult.model_validate({"points": 5, "main_word": "W" * HUGE})
    assert len(result.main_word) == models.WORD_LIMIT
    with pytest.raises(ValidationError):
        models.MoveResult.model_validate({"points": 5, "new_tiles": ["A"] * 1000})


@responses.activate
def test_the_servers_error_texts_are_cut() -> None:
    client = WordfeudClient(BASE, session_id=SESSION, user_id=7, sleep=lambda s: None)
    responses.post(BASE + "game/5/", json=err("t" * HUGE, "m" * HUGE))
    with pytest.raises(ApiStatusError) as caught:
        client.game(5)
    assert len(caught.value.type) == ERROR_TYPE_LIMIT and len(caught.value.message) == ERROR_MESSAGE_LIMIT
    assert len(str(caught.value)) < ERROR_TYPE_LIMIT + ERROR_MESSAGE_LIMIT + 20


def snapshot_bytes(store: Store) -> int:
    return sum(len(row[0]) for row in store._db.execute("SELECT game FROM snapshots"))


def test_a_new_stamp_alone_stores_no_snapshot(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    for poll in range(100):
        store.record_game(Game.model_validate(hostile_game("e" * HUGE, updated=1000.0 + poll, chat_count=poll)), 7)
    assert len(store.snapshots(2226982257)) == 1
    assert snapshot_bytes(store) < 2_000  # the username is 64 characters in it, not a megabyte
    assert store.seen(2226982257) == (1099.0, True)  # the stamp itself is still followed
    store.close()


def test_a_move_count_keeps_its_first_and_its_latest_snapshot(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    for poll in range(50):  # a server that changes a score on every poll, the move count standing still
        game = game_json(updated=1000.0 + poll)
        game["players"][1]["score"] = poll
        store.record_game(Game.model_validate(game), 7)
    first, latest = store.snapshots(2226982257)
    assert first["players"][1]["score"] == 0  # what a replay shows of the move
    assert latest["players"][1]["score"] == 49 and latest["updated"] == 1049.0
    assert store.snapshot_at(2226982257, 3) == latest
    store.record_game(Game.model_validate(game_json(move_count=4, updated=2000.0)), 7)
    assert [s["move_count"] for s in store.snapshots(2226982257)] == [3, 3, 4]
    store.close()


def test_a_move_count_raised_forever_stops_at_the_snapshot_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("bot.store.store.MAX_SNAPSHOTS_PER_GAME", 20)
    store = Store(tmp_path / "s.db")
    with caplog.at_level(logging.WARNING, logger="bot.store.store"):
        for move in range(60):
            store.record_game(Game.model_validate(game_json(move_count=move, updated=float(move))), 7)
    assert len(store.snapshots(2226982257)) == 20
    assert [r.getMessage() for r in caplog.records if r.name == "bot.store.store"] == [
        "game 2226982257: 20 snapshots kept, the most for one game; later positions are not kept for replay"
    ]
    assert store.seen(2226982257) == (59.0, True)
    store.close()


def test_a_stored_snapshot_is_small_whatever_the_server_sends(tmp_path: Path) -> None:
    """The largest snapshot a game object can make: every field at its longest (a full board and a
    225-tile last move of 4-character tiles, 100-tile racks, the longest ids, counts and stamps, the
    longest integers the client parses, 4-byte characters in both names) is under 12,000 bytes."""
    tiles = [[14, 14, "QUXY", True] for _ in range(225)]
    longest, huge = 2**63 - 1, -(10**39)
    last = {"move_type": "m" * 32, "user_id": longest, "move": tiles, "main_word": "W" * 64,
            "points": -(2**31) + 1, "tile_count": 2**31 - 1}  # fmt: skip
    counts = {"move_count": 2**31 - 1, "bag_count": 2**31 - 1, "pass_count": 2**31 - 1}
    stamps = {"created": -1.2345678901234567e-300, "updated": -1.2345678901234567e-300}
    extra = {"end_game": huge, "chat_count": huge, "read_chat_count": huge}
    game = game_json(tiles=tiles, id=longest, board=longest, last_move=last, **counts, **stamps, **extra)
    for seat, player in enumerate(game["players"]):
        player.update(username="\U0001f600" * HUGE, id=longest - seat, score=-(2**31) + 1, rack=["QUXY"] * 100)
    store = Store(tmp_path / "s.db")
    store.record_game(Game.model_validate(json.loads(json.dumps(game))), longest - 1)
    [kept] = store.snapshots(longest)
    assert kept["last_move"]["main_word"] == "W" * 64 and len(kept["tiles"]) == 225  # nothing was dropped
    assert 11_000 < snapshot_bytes(store) < 12_000
    store.close()


@pytest.mark.logs_errors("the malformed status entries are logged, ten by name and the rest counted, once")
def test_a_status_full_of_malformed_entries_is_logged_in_a_few_lines_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = WordfeudClient(BASE, session_id=SESSION, user_id=7, sleep=lambda s: None)
    bot = Bot(client, Store(":memory:"), TurnPlayer(client, Store(":memory:"), lambda ruleset: english()))
    broken = [{"id": 1000 + i, "updated": "soon"} for i in range(500)]
    with responses.RequestsMock() as mock, caplog.at_level(logging.ERROR, logger="bot.play.service"):
        mock.post(BASE + "user/status/", json=ok({"games": broken}))
        reports = [bot.run_pass() for _ in range(3)]
    assert [len(report.errors) for report in reports] == [500, 500, 500]  # every pass reports them all
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.play.service"]
    assert len(lines) == SKIPPED_LOGGED + 1  # logged in the first pass only
    assert lines[0].startswith("user/status/: skipped games[0] (id 1000): field 'updated'")
    assert lines[-1] == f"user/status/: skipped {500 - SKIPPED_LOGGED} more malformed entries (not listed here)"
