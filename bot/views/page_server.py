"""The limits of the status page's HTTP server: what one visitor, or a page in someone's browser, can hold.

* A request must arrive in whole (request line and headers) within ``read_timeout`` seconds of the
  connection opening, or of the previous answer on it: a client that connects and sends nothing, or
  drips a byte at a time, loses its connection then (``DeadlineReader``, of ``bot.api.request_deadline``,
  which the sandbox's server reads through too).
* At most ``max_connections`` connections are served at once, and one more in a slot of its own that
  serves ``/healthz`` only (``CappedHTTPServer``): its request must arrive within ``health_timeout``
  (1 s; a liveness probe sends it at once), anything else there is answered 503, and it is closed after
  its answer. A new connection takes that slot from one that has sent nothing yet. So connections that
  hold every other slot (idle, dripping, or reading slowly), and idle ones past them, cannot make a
  liveness check fail; only a connection that sends part of a request in that slot delays it, by at
  most ``health_timeout``. A connection past both is answered 503 and closed at once, without a thread.
* The ``Host`` header must name the address the page listens on, a loopback name, or one of
  ``allowed_hosts`` (``host_allowed``): a page on another site whose name was rebound to this
  machine's address (DNS rebinding) sends its own name and is answered 421.
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import select
import socket
import threading
import time
from http.server import ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from bot.api.request_deadline import DeadlineReader, LateRequestError

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

#: Names that always mean this machine, whatever the page listens on (a browser on the machine, or on
#: the host of a container whose port is published, sends these).
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
#: Seconds a connection in the ``/healthz`` slot has to send its request.
HEALTH_TIMEOUT = 1.0
#: Threads the health check's slot may have at once: its connection's, and those of connections it let go
#: of that have not ended yet (they end at once: their read side is shut).
_HEALTH_THREADS = 4
#: What a connection the page has no slot for is told.
BUSY_TEXT = "too many connections, try again\n"
BUSY = (
    b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    + f"Content-Length: {len(BUSY_TEXT)}\r\nConnection: close\r\n\r\n{BUSY_TEXT}".encode()
)


def host_allowed(header: str | None, listen_host: str, allowed: frozenset[str]) -> bool:
    """Whether a request's ``Host`` header (port ignored: a published container port may differ) names
    the listen address, a loopback name, or one of ``allowed`` (lower case)."""
    if not header:
        return False
    name = header.strip().lower()
    if name.startswith("["):  # [v6]:port
        name = name[1 : name.find("]")] if "]" in name else ""
    elif name.count(":") == 1:
        name = name.split(":", 1)[0]
    if not name:
        return False
    if name in LOOPBACK_NAMES or name in allowed:
        return True
    listen = listen_host.lower().strip("[]")
    if _is_wildcard(listen):
        return False
    return name == listen


def _is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return host == ""


def _readable(sock: socket.socket, seconds: float) -> bool:
    """Whether bytes (or the end) wait on ``sock``, waiting at most ``seconds`` for them; they stay there."""
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    try:
        return bool(poller.poll(max(0, math.ceil(seconds * 1000))))
    except OSError:
        return False


class _HealthReader(DeadlineReader):
    """The health check's slot's reader: it notes that a request has begun before it takes the first
    bytes off the socket, so that at any moment the request shows either there or here."""

    begun = False

    def readinto(self, buffer: WriteableBuffer) -> int:
        if not self.begun and _readable(self.sock, self.deadline - time.monotonic()):
            self.begun = True
        return super().readinto(buffer)


class _HealthHolder:
    """The connection in the health check's slot, and the reader its handler reads it through."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader: _HealthReader | None = None
        self.answered = False  # its answer is going out: it ends by itself

    def silent(self) -> bool:
        """Nothing of a request has come, read or waiting (a probe sends its request at once)."""
        if self.reader is not None and self.reader.begun:
            return False
        return not _readable(self.sock, 0)


class CappedHTTPServer(ThreadingHTTPServer):
    """A thread per connection, at most ``max_connections`` at once and one more in the health check's
    slot (``in_health_slot`` tells its handler so: it serves ``/healthz`` only, its request within
    ``health_timeout``). A new connection past the cap takes that slot from one that has sent nothing
    (whose reading side is shut: its thread ends at once) or is being answered; a connection past both
    is answered 503 and closed by the listening thread itself, without a thread."""

    daemon_threads = True

    def __init__(
        self, address: tuple[str, int], handler: Any, max_connections: int, health_timeout: float = HEALTH_TIMEOUT
    ) -> None:
        super().__init__(address, handler)
        self.max_connections = max_connections
        self.health_timeout = health_timeout
        self._slots = threading.BoundedSemaphore(max_connections)
        self._health_lock = threading.Lock()
        self._health: _HealthHolder | None = None  # the connection in the health check's slot
        self._health_threads = 0  # threads of that slot not ended yet (one, and those let go of, ending)
        self._local = threading.local()
        self.refused = 0  # connections answered 503 at once since the start

    @property
    def in_health_slot(self) -> bool:
        """Whether the calling thread serves the connection in the health check's slot."""
        return getattr(self._local, "health", None) is not None

    def reader(self, sock: socket.socket, read_timeout: float) -> DeadlineReader:
        """The calling handler's reader of ``sock``: ``read_timeout`` a request, at most ``health_timeout``
        in the health check's slot."""
        holder: _HealthHolder | None = getattr(self._local, "health", None)
        if holder is None:
            return DeadlineReader(sock, read_timeout)
        holder.reader = _HealthReader(sock, min(read_timeout, self.health_timeout))
        return holder.reader

    def answering(self) -> None:
        """The calling handler answers now: in the health check's slot, the next connection may take the
        slot without waiting for the thread to end."""
        holder: _HealthHolder | None = getattr(self._local, "health", None)
        if holder is not None:
            holder.answered = True

    def process_request(self, request: Any, client_address: Any) -> None:
        holder: _HealthHolder | None = None
        if not self._slots.acquire(blocking=False):
            holder = self._take_health_slot(request)
            if holder is None:
                self.refused += 1
                try:
                    request.settimeout(1.0)  # a few bytes into an empty socket buffer: never waits in practice
                    request.sendall(BUSY)
                except OSError:
                    pass
                self.shutdown_request(request)
                return
        try:
            thread = threading.Thread(target=self._serve, args=(request, client_address, holder), daemon=True)
            thread.start()
        except BaseException:
            self._release(holder)
            raise

    def _take_health_slot(self, request: socket.socket) -> _HealthHolder | None:
        """The health check's slot for ``request``, when it is free or its connection has sent nothing
        (that one is let go of); None when it serves a request or too many of its threads still end."""
        with self._health_lock:
            if self._health is not None:
                if self._health_threads >= _HEALTH_THREADS:
                    return None
                if not self._health.answered:
                    if not self._health.silent():
                        return None
                    with contextlib.suppress(OSError):
                        self._health.sock.send(BUSY)  # told as a connection past the cap is
                        self._health.sock.shutdown(socket.SHUT_RD)  # its read ends: its thread ends at once
            self._health = _HealthHolder(request)
            self._health_threads += 1
            return self._health

    def _release(self, holder: _HealthHolder | None) -> None:
        if holder is None:
            self._slots.release()
            return
        with self._health_lock:
            self._health_threads -= 1
            if self._health is holder:
                self._health = None

    def _serve(self, request: Any, client_address: Any, holder: _HealthHolder | None) -> None:
        self._local.health = holder
        try:
            self.process_request_thread(request, client_address)
        finally:
            self._release(holder)


__all__ = [  # the read deadline is re-exported: the status page's server takes its limits from here
    "BUSY",
    "BUSY_TEXT",
    "HEALTH_TIMEOUT",
    "LOOPBACK_NAMES",
    "CappedHTTPServer",
    "DeadlineReader",
    "LateRequestError",
    "host_allowed",
]
