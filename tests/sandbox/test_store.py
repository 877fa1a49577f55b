"""SQLite state: games, sessions, invites and notifications survive a sandbox restart."""

from __future__ import annotations

from pathlib import Path

from sandbox.server import SandboxServer
from sandbox.state import State
from sandbox.store import Store
from tests.sandbox.test_http import FakeClock, english, login, post, wire_move


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
