"""The daemon's status page: an HTTP server on 127.0.0.1 (``[status] listen``) beside the polling.

It serves ``/`` (the page, which fetches ``/fragment`` every ``refresh_seconds`` and so updates after
every move), ``/status.json`` (the same facts for tools), ``/games/ID/replay.html`` and
``/games/ID/record.gcg`` (a recorded game's HTML replay and GCG record, made from the state file when
asked: the finished games link to them) and ``/healthz``: 200 while the last pass that
read the account's status ended within ``healthy_polls`` poll intervals (or the daemon started that
recently), 503 otherwise, for systemd, Docker and Kubernetes liveness checks.

Why the standard library (``http.server``): the page is a few small answers a minute to one person,
which a thread per request serves in about a millisecond (measured: README), and it needs no
dependency. The server runs in its own threads and reads the state file through its own SQLite
connection (WAL: readers never block the bot's writes), so a request never waits for a pass and a
pass never waits for a request. Every answer goes through the log redactor, so no secret the bot
knows (password, hash, session id) can leave through it; the login itself is never shown.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import json
import logging
import re
import threading
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from bot.errors import BotError
from bot.logs import Redactor
from bot.play.health import Health
from bot.records.gcg import GcgError, write_gcg
from bot.records.gcg_game import record_to_gcg
from bot.records.history import record
from bot.store.store import Store
from bot.views import replay_html as replay_page
from bot.views.page_server import (
    BUSY,
    BUSY_TEXT,
    HEALTH_TIMEOUT,
    CappedHTTPServer,
    LateRequestError,
    host_allowed,
)
from bot.views.status_page import CONTENT_SECURITY_POLICY, fragment, page, security_policy, snapshot
from engine.errors import EngineError

_GAME_ROUTE = re.compile(r"/games/(\d{1,19})/(replay\.html|record\.gcg)")
#: The replay's policy: the status page's, with the replay's own script (by hash) in place of the page's.
REPLAY_SECURITY_POLICY = security_policy(replay_page.SCRIPT_HASH)

log = logging.getLogger(__name__)


def is_loopback(host: str) -> bool:
    """Whether a listen host is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False



@dataclass(frozen=True)
class StatusSettings:
    """Where to listen, how often the page refreshes itself, and what a visitor can hold (see
    ``bot.views.page_server``): seconds a request has to arrive, connections served at once, seconds a
    request has in the slot kept for ``/healthz``, and the names the ``Host`` header may give besides the
    listen address and the loopback names."""

    host: str = "127.0.0.1"
    port: int = 8765
    refresh_seconds: float = 5.0
    read_timeout: float = 10.0
    max_connections: int = 16
    allowed_hosts: frozenset[str] = frozenset()
    health_timeout: float = HEALTH_TIMEOUT


class StatusServer:
    """The page's HTTP server, in threads of its own, reading ``store_path`` through its own connection."""

    def __init__(
        self, settings: StatusSettings, store_path: Path, health: Health, redactor: Redactor | None = None
    ) -> None:
        self.settings = settings
        self.health = health
        self.redactor = redactor or Redactor()
        self._store = Store(store_path)
        self._store_lock = threading.Lock()  # one request at a time uses the connection
        self._http = CappedHTTPServer(
            (settings.host, settings.port), _handler(self), settings.max_connections, settings.health_timeout
        )
        self._thread = threading.Thread(target=self._http.serve_forever, name="status-page", daemon=True)

    @property
    def url(self) -> str:
        """The page's address (the real port when 0 was asked for)."""
        host, port = self._http.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{port}/"

    def start(self) -> StatusServer:
        """Serve in the background."""
        self._thread.start()
        log.info("status page at %s", self.url)
        if not is_loopback(self.settings.host):
            log.warning("the status page listens on %s: other machines can read it", self.settings.host)
        return self

    def stop(self) -> None:
        """Stop serving, wait for the server thread, close the connection."""
        if self._thread.is_alive():
            self._http.shutdown()
            self._thread.join(10)
        self._http.server_close()
        with self._store_lock:
            self._store.close()

    def __enter__(self) -> StatusServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def facts(self) -> dict[str, Any]:
        """Everything the page shows, as data."""
        with self._store_lock:
            return snapshot(self._store, self.health.state())

    def answer(self, path: str) -> tuple[int, str, str]:
        """(status, content type, body) of a GET of ``path``."""
        route = path.split("?", 1)[0]
        if route == "/healthz":
            state = self.health.state()
            code = HTTPStatus.OK if state["healthy"] else HTTPStatus.SERVICE_UNAVAILABLE
            body = {"status": "ok" if state["healthy"] else "unhealthy", **state}
            return code, "application/json", json.dumps(body)
        if route == "/status.json":
            return HTTPStatus.OK, "application/json", json.dumps(self.facts(), default=str)
        if route == "/fragment":
            return HTTPStatus.OK, "text/html; charset=utf-8", fragment(self.facts())
        if route in ("/", "/index.html"):
            return HTTPStatus.OK, "text/html; charset=utf-8", page(self.facts(), self.settings.refresh_seconds)
        game = _GAME_ROUTE.fullmatch(route)
        if game:
            return self._recorded(int(game.group(1)), game.group(2))
        return HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", f"not found: {route}\n"

    def _recorded(self, game_id: int, kind: str) -> tuple[int, str, str]:
        """A recorded game's replay page (without "would play now": the server has no lexicon) or GCG
        record; 404 with the reason in one line when the state file cannot make it."""
        try:
            with self._store_lock:
                recorded = record(self._store, game_id)
            if kind == "record.gcg":
                return HTTPStatus.OK, "text/plain; charset=utf-8", write_gcg(record_to_gcg(recorded))
            return HTTPStatus.OK, "text/html; charset=utf-8", replay_page.replay_html(recorded, "")
        except (LookupError, GcgError, BotError, EngineError) as exc:
            return HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", f"game {game_id}: {exc}\n"

    @staticmethod
    def policy(path: str) -> str:
        """The Content-Security-Policy of the answer to ``path``: the replay's script runs on its page only."""
        return REPLAY_SECURITY_POLICY if path.split("?", 1)[0].endswith("/replay.html") else CONTENT_SECURITY_POLICY


def _handler(server: StatusServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        """GET and HEAD only; every answer scrubbed of secrets; requests logged at debug level."""

        server_version = "wordfeud-bot-status"
        sys_version = ""

        def setup(self) -> None:
            super().setup()
            self.health_only = server._http.in_health_slot  # the slot kept for /healthz: nothing else
            self.rfile.close()  # replaced by a reader under the read deadline
            self.rfile = io.BufferedReader(server._http.reader(self.connection, server.settings.read_timeout))

        def handle_one_request(self) -> None:
            try:
                super().handle_one_request()
            except (BrokenPipeError, ConnectionResetError) as exc:  # the visitor left before its answer
                log.debug("status page: a visitor left: %s", exc)
                self.close_connection = True
            except LateRequestError as exc:  # idle or dripping: the connection goes, unanswered
                log.debug("status page: closing a connection: %s", exc)
                self.close_connection = True
                if self.health_only:  # but told so in /healthz's slot, as a connection past the cap is
                    with contextlib.suppress(OSError):
                        self.wfile.write(BUSY)
            if self.health_only:
                self.close_connection = True  # one request: the slot is free for the next check

        def do_GET(self) -> None:
            self._reply(body=True)

        def do_HEAD(self) -> None:
            self._reply(body=False)

        def _reply(self, *, body: bool) -> None:
            settings = server.settings
            host = self.headers.get("Host")
            code: int
            if self.health_only and self.path.split("?", 1)[0] != "/healthz":
                code, kind, text = HTTPStatus.SERVICE_UNAVAILABLE, "text/plain; charset=utf-8", BUSY_TEXT
            elif not host:
                code, kind, text = HTTPStatus.BAD_REQUEST, "text/plain; charset=utf-8", "a Host header is needed\n"
            elif not host_allowed(host, settings.host, settings.allowed_hosts):
                code, kind = HTTPStatus.MISDIRECTED_REQUEST, "text/plain; charset=utf-8"
                text = "this page answers to its own address only (status.allowed_hosts adds names)\n"
            else:
                try:
                    code, kind, text = server.answer(self.path)
                except Exception:  # a broken page must not end the thread pool or the daemon
                    log.exception("status page: %s failed", self.path)
                    code, kind, text = HTTPStatus.INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8", "internal error\n"
            data = server.redactor.scrub(text).encode("utf-8")
            server._http.answering()
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Content-Security-Policy", server.policy(self.path))
            self.end_headers()
            if body:
                self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            log.debug("status page: " + format, *args)

    return Handler
