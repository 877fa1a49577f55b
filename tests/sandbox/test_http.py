"""The sandbox over real HTTP on 127.0.0.1, driven with plain ``requests`` calls written from the API notes."""

from __future__ import annotations

import requests

from engine.board.rack import Rack
from engine.rules.layout import BoardLayout
from sandbox.server import MAX_BODY, SandboxServer
from tests.lexicons import EN
from tests.sandbox.helpers import FakeClock, api_hash, login, new_game, post, wire_move


def test_login_forms_and_errors(server: SandboxServer) -> None:
    session = requests.Session()
    ok = post(session, server, "user/login/", {"username": "alice", "password": api_hash("secret-a")})
    assert ok["status"] == "success" and ok["content"]["username"] == "alice"
    assert len(session.cookies["sessionid"]) == 32
    user_id = ok["content"]["id"]
    by_id = post(requests.Session(), server, "user/login/id/", {"id": user_id, "password": api_hash("secret-a")})
    assert by_id["content"]["id"] == user_id
    cases = [
        ("user/login/", {"username": "alice", "password": api_hash("wrong")}, "wrong_password"),
        ("user/login/", {"username": "nobody", "password": api_hash("x")}, "unknown_username"),
        ("user/login/email/", {"email": "no@example.org", "password": api_hash("x")}, "unknown_email"),
        ("user/login/email/", {"email": 5, "password": "x"}, "bad_request"),
    ]
    for path, body, kind in cases:
        data = post(requests.Session(), server, path, body)
        assert data == {"status": "error", "content": data["content"]} and data["content"]["type"] == kind


def test_session_required_and_expiry(server: SandboxServer, clock: FakeClock) -> None:
    anonymous = requests.Session()
    assert post(anonymous, server, "user/status/")["content"]["type"] == "login_required"
    session = login(server, "alice@example.org", "secret-a")
    assert post(session, server, "user/status/")["status"] == "success"
    clock.now += 14 * 24 * 3600 + 1
    assert post(session, server, "user/status/")["content"]["type"] == "login_required"
    session = login(server, "alice@example.org", "secret-a")
    server.state.expire_sessions()  # forced expiry
    assert post(session, server, "user/games/")["content"]["type"] == "login_required"


def test_reads_accept_get_and_post_with_or_without_slash(server: SandboxServer) -> None:
    game = new_game(server)
    session = login(server, "alice@example.org", "secret-a")
    for path in (f"game/{game.id}/", f"game/{game.id}"):
        got = session.get(server.base_url + path, timeout=10).json()
        posted = post(session, server, path)
        assert got == posted and got["status"] == "success"
    board = session.get(server.base_url + "board/0/", timeout=10).json()["content"]["board"]
    assert board == BoardLayout.standard().to_api_grid()


def test_game_forms(server: SandboxServer) -> None:
    game = new_game(server)
    alice = login(server, "alice@example.org", "secret-a")
    detail = post(alice, server, f"game/{game.id}/")["content"]["game"]
    assert detail["id"] == game.id > 2**31
    assert detail["bag_count"] == 90 and detail["pass_count"] == 0 and detail["tiles"] == []
    me, other = detail["players"]
    assert me["is_local"] and "rack" in me and len(me["rack"]) == 7
    assert not other["is_local"] and "rack" not in other
    assert all(isinstance(t, str) and len(t) <= 1 for t in me["rack"])
    listing = post(alice, server, "user/games/")["content"]["games"]
    assert [g["id"] for g in listing] == [game.id]
    assert not {"tiles", "bag_count", "pass_count"} & set(listing[0])
    status = post(alice, server, "user/status/")["content"]
    assert status["games"] == [{"id": game.id, "updated": game.updated, "chat_count": 0, "read_chat_count": 0}]


def test_move_swap_pass_resign(server: SandboxServer, clock: FakeClock) -> None:
    game = new_game(server)
    alice = login(server, "alice@example.org", "secret-a")
    bob = login(server, "bob@example.org", "secret-b")
    tiles, points = wire_move(game)
    assert (
        post(bob, server, f"game/{game.id}/move/", {"move": tiles, "ruleset": 5})["content"]["type"] == "not_your_turn"
    )
    clock.now += 60
    done = post(alice, server, f"game/{game.id}/move/", {"move": tiles, "ruleset": 5, "words": ["X"]})
    assert done["status"] == "success", done
    content = done["content"]
    assert content["points"] == points and content["is_running"] is True
    assert len(content["new_tiles"]) == len(tiles) and content["updated"] == clock.now
    detail = post(bob, server, f"game/{game.id}/")["content"]["game"]
    assert sorted(map(tuple, detail["tiles"])) == sorted(map(tuple, tiles))
    assert detail["last_move"]["move_type"] == "move" and detail["last_move"]["points"] == points
    assert detail["players"][0]["score"] == points and detail["current_player"] == 1
    rack = detail["players"][1]["rack"]
    swapped = post(bob, server, f"game/{game.id}/swap/", {"tiles": rack[:2]})["content"]
    assert len(swapped["new_tiles"]) == 2
    assert post(alice, server, f"game/{game.id}/pass/")["status"] == "success"
    assert post(bob, server, f"game/{game.id}/resign/")["status"] == "success"
    final = post(alice, server, f"game/{game.id}/")["content"]["game"]
    assert final["is_running"] is False and final["end_game"] == 2
    assert final["last_move"]["move_type"] == "resign"
    assert post(alice, server, f"game/{game.id}/pass/")["content"]["type"] == "game_over"


def test_illegal_moves(server: SandboxServer) -> None:
    game = new_game(server)
    g = game.game
    full = g.all_tiles()
    g.bag.extend(g.racks[0].bag_tiles())  # give the rack back, take a known one
    g.bag.remove(EN.alphabet.code("Q"))
    g.bag.remove(EN.alphabet.code("Z"))
    for letter in "AEIOT":
        g.bag.remove(EN.alphabet.code(letter))
    g.racks[0] = Rack.from_text("QZAEIOT", EN.alphabet)
    assert g.all_tiles() == full  # still the full set, just dealt differently
    alice = login(server, "alice@example.org", "secret-a")
    cases = [
        ([[7, 7, "Q", False], [8, 7, "Z", False]], "illegal_word", "QZ"),
        ([[0, 0, "Q", False], [1, 0, "I", False]], "illegal_tiles", "start square"),
        ([[7, 7, "Q", False], [7, 8, "I", False], [9, 9, "T", False]], "illegal_tiles", "not in one line"),
        ([[7, 7, "B", False], [8, 7, "E", False]], "illegal_tiles", "not in rack"),
        ([[7, 7, "Q", False], [7, 7, "Z", False]], "illegal_tiles", "two tiles on square 8H"),
        ([[7, 7, "1", False]], "illegal_tiles", "not a letter"),
        ([[17, 7, "A", False]], "illegal_tiles", "off the board"),
        ("nonsense", "illegal_tiles", "list of 1 to 7 tiles"),
    ]
    for move, kind, message in cases:
        data = post(alice, server, f"game/{game.id}/move/", {"move": move})
        assert data["content"]["type"] == kind, (move, data)
        assert message in data["content"].get("message", ""), (move, data)
    assert not len(g.board) and g.current == 0 and len(g.history) == 0  # nothing changed


def test_swap_needs_seven_tiles_in_the_bag(server: SandboxServer) -> None:
    game = new_game(server)
    alice = login(server, "alice@example.org", "secret-a")
    rack = post(alice, server, f"game/{game.id}/")["content"]["game"]["players"][0]["rack"]
    missing = next(s for s in EN.alphabet.symbols if s not in rack)
    assert post(alice, server, f"game/{game.id}/swap/", {"tiles": [missing]})["content"]["type"] == "illegal_tiles"
    del game.game.bag[6:]
    answer = post(alice, server, f"game/{game.id}/swap/", {"tiles": rack[:1]})
    assert answer["content"]["type"] == "not_enough_tiles"
    assert "6 left" in answer["content"]["message"]


def test_hostile_requests_get_error_envelopes(server: SandboxServer) -> None:
    game = new_game(server)
    alice = login(server, "alice@example.org", "secret-a")
    base = server.base_url
    raw = [
        alice.post(base + f"game/{game.id}/move/", data=b"{not json", timeout=10),
        alice.post(base + f"game/{game.id}/move/", data=b"\xff\xfe", timeout=10),
        alice.post(base + f"game/{game.id}/swap/", json={"tiles": "AB"}, timeout=10),
        alice.post(base + "game/999/", timeout=10),
        alice.post(base + "nosuch/endpoint/", timeout=10),
        alice.get(base + f"game/{game.id}/move/", timeout=10),
        alice.post(base + "user/login/", data=b"[1, 2]", timeout=10),
        alice.post(base + "user/status/", data=b"x" * (MAX_BODY + 1), timeout=10),
    ]
    kinds = [r.json()["content"]["type"] for r in raw]
    assert all(r.status_code == 200 and r.json()["status"] == "error" for r in raw)
    assert kinds == [
        "bad_request",
        "bad_request",
        "bad_request",
        "unknown_game",
        "unknown_endpoint",
        "method_not_allowed",
        "bad_request",
        "bad_request",
    ]
    carol = server.state.add_user("carol", "carol@example.org", "secret-c")
    assert carol.id not in game.players
    outsider = login(server, "carol@example.org", "secret-c")
    assert post(outsider, server, f"game/{game.id}/")["content"]["type"] == "access_denied"
    assert post(outsider, server, f"game/{game.id}/resign/")["content"]["type"] == "access_denied"
    assert not game.game.is_over and not len(game.game.board)
