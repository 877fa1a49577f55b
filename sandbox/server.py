"""The sandbox's HTTP server (standard library) on 127.0.0.1: ``/wf/...`` answered by ``sandbox.api``.

Hostile clients get the error envelope, never a traceback or silence: a request must arrive in
whole (request line, headers, body) within ``read_timeout`` seconds (``bot.api.request_deadline``, as the
status page's server), bodies over ``MAX_BODY`` or
without a plain ``Content-Length`` are refused, and a bug in the sandbox still gets an answer
(``internal_error``) and one log line.
"""

from __future__ import annotations

import io
import logging
import re
import sys
import threading
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType

from bot.api.request_deadline import DeadlineReader, LateRequestError
from sandbox.api import Answer, error, handle
from sandbox.faults import Faults
from sandbox.state import SESSION_SECONDS, State
from sandbox.store import Store

log = logging.getLogger(__name__)

#: Bodies larger than this are refused with an error envelope, unread.
MAX_BODY = 64 * 1024
#: Seconds a request has to arrive in whole, and an idle connection is kept open (default).
READ_TIMEOUT = 5.0
_STATUS_FAULTS = {"http_500": 500, "http_502": 502, "http_503": 503}
_LENGTH = re.compile(r"[0-9]{1,9}")


class _Handler(BaseHTTPRequestHandler):
    server: SandboxServer
    protocol_version = "HTTP/1.1"
    # An answer goes out as two writes (headers, body); with Nagle's algorithm the body waits for the
    # client's delayed ACK of the headers: about 40 ms per request on Linux (a 10-game fault run 27.5 s
    # with it, 6.0 s without).
    disable_nagle_algorithm = True

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # replaced by a reader with a deadline
        self._reader = DeadlineReader(self.connection, self.server.read_timeout)
        self.rfile = io.BufferedReader(self._reader)
        self._answered = False

    def handle_one_request(self) -> None:
        """One request under the read deadline: a started request that stalls is answered
        ``bad_request``; an idle connection is closed quietly."""
        self._reader.start()
        self._answered = False
        try:
            super().handle_one_request()
        except LateRequestError as exc:
            self.close_connection = True
            if self._reader.received and not self._answered:
                self.request_version = self.protocol_version
                self._send(error("bad_request", f"{exc} ({self._reader.received} bytes came)"))

    def do_GET(self) -> None:
        self._respond("GET")

    def do_POST(self) -> None:
        self._respond("POST")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """What ``http.server`` refuses itself (a garbled request line, oversized headers, an
        unknown method) gets the envelope too, then the connection closes."""
        kind = "method_not_allowed" if code == HTTPStatus.NOT_IMPLEMENTED else "bad_request"
        self.close_connection = True
        self.request_version = self.protocol_version  # a status line even if the version was unreadable
        self._send(error(kind, message or HTTPStatus(code).phrase))

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: tests and the demo print what matters themselves."""

    def _respond(self, method: str) -> None:
        """Answer one request; a bug in the sandbox still gets an answer and one log line."""
        try:
            self._answer(method)
        except (LateRequestError, ConnectionError, TimeoutError):
            raise  # the client's doing: handled by handle_one_request and handle_error
        except Exception as exc:
            self.close_connection = True
            text = " ".join(str(exc).split())[:200]
            log.error("sandbox bug answering %s %s: %s: %s", method, self.path[:200], type(exc).__name__, text)
            if not self._answered:
                self._send(error("internal_error", f"{type(exc).__name__}: {text}"))

    def _answer(self, method: str) -> None:
        if "Transfer-Encoding" in self.headers:
            self.close_connection = True
            self._send(error("bad_request", "Transfer-Encoding is not supported; send the body with Content-Length"))
            return
        length_text = self.headers.get("Content-Length", "0").strip()
        if not _LENGTH.fullmatch(length_text) or int(length_text) > MAX_BODY:
            self.close_connection = True
            self._send(error("bad_request", f"body length {length_text!r} is not between 0 and {MAX_BODY} bytes"))
            return
        body = self._body(int(length_text))
        if body is None:
            return
        fault = self.server.faults.next()
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
        self._send(answer)

    def _body(self, length: int) -> bytes | None:
        """The body, or None when it was cut short or late (answered ``bad_request``, connection closed)."""
        chunks: list[bytes] = []
        got = 0
        try:
            while got < length:
                chunk = self.rfile.read1(length - got)
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
        except LateRequestError:
            self.close_connection = True
            seconds = self.server.read_timeout
            self._send(error("bad_request", f"the body did not arrive: {got} of {length} bytes in {seconds:g} s"))
            return None
        if got < length:
            self.close_connection = True
            self._send(error("bad_request", f"the body ended after {got} of {length} bytes"))
            return None
        return b"".join(chunks)

    def _send(self, answer: Answer) -> None:
        data = answer.body()
        self._answered = True
        self.connection.settimeout(self.server.read_timeout)  # a client that does not read is let go too
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "private,no-cache,no-store,no-transform")
        if answer.session is not None:
            self.send_header("Set-Cookie", f"sessionid={answer.session}; httponly; Max-Age={SESSION_SECONDS}; Path=/")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def _plain(self, status: int, data: bytes) -> None:
        self._answered = True
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
        read_timeout: float = READ_TIMEOUT,
    ) -> None:
        super().__init__((host, port), _Handler)
        self.state = state
        self.faults = faults or Faults()
        self.store = store  # SQLite: the state is saved after every POST
        self.lock = threading.Lock()  # one request at a time changes the state
        #: Seconds a request has to arrive in whole; also how long an idle connection stays open.
        self.read_timeout = read_timeout
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
