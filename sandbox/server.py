"""The sandbox's HTTP server (standard library) on 127.0.0.1: ``/wf/...`` answered by ``sandbox.api``."""

from __future__ import annotations

import sys
import threading
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType

from sandbox.api import error, handle
from sandbox.faults import Faults
from sandbox.state import SESSION_SECONDS, State
from sandbox.store import Store

#: Bodies larger than this are refused with an error envelope, unread.
MAX_BODY = 64 * 1024
_STATUS_FAULTS = {"http_500": 500, "http_502": 502, "http_503": 503}


class _Handler(BaseHTTPRequestHandler):
    server: SandboxServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer("GET")

    def do_POST(self) -> None:
        self._answer("POST")

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: tests and the demo print what matters themselves."""

    def _answer(self, method: str) -> None:
        length_text = self.headers.get("Content-Length", "0")
        try:
            length = int(length_text)
        except ValueError:
            length = -1
        fault = self.server.faults.next()
        if length < 0 or length > MAX_BODY:
            answer = error("bad_request", f"body length {length_text!r} is not between 0 and {MAX_BODY} bytes")
            self.close_connection = True
        else:
            body = self.rfile.read(length) if length else b""
            if fault in _STATUS_FAULTS:
                self._plain(_STATUS_FAULTS[fault], b"<html><body>server error</body></html>")
                return
            if fault == "drop":
                self.close_connection = True
                return
            if fault == "slow":
                self.server.faults.wait_slow()
            with self.server.lock:
                if fault == "expire":
                    self.server.state.expire_sessions()
                answer = handle(self.server.state, method, self.path, body, self._session())
                if self.server.store is not None and method == "POST":
                    self.server.store.save(self.server.state)
            if fault == "apply_then_fail":
                self.close_connection = True
                return
            if fault == "non_json":
                self._plain(200, b"<html><body>Service temporarily unavailable</body></html>")
                return
        data = answer.body()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "private,no-cache,no-store,no-transform")
        if answer.session is not None:
            self.send_header("Set-Cookie", f"sessionid={answer.session}; httponly; Max-Age={SESSION_SECONDS}; Path=/")
        self.end_headers()
        self.wfile.write(data)

    def _plain(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _session(self) -> str | None:
        raw = self.headers.get("Cookie")
        if not raw:
            return None
        try:
            cookie = SimpleCookie(raw)
        except CookieError:
            return None
        morsel = cookie.get("sessionid")
        return morsel.value if morsel else None


class SandboxServer(ThreadingHTTPServer):
    """A running sandbox; ``with SandboxServer(state) as server:`` serves on a free port in a thread."""

    daemon_threads = True

    def __init__(
        self,
        state: State,
        host: str = "127.0.0.1",
        port: int = 0,
        faults: Faults | None = None,
        store: Store | None = None,
    ) -> None:
        super().__init__((host, port), _Handler)
        self.state = state
        self.faults = faults or Faults()
        self.store = store  # SQLite: the state is saved after every POST
        self.lock = threading.Lock()  # one request at a time changes the state
        self._thread: threading.Thread | None = None

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that went away (timed out, hung up) is expected; anything else is printed."""
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/wf/``."""
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/wf/"

    def start(self) -> SandboxServer:
        """Serve in a background thread."""
        self._thread = threading.Thread(target=self.serve_forever, name="sandbox", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket (held slow answers are let go first)."""
        self.faults.release()
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> SandboxServer:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()
