"""The status page's server against hostile visitors: idle and dripping connections are closed after the
read timeout, ``/healthz`` answers in a slot of its own while other connections hold every slot,
connections past the cap and that slot are answered 503 without a thread, a Host that is not the page's
own (DNS rebinding) is answered 421 and a missing one 400, and no script runs but the page's own (by hash)."""

from __future__ import annotations

import base64
import hashlib
import http.client
import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.errors import ConfigError
from bot.play.health import Health
from bot.settings.config import parse_config
from bot.views.page_server import host_allowed
from bot.views.status import StatusServer, StatusSettings


@contextmanager
def serving(tmp_path: Path, **limits: object) -> Iterator[StatusServer]:
    settings = StatusSettings("127.0.0.1", 0, 5.0, **limits)  # type: ignore[arg-type]
    with StatusServer(settings, tmp_path / "state.db", Health(interval=10)) as server:
        yield server


def address(server: StatusServer) -> tuple[str, int]:
    host, port = server.url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    return host, int(port)


def request(server: StatusServer, path: str = "/", host: str | None = None) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection(*address(server), timeout=10)
    connection.putrequest("GET", path, skip_host=True)
    if host is not None:
        connection.putheader("Host", host)
    connection.endheaders()
    answer = connection.getresponse()
    body = answer.read().decode("utf-8")
    connection.close()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, body


def closed_by_server(sock: socket.socket) -> bool:
    """Block (at most 10 s) until the server closes the connection: True when it did (EOF or reset)."""
    sock.settimeout(10)
    try:
        while data := sock.recv(4096):
            if data.startswith(b"HTTP/"):
                return False  # answered instead of closed
    except ConnectionResetError:
        return True
    return True


def test_idle_and_dripping_connections_are_closed_after_the_read_timeout(tmp_path: Path) -> None:
    with serving(tmp_path, read_timeout=0.3) as server:
        idle = [socket.create_connection(address(server)) for _ in range(5)]
        drip = socket.create_connection(address(server))
        drip.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the headers never end
        try:
            assert all(closed_by_server(sock) for sock in [*idle, drip])
        finally:
            for sock in [*idle, drip]:
                sock.close()
        assert request(server, host="127.0.0.1")[0] == 200  # the server still answers


def test_connections_past_the_cap_get_503_and_hold_no_thread(tmp_path: Path) -> None:
    with serving(tmp_path, read_timeout=30, max_connections=3, health_timeout=30) as server:
        before = threading.active_count()
        held = [socket.create_connection(address(server)) for _ in range(4)]  # the cap, and /healthz's slot
        held[3].sendall(b"GET /healthz HTTP/1.1\r\n")  # a request begun: not let go of for a new connection
        try:
            extra = []
            for _ in range(40):
                sock = socket.create_connection(address(server))
                sock.settimeout(10)
                extra.append(sock.recv(4096))
                sock.close()
            assert all(answer.startswith(b"HTTP/1.0 503 ") for answer in extra)
            assert threading.active_count() <= before + 4  # one thread per held connection, none for the rest
        finally:
            for sock in held:
                sock.close()


def test_healthz_answers_while_idle_connections_hold_every_slot(tmp_path: Path) -> None:
    with serving(tmp_path, read_timeout=30, max_connections=3) as server:
        held = [socket.create_connection(address(server)) for _ in range(5)]  # more than the slots, sending nothing
        try:
            checks = [request(server, "/healthz", "127.0.0.1") for _ in range(20)]
            assert [status for status, _headers, _body in checks] == [200] * 20
            assert all('"status": "ok"' in body for _status, _headers, body in checks)
            status, _headers, body = request(server, "/status.json", "127.0.0.1")  # the slot serves /healthz only
            assert (status, body) == (503, "too many connections, try again\n")
        finally:
            for sock in held:
                sock.close()


def test_the_healthz_slot_lets_a_silent_connection_go_after_its_timeout(tmp_path: Path) -> None:
    with serving(tmp_path, read_timeout=30, max_connections=1, health_timeout=0.2) as server:
        held = socket.create_connection(address(server))
        silent = socket.create_connection(address(server))  # in /healthz's slot, sending nothing
        try:
            silent.settimeout(10)
            answer = b""
            while data := silent.recv(4096):  # the server answers 503 and closes after 0.2 s, not 30
                answer += data
            assert answer.startswith(b"HTTP/1.0 503 ")
            assert request(server, "/healthz", "127.0.0.1")[0] == 200  # the slot is free again
        finally:
            held.close()
            silent.close()


@pytest.mark.parametrize(
    ("host", "code"),
    [
        ("evil.example.net", 421),
        ("evil.example.net:{port}", 421),
        ("127.0.0.1.evil.example.net", 421),
        (None, 400),
        ("127.0.0.1:{port}", 200),
        ("localhost:{port}", 200),
        ("LOCALHOST", 200),
        ("[::1]:{port}", 200),
        ("bot.example.org:8080", 200),  # on the allow-list (port ignored: a published port may differ)
    ],
)
def test_a_host_that_is_not_the_page_s_own_is_refused(tmp_path: Path, host: str | None, code: int) -> None:
    with serving(tmp_path, allowed_hosts=frozenset({"bot.example.org"})) as server:
        header = None if host is None else host.format(port=address(server)[1])
        status, _headers, body = request(server, "/status.json", header)
        assert status == code
        if code != 200:
            assert "games" not in body


def test_the_host_must_be_the_listen_address_unless_allowed() -> None:
    assert host_allowed("192.0.2.7:8765", "192.0.2.7", frozenset())
    assert not host_allowed("192.0.2.8:8765", "192.0.2.7", frozenset())
    assert not host_allowed("192.0.2.7", "0.0.0.0", frozenset())  # a wildcard listens: names must be listed
    assert host_allowed("192.0.2.7", "0.0.0.0", frozenset({"192.0.2.7"}))
    assert not host_allowed("", "127.0.0.1", frozenset())
    assert not host_allowed("[::1", "127.0.0.1", frozenset())


def test_the_csp_allows_the_page_s_own_script_by_hash_and_nothing_inline(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        status, headers, page = request(server, "/", "127.0.0.1")
    assert status == 200
    policy = headers["content-security-policy"]
    script_src = next(part.strip() for part in policy.split(";") if part.strip().startswith("script-src"))
    assert "unsafe-inline" not in script_src and "unsafe-eval" not in script_src
    (script,) = re.findall(r"<script>(.*?)</script>", page, re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    assert script_src == f"script-src 'sha256-{digest}'"  # the browser runs exactly this script


def test_the_limits_are_config_keys_checked_at_load() -> None:
    status = parse_config(
        {"status": {"read_timeout_seconds": 2, "max_connections": 4, "allowed_hosts": ["Bot.Example.org"]}}
    ).status
    assert (status.read_timeout_seconds, status.max_connections, status.allowed_hosts) == (2, 4, ("bot.example.org",))
    for bad in ({"max_connections": 0}, {"read_timeout_seconds": 0}, {"allowed_hosts": ["bot.example.org:80"]}):
        with pytest.raises(ConfigError, match="status"):
            parse_config({"status": bad})
