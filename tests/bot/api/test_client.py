"""WordfeudClient against a faked API (``responses``): every endpoint, error code, retry and re-login path."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import requests
import responses
from responses import matchers

from bot.api.client import USER_AGENT, RetryPolicy, WordfeudClient
from bot.api.credentials import Credentials, hash_password
from bot.api.models import Game
from bot.api.submission import Kind, Submission
from bot.errors import (
    ApiStatusError,
    AuthError,
    GameOverApiError,
    IllegalWordError,
    NotYourTurnError,
    OutcomeUnknownError,
    ProtocolError,
    RateLimitedError,
    TransportError,
)
from bot.store.store import Store
from tests.bot.helpers import BASE, CREDS, SESSION, Sleeps, err, game_json, ok, paths, placed


def login_answer(rsps: responses.RequestsMock, session: str = SESSION, path: str = "user/login/email/") -> None:
    rsps.post(
        BASE + path,
        json=ok({"id": 7, "username": "bot", "email": "bot@example.org", "cookies": False}),
        headers={"Set-Cookie": f"sessionid={session}; Domain=.wordfeud.com; httponly; Max-Age=1209600; Path=/"},
        match=[matchers.json_params_matcher({"email": "bot@example.org", "password": hash_password("hunter22")})],
    )


def test_password_hash_test_vector() -> None:
    assert hash_password("xxxxxx") == "a20678fa097887db966a0220601edf7550028daa"
    assert "a20678" not in repr(Credentials.from_password("email", "x@y.z", "xxxxxx"))


@responses.activate
def test_login_by_each_method_keeps_the_session_cookie() -> None:
    seen: list[tuple[str, int]] = []
    client = WordfeudClient(BASE, credentials=CREDS, on_session=lambda s, u: seen.append((s, u)))
    login_answer(responses.mock)
    user = client.login()
    assert (user.id, user.username, client.user_id, client.session_id) == (7, "bot", 7, SESSION)
    assert seen == [(SESSION, 7)]
    # username and id forms use their own paths and body keys
    hashed = hash_password("pw")
    for method, login, path, body in (
        ("username", "bot", "user/login/", {"username": "bot", "password": hashed}),
        ("id", "7", "user/login/id/", {"id": 7, "password": hashed}),
    ):
        responses.post(
            BASE + path,
            json=ok({"id": 7, "username": "bot"}),
            headers={"Set-Cookie": "sessionid=other; Path=/"},
            match=[matchers.json_params_matcher(body)],
        )
        other = WordfeudClient(BASE, credentials=Credentials.from_password(method, login, "pw"))
        other.login()
        assert other.session_id == "other"


@pytest.mark.parametrize("type_", ["wrong_password", "unknown_email", "wrong_email", "unknown_username"])
@responses.activate
def test_refused_login_is_an_auth_error(type_: str) -> None:
    responses.post(BASE + "user/login/email/", json=err(type_))
    with pytest.raises(AuthError) as exc:
        WordfeudClient(BASE, credentials=CREDS).login()
    assert exc.value.type == type_
    assert len(responses.calls) == 1  # never retried


@responses.activate
def test_login_without_cookie_is_a_protocol_error() -> None:
    responses.post(BASE + "user/login/email/", json=ok({"id": 7, "username": "bot"}))
    with pytest.raises(ProtocolError, match="sessionid"):
        WordfeudClient(BASE, credentials=CREDS).login()


@responses.activate
def test_reads_send_cookie_user_agent_and_parse(client: WordfeudClient, tmp_path: Path) -> None:
    responses.post(
        BASE + "user/status/",
        json=ok(
            {
                "games": [{"id": 2226982257, "updated": 1521776416, "chat_count": 3}],
                "invites_received": [{"id": 987654, "inviter": "someone", "ruleset": 4, "board_type": "random"}],
                "invites_sent": [],
                "random_requests": [{"id": 5, "board_type": 0, "ruleset": 5}],
            }
        ),
        match=[matchers.header_matcher({"Cookie": f"sessionid={SESSION}", "User-Agent": USER_AGENT})],
    )
    status = client.status()
    assert status.games[0].id == 2226982257 and status.games[0].updated == 1521776416.0
    assert status.invites_received[0].is_random_board and status.random_requests[0].id == 5

    assert Game.model_validate(game_json(tiles=None, bag_count=None)).tiles is None  # the list form of a game
    responses.post(BASE + "game/2226982257/", json=ok({"game": game_json()}))
    game = client.game(2226982257)
    assert game.tiles == [(7, 7, "H", False), (8, 7, "I", True)] and game.is_my_turn(7)
    assert game.me(7).rack == ["A", ""] and game.opponent(7).username == "them"

    grid = [[(x + y) % 5 for x in range(15)] for y in range(15)]
    responses.post(BASE + "board/1089/", json=ok({"board": grid}))
    assert client.board(1089) == grid
    store = Store(tmp_path / "state.db")  # the one board cache: the store, in front of the client
    assert store.board_grid(1089, client.board) == grid and store.board_grid(1089, client.board) == grid
    assert paths().count("board/1089/") == 2  # fetched once by hand, once for the store
    store.close()


@responses.activate
def test_writes_send_the_documented_bodies(client: WordfeudClient) -> None:
    def body(path: str, expected: dict[str, Any] | None, answer: dict[str, Any]) -> None:
        matcher = [matchers.json_params_matcher(expected)] if expected is not None else []
        responses.post(BASE + path, json=ok(answer), match=matcher)

    body(
        "game/9/move/",
        {"move": [[7, 7, "H", False], [8, 7, "I", True]], "ruleset": 5, "words": ["HI"]},
        {"main_word": "HI", "points": 4, "new_tiles": ["E", ""], "updated": 2.0, "is_running": True},
    )
    result = client.move(9, placed([(7, 7, "H", False), (8, 7, "I", True)], "HI"))
    assert (result.points, result.new_tiles) == (4, ["E", ""])
    body("game/9/swap/", {"tiles": ["A", ""]}, {"new_tiles": ["B", "C"], "updated": 3})
    assert client.swap(9, Submission(Kind.SWAP, "SWAP A?", letters=("A", ""))).new_tiles == ["B", "C"]
    body("game/9/pass/", {}, {"updated": 4})
    assert client.pass_turn(9) == {"updated": 4}
    body("invite/44/accept/", {}, {"id": 2226982258})
    assert client.accept_invite(44) == 2226982258
    body("invite/45/reject/", {}, {})
    client.reject_invite(45)
    body("random_request/create/", {"ruleset": 5, "board_type": "normal"}, {"request_status": "request_scheduled"})
    client.random_request(5)


@pytest.mark.parametrize(
    ("type_", "kind"),
    [
        ("illegal_word", IllegalWordError),
        ("not_your_turn", NotYourTurnError),
        ("game_over", GameOverApiError),
        ("illegal_tiles", ApiStatusError),
        ("something_new", ApiStatusError),
    ],
)
@responses.activate
def test_api_errors_become_precise_exceptions_and_are_not_retried(
    client: WordfeudClient, type_: str, kind: type[ApiStatusError]
) -> None:
    responses.post(BASE + "game/9/move/", json=err(type_, "ZZXQ"))
    with pytest.raises(kind) as exc:
        client.move(9, placed([(7, 7, "Z", False)], "Z"))
    assert type(exc.value) is kind and exc.value.type == type_ and exc.value.message == "ZZXQ"
    assert "game/9/move/" in str(exc.value)
    assert len(responses.calls) == 1


@pytest.mark.parametrize(
    "failure",
    [
        {"status": 500, "body": "<html>oops</html>"},
        {"status": 502, "body": ""},
        {"status": 503, "body": ""},
        {"status": 200, "body": "<html>Service temporarily unavailable</html>"},
        {"body": requests.ConnectionError("reset")},
        {"body": requests.Timeout("slow")},
    ],
)
@responses.activate
def test_reads_retry_transport_failures_with_backoff(client: WordfeudClient, sleeps: Sleeps, failure: Any) -> None:
    responses.post(BASE + "user/status/", **failure)
    responses.post(BASE + "user/status/", **failure)
    responses.post(BASE + "user/status/", json=ok({"games": []}))
    assert client.status().games == []
    assert len(responses.calls) == 3
    assert len(sleeps) == 2 and all(0 < s <= 30 for s in sleeps)


@responses.activate
def test_reads_give_up_after_the_attempt_limit(client: WordfeudClient, sleeps: Sleeps) -> None:
    responses.post(BASE + "user/status/", status=503)
    with pytest.raises(TransportError, match="HTTP 503"):
        client.status()
    assert len(responses.calls) == 4 and len(sleeps) == 3


@responses.activate
def test_reads_give_up_after_the_total_time(sleeps: Sleeps) -> None:
    client = WordfeudClient(BASE, session_id=SESSION, sleep=sleeps, retry=RetryPolicy(attempts=50, total_seconds=0))
    responses.post(BASE + "user/status/", status=503)
    with pytest.raises(TransportError):
        client.status()
    assert len(responses.calls) == 1


@responses.activate
def test_rate_limit_waits_as_asked(client: WordfeudClient, sleeps: Sleeps) -> None:
    responses.post(BASE + "user/status/", status=429, headers={"Retry-After": "7"})
    responses.post(BASE + "user/status/", json=ok({}))
    client.status()
    assert sleeps == [7.0]
    responses.post(BASE + "game/1/pass/", status=429)
    with pytest.raises(RateLimitedError):
        client.pass_turn(1)


@pytest.mark.parametrize(
    "failure",
    [
        {"status": 502, "body": ""},
        {"status": 200, "body": "not json"},
        {"body": requests.ConnectionError("dropped")},
        {"body": requests.Timeout("slow")},
    ],
)
@responses.activate
def test_writes_are_never_retried_blindly(client: WordfeudClient, sleeps: Sleeps, failure: Any) -> None:
    responses.post(BASE + "game/9/move/", **failure)
    with pytest.raises(OutcomeUnknownError, match="may or may not"):
        client.move(9, placed([(7, 7, "A", False)], "A"))
    assert len(responses.calls) == 1 and sleeps == []


@responses.activate
def test_login_required_logs_in_again_once_and_repeats_the_call(sleeps: Sleeps) -> None:
    client = WordfeudClient(BASE, credentials=CREDS, session_id="expired-session-0000", user_id=7, sleep=sleeps)
    responses.post(BASE + "game/9/pass/", json=err("login_required"))
    login_answer(responses.mock, session="fresh-session-1111")
    responses.post(
        BASE + "game/9/pass/",
        json=ok({"updated": 1}),
        match=[matchers.header_matcher({"Cookie": "sessionid=fresh-session-1111"})],
    )
    assert client.pass_turn(9) == {"updated": 1}
    assert paths() == [
        "game/9/pass/",
        "user/login/email/",
        "game/9/pass/",
    ]


@responses.activate
def test_login_required_twice_is_an_auth_error() -> None:
    client = WordfeudClient(BASE, credentials=CREDS, session_id="expired-session-0000", user_id=7)
    responses.post(BASE + "user/status/", json=err("login_required"))
    login_answer(responses.mock)
    with pytest.raises(AuthError, match="login_required"):
        client.status()
    assert len(responses.calls) == 3  # call, login, call: no endless loop


@responses.activate
def test_without_credentials_login_required_is_final(client: WordfeudClient) -> None:
    responses.post(BASE + "user/status/", json=err("login_required"))
    with pytest.raises(AuthError):
        client.status()


@responses.activate
def test_first_call_logs_in_when_there_is_no_session() -> None:
    client = WordfeudClient(BASE, credentials=CREDS)
    login_answer(responses.mock)
    responses.post(BASE + "user/status/", json=ok({}))
    client.status()
    assert paths() == ["user/login/email/", "user/status/"]


@pytest.mark.parametrize(
    ("path", "content", "call"),
    [
        ("game/9/", {"game": {"id": 9}}, lambda c: c.game(9)),
        ("game/9/", {}, lambda c: c.game(9)),
        ("board/3/", {"board": [[0] * 15] * 14}, lambda c: c.board(3)),
        ("board/3/", {"board": [[9] * 15] * 15}, lambda c: c.board(3)),
        ("invite/4/accept/", {}, lambda c: c.accept_invite(4)),
    ],
)
@responses.activate
def test_content_without_the_fields_we_use_is_a_protocol_error(path: str, content: Any, call: Any) -> None:
    client = WordfeudClient(BASE, session_id=SESSION, sleep=lambda s: None)
    responses.post(BASE + path, json=ok(content))
    with pytest.raises(ProtocolError, match=re.escape(path)):
        call(client)


@responses.activate
def test_non_envelope_json_is_a_protocol_error(client: WordfeudClient) -> None:
    responses.post(BASE + "user/status/", body=json.dumps([1, 2]))
    with pytest.raises(ProtocolError, match="envelope"):
        client.status()
