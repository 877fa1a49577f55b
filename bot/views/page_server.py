"""The limits of the status page's HTTP server: what one visitor, or a page in someone's browser, can hold.

* A request must arrive in whole (request line and headers) within ``read_timeout`` seconds of the
  connection opening, or of the previous answer on it: a client that connects and sends nothing, or
  drips a byte at a time, loses its connection then (``DeadlineReader``, of ``bot.api.request_deadline``,
  which the sandbox's server reads through too).
* At most ``max_connections`` connections are served at once; one more is answered 503 and closed
  at once, without a thread (``CappedHTTPServer``).
* The ``Host`` header must name the address the page listens on, a loopback name, or one of
  ``allowed_hosts`` (``host_allowed``): a page on another site whose name was rebound to this
  machine's address (DNS rebinding) sends its own name and is answered 421.
"""

from __future__ import annotations

import ipaddress
import threading
from http.server import ThreadingHTTPServer
from typing import Any

from bot.api.request_deadline import DeadlineReader, LateRequestError

#: Names that always mean this machine, whatever the page listens on (a browser on the machine, or on
#: the host of a container whose port is published, sends these).
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
_BUSY = (
    b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 32\r\n"
    b"Connection: close\r\n\r\ntoo many connections, try again\n"
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


class CappedHTTPServer(ThreadingHTTPServer):
    """A thread per connection, at most ``max_connections`` at once; one more is answered 503 and
    closed by the listening thread itself."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: Any, max_connections: int) -> None:
        super().__init__(address, handler)
        self.max_connections = max_connections
        self._slots = threading.BoundedSemaphore(max_connections)
        self.refused = 0  # connections answered 503 since the start

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            self.refused += 1
            try:
                request.settimeout(1.0)  # a few bytes into an empty socket buffer: never waits in practice
                request.sendall(_BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


__all__ = [  # the read deadline is re-exported: the status page's server takes its limits from here
    "LOOPBACK_NAMES",
    "CappedHTTPServer",
    "DeadlineReader",
    "LateRequestError",
    "host_allowed",
]
