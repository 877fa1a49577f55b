"""A hostile HTTP server on 127.0.0.1 for transport tests: it plays scripted raw bytes and records what it got.

Each connection plays one ``Script``: raw byte steps sent at once, ``Drip`` steps sent a byte at a time
with a pause in between (the hostile behaviour under test, not a way to synchronise the test),
``Hold`` (say nothing until the server stops), ``NextRequest`` (read another request on the same
connection) and a final close. What every connection sent is
recorded, and ``hung_up`` is set when a client closes a connection while the script still had
something to say, so a test can see that the client let go.

>>> answer(200, b'{"a": 1}', {"X-Y": "z"})[:15]
b'HTTP/1.1 200 OK'
"""

from __future__ import annotations

import socket
import socketserver
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType

_REASONS = {200: "OK", 301: "Moved Permanently", 302: "Found", 307: "Temporary Redirect", 429: "Too Many Requests"}


@dataclass(frozen=True)
class Drip:
    """Send ``data`` one byte at a time, ``interval`` seconds apart."""

    data: bytes
    interval: float


@dataclass(frozen=True)
class Hold:
    """Send nothing more until the server stops (a server that never finishes its answer)."""


@dataclass(frozen=True)
class NextRequest:
    """Read (and record) the next request on this kept-alive connection."""


Step = bytes | Drip | Hold | NextRequest


@dataclass(frozen=True)
class Script:
    """What one connection gets. ``read_request=False`` starts sending at once, without waiting for
    a request (for clients that speak first in another protocol, such as a TLS handshake)."""

    steps: Sequence[Step]
    read_request: bool = True


@dataclass(frozen=True)
class Received:
    """One request as the server read it."""

    method: str
    target: str
    headers: Mapping[str, str]
    body: bytes


def answer(
    status: int,
    body: bytes = b"",
    headers: Mapping[str, str] | None = None,
    *,
    length: bool = True,
    keep_alive: bool = False,
) -> bytes:
    """A raw HTTP/1.1 answer that closes the connection (unless ``keep_alive``); ``length=False``
    leaves out Content-Length."""
    lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Whatever')}"]
    if not keep_alive:
        lines.append("Connection: close")
    if length:
        lines.append(f"Content-Length: {len(body)}")
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def redirect(status: int, location: str) -> Script:
    """A script that answers every request with a redirect to ``location``."""
    return Script([answer(status, b"", {"Location": location})])


@dataclass
class _Record:
    received: list[Received] = field(default_factory=list)
    connections: int = 0


class HostileServer(socketserver.ThreadingTCPServer):
    """Serves ``scripts`` in turn, one per connection (the last one again for any further connection).

    Use as a context manager; ``base_url`` is ``http://127.0.0.1:PORT/wf/``.
    """

    daemon_threads = True
    allow_reuse_address = True
    block_on_close = False

    def __init__(self, *scripts: Script) -> None:
        if not scripts:
            raise ValueError("a hostile server needs at least one script")
        super().__init__(("127.0.0.1", 0), _Handler)
        self.scripts = scripts
        self.stopping = threading.Event()
        self.hung_up = threading.Event()
        self._lock = threading.Lock()
        self._record = _Record()
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/wf/"

    @property
    def received(self) -> list[Received]:
        """The requests read so far, in order."""
        with self._lock:
            return list(self._record.received)

    @property
    def connections(self) -> int:
        """How many connections were accepted."""
        with self._lock:
            return self._record.connections

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()
        self._thread.join()

    def handle_error(self, request: object, client_address: object) -> None:
        """A client hanging up is what these tests provoke; nothing to print."""

    def next_script(self) -> Script:
        with self._lock:
            number = self._record.connections
            self._record.connections += 1
        return self.scripts[min(number, len(self.scripts) - 1)]

    def record(self, request: Received) -> None:
        with self._lock:
            self._record.received.append(request)


class _Handler(socketserver.BaseRequestHandler):
    server: HostileServer
    request: socket.socket

    def handle(self) -> None:
        script = self.server.next_script()
        steps = [NextRequest(), *script.steps] if script.read_request else list(script.steps)
        try:
            for step in steps:
                if not self._play(step):
                    return
        except OSError:  # the client hung up before the script was done
            self.server.hung_up.set()

    def _play(self, step: Step) -> bool:
        """Play one step; False when the client left instead of sending a request."""
        if isinstance(step, NextRequest):
            received = _read_request(self.request)
            if received is None:
                return False
            self.server.record(received)
        elif isinstance(step, Hold):
            self.server.stopping.wait()
        elif isinstance(step, Drip):
            for index in range(len(step.data)):
                self.request.sendall(step.data[index : index + 1])
                if self.server.stopping.wait(step.interval):
                    break
        else:
            self.request.sendall(step)
        return True


def _read_request(sock: socket.socket) -> Received | None:
    """One request: the head up to the blank line, then Content-Length bytes of body (None: the client left)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    request_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    method, target, *_ = request_line.split(" ")
    return Received(method, target, headers, body)
