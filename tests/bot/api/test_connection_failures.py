"""A failed connection says what happened: refused, a name that does not resolve, TLS, or no answer in time.

A refused connection used to read "no answer within 15 s" (urllib3 counts a refused connection as
a kind of connect timeout), sending the user to look at the network instead of the port. Every
case here is on 127.0.0.1 or with the resolver replaced: nothing leaves the machine.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from bot.api.client import RetryPolicy, WordfeudClient
from bot.api.credentials import Credentials
from bot.errors import TransportError
from bot.play.health import Health
from bot.play.service import Bot
from bot.play.turn import TurnPlayer
from bot.store.store import Store
from tests.bot.hostile_server import Hold, HostileServer, Script

CREDS = Credentials.from_password("email", "bot@example.org", "hunter22")
TIMEOUT = 0.5


def client_for(base_url: str) -> WordfeudClient:
    return WordfeudClient(
        base_url,
        credentials=CREDS,
        session_id="abcdefghij0123456789abcdefghij01",
        user_id=7,
        timeout=TIMEOUT,
        retry=RetryPolicy(attempts=1),
        sleep=lambda seconds: None,
    )


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses connections: bound (so nobody else takes it) but not listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def failure(client: WordfeudClient) -> str:
    with pytest.raises(TransportError) as error:
        client.status()
    return str(error.value)


def test_a_refused_connection_is_called_refused(closed_port: int) -> None:
    message = failure(client_for(f"http://127.0.0.1:{closed_port}/wf/"))
    assert message == f"user/status/: connection refused by 127.0.0.1:{closed_port} (nothing listens there)"


def test_a_name_that_does_not_resolve_is_called_a_dns_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []

    def no_such_name(host: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_name)  # the resolver, replaced: no DNS query is sent
    for variable in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(variable, raising=False)
    message = failure(client_for("https://wordfeud.example/wf/"))
    assert asked == ["wordfeud.example"]
    assert message == "user/status/: the server's name wordfeud.example could not be resolved (DNS lookup failed)"


def test_a_server_that_does_not_speak_tls_is_called_a_tls_failure() -> None:
    # a plain HTTP server answering the TLS client hello at once with plain text
    plain = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    with HostileServer(Script([plain], read_request=False)) as server:
        message = failure(client_for(f"https://127.0.0.1:{server.port}/wf/"))
    assert message.startswith(f"user/status/: TLS with 127.0.0.1:{server.port} failed (")
    assert "no answer" not in message and "refused" not in message


def test_a_silent_server_is_still_a_timeout() -> None:
    with HostileServer(Script([Hold()])) as server:
        message = failure(client_for(server.base_url))
    assert message == f"user/status/: no answer within {TIMEOUT:g} s"


@pytest.mark.logs_errors("the pass that cannot read the account logs one ERROR line: that line is under test")
def test_the_log_and_the_status_page_say_refused(closed_port: int, caplog: pytest.LogCaptureFixture) -> None:
    client = client_for(f"http://127.0.0.1:{closed_port}/wf/")
    store = Store(":memory:")
    bot = Bot(client, store, TurnPlayer(client, store, lambda ruleset: pytest.fail("no lexicon is needed")))
    health = Health(60)
    with caplog.at_level(logging.ERROR):
        report = bot.run_pass()
    health.passed(report)
    expected = f"connection refused by 127.0.0.1:{closed_port}"
    assert any(expected in record.getMessage() for record in caplog.records), caplog.text
    last_error = health.state()["last_error"]
    assert expected in last_error and "no answer" not in last_error
