"""The sandbox with a state file (``--db``): an id SQLite cannot hold is refused at the seam, and a row
that cannot be written is not retried, so one such request cannot make every later POST fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.api import MAX_ID
from sandbox.server import SandboxServer
from sandbox.state import State
from sandbox.store import Store, submission_report
from tests.lexicons import english
from tests.sandbox.helpers import FakeClock, login, post, wire_move


def test_a_19_digit_game_id_is_refused_and_later_posts_still_work(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    state = State(lambda _: english(), FakeClock(), seed=5)
    alice = state.add_user("alice", "alice@example.org", "a")
    house = state.add_user("house", "house@example.org", "h")
    state.house.add(house.id)
    game = state.new_game(alice, house, 5)
    store = Store(db)
    with SandboxServer(state, store=store) as server:
        session = login(server, "alice@example.org", "a")
        for path in ("game/9999999999999999999/move/", f"game/{MAX_ID + 1}/pass/", f"invite/{MAX_ID + 1}/accept/"):
            answer = post(session, server, path, {"move": []})
            assert answer == {
                "status": "error",
                "content": {"type": "bad_request", "message": answer["content"]["message"]},
            }
            assert "out of range" in answer["content"]["message"]
        assert post(session, server, f"game/{MAX_ID}/pass/")["content"]["type"] == "unknown_game"  # in range
        tiles, _points = wire_move(state.games[game.id])
        assert post(session, server, f"game/{game.id}/move/", {"move": tiles})["status"] == "success"
        assert post(session, server, "user/games/")["status"] == "success"
    store.close()
    report = submission_report(db)
    assert report.submissions == 2  # the in-range unknown game and the move; the refused ids never reached the game
    assert report.outcomes == {"unknown_game": 1, "success": 1}


@pytest.mark.logs_errors("the dropped row is logged as an error")
def test_a_row_sqlite_cannot_hold_is_dropped_once_and_later_saves_go_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "sandbox.db"
    state = State(lambda _: english(), FakeClock())
    store = Store(db)
    state.log_submission(10**19, 2, 0, "pass", {}, "unknown_game")  # as the unchecked seam let through
    state.log_submission(1, 2, 0, "pass", {}, "not_your_turn")
    store.save(state)  # before: OverflowError, here and at every later save
    assert "1 submission(s) with a number SQLite cannot hold" in caplog.text
    state.log_submission(1, 2, 1, "pass", {}, "success")
    store.save(state)
    store.close()
    assert submission_report(db).submissions == 2
    assert [s.game_id for s in state.submissions] == [1, 1]
