"""WordfeudClient against hostile servers on 127.0.0.1 (real sockets): redirects, drips, silence, floods."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from bot.api.client import RetryPolicy, WordfeudClient
from bot.api.credentials import Credentials
from bot.api.transport import MAX_ANSWER_BYTES
from bot.errors import ApiError, OutcomeUnknownError, RedirectError, TransportError
from tests.bot.helpers import placed
from tests.bot.hostile_server import Drip, Hold, HostileServer, NextRequest, Script, answer, redirect

CREDS = Credentials.from_password("email", "bot@example.org", "hunter22")
SESSION = "abcdefghij0123456789abcdefghij01"
TIMEOUT = 0.5
BOUND = 3 * TIMEOUT  # what one call may take at most against a server that stalls it


def ok(content: dict[str, Any]) -> bytes:
    return json.dumps({"status": "success", "content": content}).encode()


def client_for(base_url: str, **changes: Any) -> WordfeudClient:
    settings: dict[str, Any] = {
        "session_id": SESSION,
        "user_id": 7,
        "timeout": TIMEOUT,
        "retry": RetryPolicy(attempts=1),
        "sleep": lambda seconds: None,
    }
    settings.update(changes)
    return WordfeudClient(base_url, **settings)


def timed(call: Callable[[], object]) -> tuple[BaseException, float]:
    """The exception ``call`` raised and how long it took."""
    start = time.monotonic()
    with pytest.raises(ApiError) as exc:
        call()
    return exc.value, time.monotonic() - start


# -- redirects ------------------------------------------------------------------------------

LOGIN_GOOD = Script(
    [answer(200, ok({"id": 7, "username": "bot"}), {"Set-Cookie": f"sessionid={SESSION}; Path=/"})]
)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirected_login_is_refused_and_the_other_host_never_gets_the_password_hash(status: int) -> None:
    with HostileServer(LOGIN_GOOD) as elsewhere:
        target = elsewhere.base_url + "user/login/email/"
        with HostileServer(redirect(status, target)) as server:
            client = client_for(server.base_url, credentials=CREDS, session_id=None)
            error, _ = timed(client.login)
        assert isinstance(error, RedirectError) and error.status == status
        assert target in str(error) and "user/login/email/" in str(error)
        assert client.session_id is None
        assert len(server.received) == 1 and CREDS.password_hash in server.received[0].body.decode()
        assert elsewhere.connections == 0 and elsewhere.received == []
        assert CREDS.password_hash not in str(error)


def test_a_redirected_move_is_not_sent_elsewhere_nor_taken_as_unknown() -> None:
    played = Script([answer(200, ok({"main_word": "HI", "points": 4, "new_tiles": [], "updated": 2}))])
    with HostileServer(played) as elsewhere, HostileServer(redirect(307, elsewhere.base_url)) as server:
        client = client_for(server.base_url)
        error, _ = timed(lambda: client.move(9, placed([(7, 7, "H", False)], "H")))
    assert type(error) is RedirectError  # not OutcomeUnknownError: no answer was lost
    assert elsewhere.received == [] and elsewhere.connections == 0
    assert server.received[0].target == "/wf/game/9/move/"


# -- the deadline ---------------------------------------------------------------------------

BODY = ok({"games": []})
HEAD = answer(200, BODY)[: -len(BODY)]


@pytest.mark.parametrize(
    "steps",
    [
        pytest.param([Drip(HEAD + BODY, 0.05)], id="drips-from-the-status-line"),
        pytest.param([HEAD, Drip(BODY, 0.05)], id="drips-the-body"),
        pytest.param([HEAD, BODY[:5], Hold()], id="stops-mid-body"),
        pytest.param([Hold()], id="never-answers"),
    ],
)
def test_a_stalling_server_cannot_keep_a_read_past_the_deadline(steps: list[Any]) -> None:
    with HostileServer(Script(steps)) as server:
        error, elapsed = timed(client_for(server.base_url).status)
        assert isinstance(error, TransportError) and not isinstance(error, OutcomeUnknownError)
        assert f"no answer within {TIMEOUT:g} s" in str(error)
        assert elapsed < BOUND
        if not isinstance(steps[-1], Hold):
            assert server.hung_up.wait(5)  # the client's worker let go of the connection too


def test_a_dripped_answer_to_a_move_is_an_unknown_outcome_within_the_deadline() -> None:
    head = answer(200, b"x" * 200)[:-200]
    with HostileServer(Script([head, Drip(b"x" * 200, 0.05)])) as server:
        error, elapsed = timed(lambda: client_for(server.base_url).pass_turn(9))
        assert isinstance(error, OutcomeUnknownError) and "no answer within" in str(error)
        assert elapsed < BOUND
        assert server.hung_up.wait(5)


def test_a_kept_alive_connection_that_drips_the_second_answer_is_cut_off_too() -> None:
    first = answer(200, BODY, keep_alive=True)
    with HostileServer(Script([first, NextRequest(), Drip(HEAD + BODY, 0.05)])) as server:
        client = client_for(server.base_url)
        assert client.status().games == []
        error, elapsed = timed(client.status)
        assert isinstance(error, TransportError) and "no answer within" in str(error)
        assert elapsed < BOUND
        assert server.connections == 1 and len(server.received) == 2  # the same connection, reused
        assert server.hung_up.wait(5)


def test_the_deadline_covers_a_tls_handshake_that_drips() -> None:
    # a TLS record header announcing 16 KB, then its bytes one by one: the handshake never ends
    record = b"\x16\x03\x03\x40\x00" + b"\x02" * 400
    with HostileServer(Script([Drip(record, 0.02)], read_request=False)) as server:
        url = f"https://127.0.0.1:{server.port}/wf/"
        error, elapsed = timed(client_for(url).status)
        assert isinstance(error, TransportError) and "no answer within" in str(error)
        assert elapsed < BOUND
        assert server.hung_up.wait(5)


def test_retries_of_a_stalled_read_are_each_bounded() -> None:
    with HostileServer(Script([Hold()])) as server:
        client = client_for(server.base_url, retry=RetryPolicy(attempts=2))
        error, elapsed = timed(client.status)
    assert isinstance(error, TransportError) and server.connections == 2
    assert elapsed < 2 * BOUND


# -- floods ---------------------------------------------------------------------------------


def test_an_answer_announced_larger_than_the_cap_is_refused_without_reading_it() -> None:
    head = f"HTTP/1.1 200 OK\r\nContent-Length: {MAX_ANSWER_BYTES + 1}\r\n\r\n".encode()
    with HostileServer(Script([head, b"[" * 1000, Hold()])) as server:
        error, elapsed = timed(client_for(server.base_url).status)
    assert isinstance(error, TransportError) and f"larger than {MAX_ANSWER_BYTES} bytes" in str(error)
    assert elapsed < TIMEOUT  # refused at once, not left to the deadline


def test_an_answer_that_keeps_coming_is_cut_off_at_the_cap() -> None:
    flood = b" " * (MAX_ANSWER_BYTES + 200_000) + BODY
    with HostileServer(Script([answer(200, flood, length=False)])) as server:
        client = client_for(server.base_url, timeout=10.0)
        error, _ = timed(client.status)
    assert isinstance(error, TransportError) and "larger than" in str(error)


def test_an_answer_just_under_the_cap_is_read() -> None:
    body = b" " * (MAX_ANSWER_BYTES - len(BODY)) + BODY
    with HostileServer(Script([answer(200, body)])) as server:
        assert client_for(server.base_url, timeout=10.0).status().games == []


def test_a_deeply_nested_answer_from_the_wire_is_a_transport_error() -> None:
    with HostileServer(Script([answer(200, b"[" * 100_000)])) as server:
        error, _ = timed(client_for(server.base_url).status)
    assert type(error) is TransportError and "nested too deeply" in str(error)


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", id="bad-chunk-size"),
        pytest.param(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\n\r\nabcd", id="gzip"),
        pytest.param(b"HTTP/1.1 200 OK\r\nContent-Length: 12x\r\n\r\n{}", id="bad-length"),
        pytest.param(b"HTTP/1.1 200 OK\r\nContent-Length: " + b"9" * 5000 + b"\r\n\r\n{}", id="endless-length"),
        pytest.param(b"HTTP/1.1 2000 OK\r\n\r\n", id="bad-status"),
        pytest.param(b"garbage\r\n\r\n", id="not-http"),
        pytest.param(b"HTTP/1.1 200 OK\r\nX: " + b"a" * 70_000 + b"\r\n\r\n", id="huge-header"),
        pytest.param(b"HTTP/1.1 200 OK\r\n" + b"X: y\r\n" * 200 + b"\r\n", id="many-headers"),
        pytest.param(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{}", id="cut-short"),
    ],
)
def test_malformed_http_is_a_transport_error(raw: bytes) -> None:
    with HostileServer(Script([raw])) as server:
        error, _ = timed(client_for(server.base_url).status)
    assert type(error) is TransportError
