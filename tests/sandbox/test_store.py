"""SQLite state: games, sessions, invites and notifications survive a sandbox restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.server import SandboxServer
from sandbox.state import State
from sandbox.store import Store, submission_report
from tests.lexicons import english
from tests.sandbox.helpers import FakeClock, login, post, wire_move


def test_state_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    clock = FakeClock()
    state = State(lambda _: english(), clock, seed=5)
    alice_user = state.add_user("alice", "alice@example.org", "a")
    bob_user = state.add_user("bob", "bob@example.org", "b")
    house = state.add_user("house", "house@example.org", "h")
    state.house.add(house.id)
    store = Store(db)
    with SandboxServer(state, store=store) as server:
        alice = login(server, "alice@example.org", "a")
        bob = login(server, "bob@example.org", "b")
        post(alice, server, "random_request/create/", {"ruleset": 5, "board_type": "random"})
        game_id = post(alice, server, "user/games/")["content"]["games"][0]["id"]
        sgame = server.state.games[game_id]
        for _ in range(3):  # alice moves, the house answers, three times
            tiles, _points = wire_move(sgame)
            assert post(alice, server, f"game/{game_id}/move/", {"move": tiles})["status"] == "success"
        post(alice, server, f"game/{game_id}/chat/send/", {"message": "hi"})
        post(alice, server, "invite/new/", {"invitee": "bob", "ruleset": 1, "board_type": "normal"})
        before = post(alice, server, f"game/{game_id}/")["content"]["game"]
        cookie = alice.cookies["sessionid"]
    store.close()

    again = State(lambda _: english(), clock, seed=99)
    store2 = Store(db)
    assert store2.load_into(again)
    with SandboxServer(again, store=store2) as server:
        alice.cookies.set("sessionid", cookie)  # the session survived too
        after = post(alice, server, f"game/{game_id}/")["content"]["game"]
        assert after == before
        game = again.games[game_id].game
        assert game.board == sgame.game.board and game.racks == sgame.game.racks and game.bag == sgame.game.bag
        assert (
            game.rules.layout
            == sgame.game.rules.layout
            != sgame.game.rules.with_layout(game.rules.layout).layout.standard()
        )
        assert post(alice, server, f"game/{game_id}/chat/")["content"]["messages"][0]["message"] == "hi"
        invites = post(bob, server, "user/status/")["content"]["invites_received"]
        assert [i["inviter"] for i in invites] == ["alice"]
        # play on: the rebuilt game accepts the next move and the house still answers
        tiles, _points = wire_move(again.games[game_id])
        assert post(alice, server, f"game/{game_id}/move/", {"move": tiles})["status"] == "success"
        assert again.games[game_id].game.current == 0
        new_user = again.add_user("carol", "carol@example.org", "c")
        assert new_user.id not in {alice_user.id, bob_user.id, house.id}
    store2.close()


def test_empty_file_loads_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "new.db")
    assert not store.load_into(State(lambda _: english(), FakeClock()))
    store.close()


def test_submissions_survive_a_restart(tmp_path: Path) -> None:
    """Duplicate submissions are still counted after the sandbox restarts (they were kept in memory only)."""
    db = tmp_path / "sandbox.db"
    state = State(lambda _: english(), FakeClock(), seed=5)
    alice_user = state.add_user("alice", "alice@example.org", "a")
    house = state.add_user("house", "house@example.org", "h")
    state.house.add(house.id)
    game = state.new_game(alice_user, house, 5)
    store = Store(db)
    store.save(state)
    with SandboxServer(state, store=store) as server:
        alice = login(server, "alice@example.org", "a")
        tiles, _points = wire_move(game)
        assert post(alice, server, f"game/{game.id}/move/", {"move": tiles})["status"] == "success"
        # the same move again: refused, the game unchanged, but a duplicate all the same
        assert post(alice, server, f"game/{game.id}/move/", {"move": tiles})["status"] == "error"
    store.close()
    before = list(state.submissions)
    assert len(before) == 2 and state.duplicate_submissions() == before[1:]

    again = State(lambda _: english(), FakeClock(), seed=99)
    store2 = Store(db)
    assert store2.load_into(again)
    assert again.submissions == before and again.duplicate_submissions() == before[1:]
    report = submission_report(db)
    assert (report.games, report.running, report.submissions) == (1, [game.id], 2)
    assert report.outcomes == {"success": 1, before[1].outcome: 1} and report.duplicates == before[1:]
    assert "duplicate submissions: 1" in report.lines()
    again.log_submission(game.id, alice_user.id, 2, "pass", {}, "success")  # saving goes on appending
    store2.save(again)
    store2.close()
    assert submission_report(db).submissions == 3


def test_a_new_state_replaces_the_submissions_of_the_file(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    old = State(lambda _: english(), FakeClock())
    old.log_submission(1, 2, 0, "pass", {}, "not_your_turn")
    store = Store(db)
    store.save(old)
    store.close()
    assert submission_report(db).submissions == 1
    store = Store(db)
    store.save(State(lambda _: english(), FakeClock()))  # not loaded: it replaces the file's state
    store.close()
    report = submission_report(db)
    assert (report.games, report.submissions, report.duplicates) == (0, 0, [])


def test_submission_report_names_a_bad_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no sandbox file"):
        submission_report(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()
    (tmp_path / "text.db").write_text("not a database\n" * 100, encoding="utf-8")
    with pytest.raises(ValueError, match=r"text\.db is not a sandbox file"):
        submission_report(tmp_path / "text.db")
    Store(tmp_path / "empty.db").close()
    with pytest.raises(ValueError, match=r"empty\.db holds no sandbox state"):
        submission_report(tmp_path / "empty.db")
