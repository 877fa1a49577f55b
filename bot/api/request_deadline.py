"""One deadline per request on a socket's read side: what keeps a client that connects and sends
nothing, or drips a byte at a time, from holding a server's thread past it.

Both HTTP servers of the project read requests through it: the status page's (``bot.views.page_server``,
``bot.views.status``) and the sandbox's (``sandbox.server``). Each wraps it in an ``io.BufferedReader`` as
the handler's ``rfile`` and calls ``start`` when a request may begin; the server decides what a late
request gets (the status page closes the connection, the sandbox answers a started one).
"""

from __future__ import annotations

import io
import math
import socket
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer


class LateRequestError(Exception):
    """The request did not arrive in whole within the read timeout.

    Not a ``TimeoutError``: ``http.server`` would take that for an idle keep-alive connection and
    close it unanswered.
    """


class DeadlineReader(io.RawIOBase):
    """A socket's read side under one deadline per request: ``seconds`` from the last ``start`` (the
    first is when it is made)."""

    def __init__(self, sock: socket.socket, seconds: float) -> None:
        super().__init__()
        self.sock = sock
        self.seconds = seconds
        self.deadline = math.inf
        self.received = 0  # bytes read since ``start``
        self.start()

    def start(self) -> None:
        """A new request: it has ``seconds`` from now to arrive."""
        self.deadline = time.monotonic() + self.seconds
        self.received = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise LateRequestError(f"the request did not arrive within {self.seconds:g} s")
        self.sock.settimeout(remaining)
        try:
            count = self.sock.recv_into(buffer)
        except TimeoutError:
            raise LateRequestError(f"the request did not arrive within {self.seconds:g} s") from None
        self.received += count
        return count
