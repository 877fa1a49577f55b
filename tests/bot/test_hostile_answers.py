"""WordfeudClient against hostile answers (``responses``): redirects, 4xx, Retry-After, JSON, cookies,
foreign exceptions, URLs and secrets; every one comes out as a typed ApiError that names no secret."""

from __future__ import annotations

import functools
import logging
import math
import re
import threading
from collections.abc import Callable
from http.cookies import CookieError

import pytest
import requests
import responses

from bot.api.client import WordfeudClient
from bot.errors import (
    ApiError,
    AuthError,
    ConfigError,
    HttpStatusError,
    OutcomeUnknownError,
    ProtocolError,
    RedirectError,
    TransportError,
)
from tests.bot.helpers import BASE, CREDS, SESSION, Sleeps, err, ok, paths, placed


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
@responses.activate
def test_redirects_are_final_errors_naming_the_location(client: WordfeudClient, sleeps: Sleeps, status: int) -> None:
    elsewhere = "https://elsewhere.example.net/wf/user/status/"
    responses.post(BASE + "user/status/", status=status, headers={"Location": elsewhere})
    responses.post(elsewhere, json=ok({}))
    with pytest.raises(RedirectError, match=re.escape(elsewhere)) as exc:
        client.status()
    assert exc.value.status == status and "user/status/" in str(exc.value) and "api.base_url" in str(exc.value)
    assert paths() == ["user/status/"] and sleeps == []
    responses.post(BASE + "game/9/pass/", status=status, headers={"Location": elsewhere})
    with pytest.raises(RedirectError):
        client.pass_turn(9)


@responses.activate
def test_a_redirect_location_is_shown_without_user_info_or_secrets(client: WordfeudClient) -> None:
    location = f"https://user:s3cretpass@elsewhere.example.net/?sid={SESSION}"
    responses.post(BASE + "user/status/", status=302, headers={"Location": location})
    with pytest.raises(RedirectError) as exc:
        client.status()
    assert "s3cretpass" not in str(exc.value) and SESSION not in str(exc.value)
    assert "elsewhere.example.net" in str(exc.value)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 405, 410, 418, 451])
@responses.activate
def test_client_errors_are_final_and_name_status_and_path(client: WordfeudClient, sleeps: Sleeps, status: int) -> None:
    responses.post(BASE + "user/status/", status=status)
    with pytest.raises(HttpStatusError) as exc:
        client.status()
    assert (exc.value.status, exc.value.path) == (status, "user/status/")
    assert str(exc.value) == f"user/status/: HTTP {status}"
    assert len(responses.calls) == 1 and sleeps == []
    responses.post(BASE + "game/9/move/", status=status)
    with pytest.raises(HttpStatusError) as write:
        client.move(9, placed([(7, 7, "A", False)], "A"))
    assert not isinstance(write.value, TransportError)  # not an unknown outcome: the server refused it


@pytest.mark.parametrize("status", [401, 403])
@responses.activate
def test_a_login_refused_by_http_status_is_an_auth_error(status: int) -> None:
    responses.post(BASE + "user/login/email/", status=status)
    with pytest.raises(AuthError, match=f"HTTP {status}") as exc:
        WordfeudClient(BASE, credentials=CREDS, sleep=lambda s: None).login()
    assert exc.value.endpoint == "user/login/email/"
    assert len(responses.calls) == 1


@responses.activate
def test_a_login_answered_404_is_not_an_auth_error() -> None:
    responses.post(BASE + "user/login/email/", status=404)
    with pytest.raises(HttpStatusError) as exc:
        WordfeudClient(BASE, credentials=CREDS, sleep=lambda s: None).login()
    assert not isinstance(exc.value, AuthError) and exc.value.status == 404


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("-5", None),
        ("nan", None),
        ("NaN", None),
        ("inf", None),
        ("-inf", None),
        ("1e999", None),
        ("0x10", None),
        ("", None),
        ("soon", None),
        ("2.5", 2.5),
        ("0", 0.0),
        ("99999999999", 30.0),
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),  # a date in the past: no wait
        ("Fri, 31 Dec 9999 23:59:59 GMT", 30.0),  # far off: the policy's longest wait
        ("Fri, 31 Dec 99999 23:59:59 GMT", None),
    ],
)
@responses.activate
def test_hostile_retry_after_never_reaches_sleep_unchecked(
    client: WordfeudClient, sleeps: Sleeps, header: str, expected: float | None
) -> None:
    responses.post(BASE + "user/status/", status=429, headers={"Retry-After": header})
    responses.post(BASE + "user/status/", json=ok({}))
    client.status()
    assert len(sleeps) == 1 and math.isfinite(sleeps[0]) and 0 <= sleeps[0] <= 30
    if expected is not None:
        assert sleeps[0] == expected


@pytest.mark.parametrize(
    ("body", "named"),
    [
        (b"[" * 100_000, "nested too deeply"),
        (b'{"status": "success", "content": {"games": [{"id": ' + b"9" * 5000 + b', "updated": 1}]}}', "5000 digits"),
        (b'{"status": "success", "content": {"x": "\xff"}}', "not JSON"),
        (b"\xef\xbb\xbf{}", "not JSON"),
    ],
)
@responses.activate
def test_hostile_json_is_a_transport_error(client: WordfeudClient, body: bytes, named: str) -> None:
    responses.post(BASE + "user/status/", body=body)
    with pytest.raises(TransportError, match=named):
        client.status()
    responses.post(BASE + "game/9/pass/", body=body)
    with pytest.raises(OutcomeUnknownError):
        client.pass_turn(9)


@pytest.mark.parametrize(
    "raised",
    [
        requests.exceptions.InvalidURL("bad"),
        requests.exceptions.InvalidHeader("bad header sessionid=" + SESSION),
        requests.exceptions.ChunkedEncodingError("cut"),
        requests.exceptions.ContentDecodingError("zip"),
        requests.exceptions.SSLError("cert"),
        RecursionError("deep"),
        OverflowError("big"),
        UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad"),
        ValueError("odd"),
        KeyError("k"),
        CookieError("cookie"),
        OSError("socket"),
    ],
    ids=type,
)
@responses.activate
def test_no_foreign_exception_escapes(client: WordfeudClient, sleeps: Sleeps, raised: Exception) -> None:
    responses.post(BASE + "user/status/", body=raised)
    with pytest.raises(TransportError) as exc:
        client.status()
    assert type(raised).__name__ in str(exc.value) and SESSION not in str(exc.value)
    assert exc.value.__cause__ is None and (exc.value.__context__ is None or exc.value.__suppress_context__)
    responses.post(BASE + "game/9/pass/", body=raised)
    with pytest.raises(OutcomeUnknownError):
        client.pass_turn(9)


def test_no_thread_for_the_exchange_is_a_transport_error(
    client: WordfeudClient, sleeps: Sleeps, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(thread: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    with pytest.raises(TransportError, match="could not be started"):
        client.status()
    assert len(sleeps) == 3  # retried like any transport failure
    with pytest.raises(OutcomeUnknownError):
        client.pass_turn(9)


@pytest.mark.parametrize(
    "cookie",
    [
        "sessionid=a b c; Path=/",
        'sessionid="abc; Path=/',
        "sessionid=; Path=/",
        "sessionid=\x7fabc",
        "sessionid=" + "a" * 600,
        "sessionid=abc\\def",
        "$Version=1; sessionid=abc",
        "sessionid",
        "=; ;;; ,,,",
    ],
)
@responses.activate
def test_a_hostile_session_cookie_is_not_taken(cookie: str) -> None:
    responses.post(BASE + "user/login/email/", json=ok({"id": 7, "username": "bot"}), headers={"Set-Cookie": cookie})
    client = WordfeudClient(BASE, credentials=CREDS)
    with pytest.raises(ProtocolError, match="no usable sessionid") as exc:
        client.login()
    value = cookie.partition("=")[2]
    assert client.session_id is None and (len(value) < 3 or value not in str(exc.value))


@responses.activate
def test_a_session_cookie_among_others_is_found() -> None:
    responses.post(
        BASE + "user/login/email/",
        json=ok({"id": 7, "username": "bot"}),
        headers=[
            ("Set-Cookie", "other=1, 2; Expires=Wed, 09 Jun 2100 10:18:14 GMT"),
            ("Set-Cookie", f'sessionid="{SESSION}"'),
        ],
    )
    client = WordfeudClient(BASE, credentials=CREDS)
    client.login()
    assert client.session_id == SESSION


@pytest.mark.parametrize(
    "url",
    [
        "http://evil.example.net\\@127.0.0.1/wf/",
        "http://user:s3cretpass@127.0.0.1/wf/",
        "https://user:s3cretpass@api.example.test/wf/",
        "https://api.example.test/wf/\r\nX: 1",
        "http://api.example.test/wf/",
    ],
)
def test_the_client_checks_its_base_url_itself(url: str) -> None:
    with pytest.raises(ConfigError, match=r"api\.base_url") as exc:
        WordfeudClient(url)
    assert "s3cretpass" not in str(exc.value)


@responses.activate
def test_secrets_never_reach_messages_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    """A server that echoes the session id and the password hash wherever it can."""
    caplog.set_level(logging.DEBUG)
    secret = CREDS.password_hash
    client = WordfeudClient(BASE, credentials=CREDS, session_id=SESSION, sleep=lambda s: None)
    echo = f"{SESSION} {secret}"
    responses.post(BASE + "user/status/", status=302, headers={"Location": f"https://x.example/{SESSION}/{secret}"})
    responses.post(BASE + "game/4/", json=err(echo, echo))  # an API error naming the secrets
    responses.post(BASE + "game/1/", json=ok({"game": {"id": 1, echo: 1}}))
    responses.post(BASE + "game/2/", status=503)
    responses.post(BASE + "game/3/", body=requests.exceptions.InvalidHeader(f"Cookie: sessionid={SESSION}"))
    messages = []
    calls: list[Callable[[], object]] = [client.status, *(functools.partial(client.game, n) for n in (4, 1, 2, 3))]
    for call in calls:
        with pytest.raises(ApiError) as exc:
            call()
        messages.append(str(exc.value))
    fresh = {"Set-Cookie": "sessionid=fresh-session-1111"}
    responses.post(BASE + "user/login/email/", json=ok({"id": 7, "username": echo}), headers=fresh)
    client.login()
    text = "\n".join(messages) + "\n" + caplog.text
    assert SESSION not in text and secret not in text and "fresh-session-1111" not in caplog.text
    assert "***" in text


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (b'{"id": 1, "updated": NaN}', "games[0] (id 1): field 'updated'"),
        (b'{"id": 1, "updated": Infinity}', "games[0] (id 1): field 'updated'"),
        (b'{"id": 1, "updated": -1e999}', "games[0] (id 1): field 'updated'"),
        (b'{"id": 123456789012345678901234, "updated": 1}', "games[0] (id 123456789012345678901234): field 'id'"),
        (b'{"id": 1, "updated": "\\ud800"}', "games[0] (id 1): field 'updated'"),
    ],
)
@responses.activate
def test_json_values_no_game_can_hold_cost_that_entry_only(client: WordfeudClient, entry: bytes, field: str) -> None:
    """NaN, infinities, integers beyond 64 bits and lone surrogates are refused by the models, naming
    the field: one bad entry is skipped, the good one next to it is kept."""
    body = b'{"status": "success", "content": {"games": [' + entry + b', {"id": 2, "updated": 5}]}}'
    responses.post(BASE + "user/status/", body=body)
    status = client.status()
    assert [game.id for game in status.games] == [2]
    assert len(status.skipped) == 1 and status.skipped[0].startswith(field), status.skipped


@responses.activate
def test_a_lone_surrogate_becomes_a_replacement_character(client: WordfeudClient) -> None:
    body = b'{"status": "success", "content": {"invites_received": [{"id": 5, "inviter": "ann\\udc80", "ruleset": 5}]}}'
    responses.post(BASE + "user/status/", body=body)
    [invite] = client.status().invites_received
    assert invite.inviter == "ann\ufffd"
    invite.inviter.encode("utf-8")  # it can be stored and logged
