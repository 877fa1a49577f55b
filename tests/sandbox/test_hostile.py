"""Hostile clients: every bad input gets the error envelope, a stalled request cannot hold a worker,
and a bug in the sandbox still gets an answer (``internal_error``) and one log line."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg
from sandbox import api
from sandbox.api import handle
from sandbox.server import SandboxServer
from sandbox.state import Invite, State
from tests.lexicons import english
from tests.sandbox.helpers import FakeClock, login, post, wire_move

READ_TIMEOUT = 0.3


def english_only(ruleset_id: int) -> Dawg:
    """The lexicons of a sandbox that has only English: other rulesets raise, as the registry does."""
    if ruleset_id != 5:
        raise LexiconError(f"no lexicon for ruleset {ruleset_id}")
    return english()


def hostile_state() -> State:
    state = State(english_only, FakeClock(), seed=3)
    state.add_user("alice", "alice@example.org", "a")
    house = state.add_user("house", "house@example.org", "h")
    state.house.add(house.id)
    return state


@pytest.fixture
def server() -> Iterator[SandboxServer]:
    with SandboxServer(hostile_state()) as running:
        running.read_timeout = READ_TIMEOUT
        yield running


def connect(server: SandboxServer, timeout: float = 5.0) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=timeout)


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes; a socket timeout (set by the caller) fails the test."""
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def exchange(server: SandboxServer, data: bytes, wait: float = 5.0) -> bytes:
    """Send raw bytes on a fresh connection and read until the server closes it."""
    with connect(server, wait) as sock:
        sock.sendall(data)
        return read_until_closed(sock)


def envelope(raw: bytes) -> tuple[str, dict[str, Any]]:
    """The status line and the JSON envelope of a raw HTTP answer that closed the connection."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("iso-8859-1").split("\r\n")
    assert "connection: close" in [line.lower() for line in lines[1:]], lines
    data: dict[str, Any] = json.loads(body)
    return lines[0], data


def request(path: str, body: bytes, length: int | None = None, extra: str = "") -> bytes:
    size = len(body) if length is None else length
    return f"POST /wf/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {size}\r\n{extra}\r\n".encode() + body


# -- bodies ---------------------------------------------------------------------------------------


def test_deeply_nested_bodies_get_bad_request(server: SandboxServer) -> None:
    """60,000 ``[`` (under the 64 KiB limit) made ``json.loads`` raise RecursionError: no answer at all."""
    users = list(server.state.users.values())
    game = server.state.new_game(users[0], users[1], 5)
    alice = login(server, "alice@example.org", "a")
    deep = "the body nests arrays and objects more than 20 deep"
    bodies = [
        (b"[" * 60_000, deep),
        (b'{"a":' * 12_000, deep),
        (b'{"move": ' + b"[" * 30 + b"]" * 30 + b"}", deep),
        (b'{"tiles": ["' + b"[" * 60_000 + b'"]}', None),  # inside a string: no nesting, a bad letter
    ]
    for path in ("user/login/email/", f"game/{game.id}/move/", f"game/{game.id}/swap/", "user/status/"):
        for body, message in bodies:
            answer = alice.post(server.base_url + path, data=body, timeout=10)
            assert answer.status_code == 200
            content = answer.json()["content"]
            if message is not None:
                assert content == {"type": "bad_request", "message": message}, (path, body[:20])
            else:
                assert content.get("type") != "internal_error"
    assert not len(game.game.board) and game.game.history == []


def test_ruleset_without_a_lexicon_is_refused(server: SandboxServer) -> None:
    alice = login(server, "alice@example.org", "a")
    for path, body in (
        ("random_request/create/", {"ruleset": 3, "board_type": "normal"}),
        ("invite/new/", {"invitee": "house", "ruleset": 12, "board_type": "random"}),
    ):
        content = post(alice, server, path, body)["content"]
        assert content["type"] == "invalid_ruleset" and "no lexicon" in content["message"], content
    assert server.state.games == {}


def json_values() -> st.SearchStrategy[Any]:
    scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
        max_leaves=30,
    )


#: Values that get past the first checks of some endpoint, and values no endpoint expects.
MEANINGFUL: list[Any] = [*range(13), "normal", "random", "house", "alice", "A", "", [[7, 7, "", True]], ["A", ""]]
HOSTILE: list[Any] = [None, True, -1, 10**30, 1.5, float("nan"), "\ud800", "x" * 2000, [], {}, [[]], [[0] * 4]]
KEYS = ["username", "email", "id", "password", "move", "tiles", "invitee", "ruleset", "board_type", "message"]
ENDPOINTS = [
    "user/login/",
    "user/login/email/",
    "user/login/id/",
    "user/status/",
    "user/games/",
    "game/{game}/",
    "board/{board}/",
    "game/{game}/move/",
    "game/{game}/swap/",
    "game/{game}/pass/",
    "game/{game}/resign/",
    "game/{game}/chat/",
    "game/{game}/chat/send/",
    "invite/new/",
    "invite/{invite}/accept/",
    "invite/{invite}/reject/",
    "random_request/create/",
    "user/notifications/",
]


def hostile_setup() -> tuple[State, str, dict[str, Any], dict[str, object]]:
    """A state (alice, the house, bob; a game alice moves in, an invite from bob to alice), alice's
    session, a body every endpoint accepts, and the ids to put in the paths."""
    state = hostile_state()
    alice, house = state.users.values()
    bob = state.add_user("bob", "bob@example.org", "b")
    game = state.new_game(alice, house, 5, "random")
    invite = Invite(state.next_id("invite"), bob.id, alice.id, 5, "normal", 0.0)
    state.invites[invite.id] = invite
    tiles, _points = wire_move(game)
    valid = {
        "username": "alice",
        "email": "alice@example.org",
        "id": alice.id,
        "password": alice.password_hash,
        "move": tiles,
        "tiles": [game.game.rules.alphabet.symbol(t) for t in game.game.rack.letters()[:1]],
        "invitee": "bob",
        "ruleset": 5,
        "board_type": "normal",
        "message": "hi",
    }
    return state, state.open_session(alice), valid, {"game": game.id, "board": game.board_id, "invite": invite.id}


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_one_bad_field_never_raises(endpoint: str) -> None:
    """A body every endpoint accepts, with one field at a time set to each value above: the answer is an
    envelope, never an exception (which the server would answer ``internal_error``: that is for bugs)."""
    for key in [*KEYS, "missing"]:
        state, session, valid, ids = hostile_setup()
        path = "/wf/" + endpoint.format(**ids)
        for value in [*MEANINGFUL, *HOSTILE]:
            body = {**valid, key: value} if key != "missing" else valid
            answer = handle(state, "POST", path, json.dumps(body).encode(), session)
            assert answer.status in ("success", "error"), (endpoint, key, value)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    st.sampled_from(ENDPOINTS),
    st.fixed_dictionaries({}, optional={key: st.sampled_from(MEANINGFUL) | json_values() for key in KEYS})
    | json_values(),
    st.sampled_from(["GET", "POST"]),
)
def test_arbitrary_json_never_raises(endpoint: str, body: Any, method: str) -> None:
    """Whatever JSON reaches an endpoint, ``handle`` answers with an envelope."""
    state, session, _valid, ids = hostile_setup()
    answer = handle(state, method, "/wf/" + endpoint.format(**ids), json.dumps(body).encode(), session)
    assert answer.status in ("success", "error")


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (b"GARBAGE\r\n\r\n", "bad_request"),
        (b"GET /wf/user/status/ HTTP/7.1\r\n\r\n", "bad_request"),
        (b"PUT /wf/user/status/ HTTP/1.1\r\nHost: x\r\n\r\n", "method_not_allowed"),
        (b"GET /wf/user/status/ HTTP/1.1\r\nX-Long: " + b"x" * 70_000 + b"\r\n\r\n", "bad_request"),
        (b"GET /wf/user/status/ HTTP/1.1\r\n" + b"X-Many: 1\r\n" * 101 + b"\r\n", "bad_request"),
        (request("user/status/", b"{}", extra="Transfer-Encoding: chunked\r\n"), "bad_request"),
        (b"POST /wf/user/status/ HTTP/1.1\r\nContent-Length: 1_0\r\n\r\n0123456789", "bad_request"),
        (b"POST /wf/user/status/ HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "bad_request"),
    ],
)
def test_malformed_requests_get_the_envelope(server: SandboxServer, raw: bytes, kind: str) -> None:
    status, data = envelope(exchange(server, raw))
    assert status.startswith("HTTP/1.1 200"), status
    assert data["status"] == "error" and data["content"]["type"] == kind, data


def test_a_body_cut_short_is_refused(server: SandboxServer) -> None:
    with connect(server) as sock:
        sock.sendall(request("user/login/email/", b'{"email": "x"', length=40))
        sock.shutdown(socket.SHUT_WR)
        _, data = envelope(read_until_closed(sock))
    assert data["content"] == {"type": "bad_request", "message": "the body ended after 13 of 40 bytes"}


# -- the read timeout --------------------------------------------------------------------------


def test_a_body_that_never_arrives_is_answered_and_closed(server: SandboxServer) -> None:
    with connect(server) as sock:
        started = time.monotonic()
        sock.sendall(request("user/login/email/", b'{"email": ', length=100))  # and then nothing
        status, data = envelope(read_until_closed(sock))
        waited = time.monotonic() - started
    assert status.startswith("HTTP/1.1 200")
    assert data["content"]["type"] == "bad_request"
    assert data["content"]["message"] == "the body did not arrive: 10 of 100 bytes in 0.3 s"
    assert READ_TIMEOUT * 0.8 <= waited < 3


def test_headers_that_never_end_are_answered_and_closed(server: SandboxServer) -> None:
    with connect(server) as sock:
        sock.sendall(b"POST /wf/user/status/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        _, data = envelope(read_until_closed(sock))
    assert data["content"]["type"] == "bad_request"
    assert "did not arrive within 0.3 s" in data["content"]["message"]


def test_a_dripping_client_is_cut_off_at_the_deadline(server: SandboxServer) -> None:
    """One byte every 0.1 s: each read is quick, but the request as a whole is late."""
    sent = 0
    with connect(server) as sock:
        sock.sendall(request("user/status/", b"", length=50))
        raw = b""
        while not raw and sent < 50:
            sock.sendall(b" ")
            sent += 1
            sock.settimeout(0.1)
            try:
                raw = sock.recv(65536)
            except TimeoutError:
                continue
        sock.settimeout(5)
        raw += read_until_closed(sock)
    _, data = envelope(raw)
    assert data["content"]["type"] == "bad_request" and "did not arrive" in data["content"]["message"]
    assert sent < 20


def test_a_silent_client_is_let_go(server: SandboxServer) -> None:
    """A connection that sends nothing is closed after the read timeout, without an answer, and does
    not keep the server from stopping."""
    with connect(server) as sock:
        assert read_until_closed(sock) == b""
    idle = connect(server)
    try:
        stopper = threading.Thread(target=server.stop)
        stopper.start()
        stopper.join(timeout=5)
        assert not stopper.is_alive(), "the server waited for a client that sends nothing"
    finally:
        idle.close()


def test_keep_alive_still_works(server: SandboxServer) -> None:
    alice = login(server, "alice@example.org", "a")
    for _ in range(3):
        assert post(alice, server, "user/status/")["status"] == "success"


# -- bugs ------------------------------------------------------------------------------------------


@pytest.mark.logs_errors("the sandbox logs the bug the test plants in one ERROR line: the line is under test")
def test_a_bug_is_answered_with_internal_error_and_one_log_line(
    server: SandboxServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    alice = login(server, "alice@example.org", "a")

    def broken(*args: object) -> api.Answer:
        raise KeyError("boom\nsecond line")

    monkeypatch.setattr("sandbox.server.handle", broken)
    with caplog.at_level(logging.ERROR, logger="sandbox.server"):
        answer = alice.post(server.base_url + "user/status/", json={}, timeout=10)
    assert answer.status_code == 200
    assert answer.json() == {
        "status": "error",
        "content": {"type": "internal_error", "message": "KeyError: 'boom\\nsecond line'"},
    }
    records = [r for r in caplog.records if r.name == "sandbox.server"]
    assert len(records) == 1 and records[0].exc_info is None
    assert "\n" not in records[0].getMessage() and "KeyError" in records[0].getMessage()
    monkeypatch.undo()
    assert post(alice, server, "user/status/")["status"] == "success"  # and the server goes on


def test_a_client_that_hangs_up_is_no_bug(server: SandboxServer, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="sandbox.server"):
        with connect(server) as sock:
            sock.sendall(request("user/status/", b"{}"))
        assert requests.post(server.base_url + "user/status/", json={}, timeout=10).json()["status"] == "error"
    assert not [r for r in caplog.records if r.name == "sandbox.server"]
