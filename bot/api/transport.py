"""One HTTP exchange with the Wordfeud API, safe against a hostile server or network in between.

- ``check_base_url`` accepts only ``scheme://host[:port]/path/`` made of plain characters, no user
  info, plain http only to this machine, and only when urllib3, requests and ``urllib.parse`` all
  read the same host from it: the client and the config both use it, so a URL the config accepts is
  the URL the request goes to.
- ``Transport.post`` gives each exchange a total deadline (connect, TLS, headers and body). The
  exchange runs in a worker thread that the caller waits for at most ``timeout`` seconds; when the
  time is up, the sockets the worker opened or reused are shut down so it lets go at once.
- Redirects are never followed; a body is read only for a 200 answer, uncompressed, and at most
  ``MAX_ANSWER_BYTES`` of it.
- Exceptions of requests, urllib3 and the socket layer become ``TransportError`` here, saying what
  happened (the name did not resolve, the connection was refused, TLS failed, no answer in time)
  and naming only their class: their messages may quote headers that hold the session id.
"""

from __future__ import annotations

import contextlib
import datetime
import email.utils
import errno
import ipaddress
import logging
import math
import re
import socket
import ssl
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import SplitResult, urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NameResolutionError, NewConnectionError
from urllib3.exceptions import SSLError as Urllib3SSLError
from urllib3.exceptions import TimeoutError as Urllib3TimeoutError
from urllib3.util import parse_url

from bot.errors import ApiError, TransportError

#: The largest answer read; the API's biggest (a status with many games) is a few hundred KB.
MAX_ANSWER_BYTES = 4 * 1024 * 1024
_CHUNK = 64 * 1024
_LOOPBACK_NAMES = ("localhost",)
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_SEGMENT = re.compile(r"[A-Za-z0-9._~-]+")
_PORT = re.compile(r"[0-9]{1,5}")

log = logging.getLogger(__name__)


# -- the base URL ---------------------------------------------------------------------------


def masked_url(value: str, limit: int = 120) -> str:
    """``value`` quoted for a message: anything from ``//`` to the last ``@`` (user info, a password)
    and any query or fragment replaced by ``***``, shortened to ``limit`` characters, control
    characters escaped.

    >>> masked_url("https://me:pw@example.net/wf/?token=t0p")
    "'https://***@example.net/wf/?***'"
    """
    cut = min((i for i in (value.find("?"), value.find("#")) if i >= 0), default=-1)
    if cut >= 0:
        value = value[: cut + 1] + "***"
    at = value.rfind("@")
    if at >= 0:
        slashes = value.find("//")
        start = slashes + 2 if 0 <= slashes < at else 0
        value = value[:start] + "***" + value[at:]
    if len(value) > limit:
        value = value[:limit] + "..."
    return repr(value)


def check_base_url(value: str) -> str:
    """The canonical form of an API base URL (lower-case scheme and host, ending in ``/``).

    Raises ValueError naming the problem and the value (user info masked). Refused: characters
    outside printable ASCII, backslashes, user info, a query or fragment, dot segments, hosts that
    are not a DNS name or an IP literal, plain http to anything but this machine, and any URL that
    requests, urllib3 and ``urllib.parse`` would not all send to the same host, port and path.
    """
    shown = masked_url(value)
    bad = next((c for c in value if not 0x21 <= ord(c) <= 0x7E), None)
    if bad is not None:
        raise ValueError(f"{shown} contains {_char_name(bad)}; a base URL is plain printable ASCII")
    if "\\" in value:
        raise ValueError(f"{shown} contains a backslash, which URL parsers read differently")
    if "?" in value or "#" in value:
        raise ValueError(f"{shown} has a query or fragment; use scheme://host[:port]/path/")
    if "@" in value:
        raise ValueError(f"{shown} contains user info (user:password@); the API takes none in its URL")
    scheme, sep, rest = value.partition("://")
    scheme = scheme.lower()
    if not sep or scheme not in ("http", "https"):
        raise ValueError(f"{shown} is not an http(s) URL of the form scheme://host[:port]/path/")
    authority, _, path = rest.partition("/")
    host, port = _host_and_port(authority, shown)
    segments = path.split("/") if path else []
    if segments and segments[-1] == "":
        segments.pop()
    if not all(_SEGMENT.fullmatch(s) and s not in (".", "..") for s in segments):
        raise ValueError(f"{shown}: the path may only have segments of letters, digits and -._~ (no . or ..)")
    if scheme == "http" and not _loopback(host):
        raise ValueError(f"{shown}: plain http is only allowed for a server on this machine; use https")
    canonical = f"{scheme}://{host}{'' if port is None else f':{port}'}/{''.join(s + '/' for s in segments)}"
    if not _read_alike(canonical, scheme, host, port):
        raise ValueError(f"{shown} is read differently by different URL parsers")
    return canonical


def _char_name(char: str) -> str:
    if char.isspace():
        return f"whitespace ({char!r})"
    if ord(char) < 0x20 or ord(char) == 0x7F:
        return f"a control character ({char!r})"
    return f"a non-ASCII character ({char!r}) (write an international host name in its xn-- form)"


def _host_and_port(authority: str, shown: str) -> tuple[str, int | None]:
    """The host (lower case; IPv6 in brackets) and port of ``host[:port]``."""
    port: int | None = None
    if authority.startswith("["):
        inside, bracket, after = authority[1:].partition("]")
        try:
            address = ipaddress.IPv6Address(inside) if bracket else None
        except ValueError:
            address = None
        if address is None or address.scope_id:
            raise ValueError(f"{shown}: {authority!r} is not an IPv6 address in brackets")
        host, rest = f"[{address.compressed}]", after
    else:
        host, colon, port_text = authority.partition(":")
        host, rest = host.lower(), colon + port_text
        if not _dns_name_or_ipv4(host):
            raise ValueError(f"{shown}: {host!r} is not a host name or an IPv4 address")
    if rest:
        if not (rest.startswith(":") and _PORT.fullmatch(rest[1:]) and 0 < int(rest[1:]) < 65536):
            raise ValueError(f"{shown}: the port must be a number from 1 to 65535")
        port = int(rest[1:])
    return host, port


def _dns_name_or_ipv4(host: str) -> bool:
    """A dotted-quad IPv4 address, or a DNS name whose last label starts with a letter (so that
    ``127.1``, ``0x7f.1`` or ``2130706433``, which resolvers read as addresses, are refused)."""
    try:
        ipaddress.IPv4Address(host)
        return True
    except ValueError:
        pass
    labels = host.split(".")
    return (
        len(host) <= 253
        and all(_LABEL.fullmatch(label) for label in labels)
        and labels[-1][:1].isalpha()
    )


def _loopback(host: str) -> bool:
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _read_alike(url: str, scheme: str, host: str, port: int | None) -> bool:
    """Whether urllib3, requests' request preparation and ``urllib.parse`` all read ``url`` as
    ``scheme://host:port`` with no user info and the same path."""
    path = url[len(scheme) + 3 :].partition("/")[2]
    try:
        by_urllib3 = parse_url(url)
        prepared = requests.Request("POST", url).prepare().url
        split = urlsplit(url)
        split_port = split.port
    except (ValueError, requests.RequestException):
        return False
    bare = host.strip("[]")
    return (
        by_urllib3.scheme == scheme
        and by_urllib3.auth is None
        and (by_urllib3.host or "").strip("[]") == bare
        and by_urllib3.port == port
        and by_urllib3.path == "/" + path
        and prepared == url
        and split.hostname == bare
        and split.username is None
        and split_port == port
    )


# -- HTTP answers ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """What came back: the status, the headers, every ``Set-Cookie`` value, and the body (read
    only for status 200)."""

    status: int
    headers: Mapping[str, str]
    set_cookies: tuple[str, ...] = ()
    body: bytes = b""


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """The wait a ``Retry-After`` header asks for: whole or decimal seconds, or an HTTP date
    (seconds from ``now``, never negative). None for anything else (negative, NaN, infinite,
    garbage), so the caller's own backoff applies; a huge value is the caller's to clamp."""
    if value is None:
        return None
    text = value.strip()
    if re.fullmatch(r"[0-9]{1,12}(\.[0-9]{1,6})?", text):
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
        stamp = when.timestamp() if when.tzinfo else when.replace(tzinfo=datetime.UTC).timestamp()
    except (TypeError, ValueError, OverflowError, IndexError):
        return None
    wait = stamp - (time.time() if now is None else now)
    return max(wait, 0.0) if math.isfinite(wait) else None


# -- the transport --------------------------------------------------------------------------


class _Watch:
    """The sockets one exchange uses, so that the waiting caller can cut them off at the deadline.

    Each is kept as a duplicate file descriptor: shutting that down ends the connection even once
    TLS has taken the original socket object over, and closing it leaves the connection alone.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._finished = False
        self.expired = False
        self.done = threading.Event()

    def add(self, sock: socket.socket) -> None:
        try:
            duplicate = socket.fromfd(sock.fileno(), sock.family, sock.type)
        except OSError:
            return  # already closed: nothing to cut
        with self._lock:
            if self._finished:
                duplicate.close()
                return
            self._sockets.append(duplicate)
            if self.expired:
                _cut(duplicate)

    def expire(self) -> None:
        """The deadline passed: shut down every socket of the exchange."""
        with self._lock:
            self.expired = True
            if not self._finished:
                for sock in self._sockets:
                    _cut(sock)

    def finish(self) -> None:
        """The exchange is over: let go of the duplicates and wake the caller."""
        with self._lock:
            self._finished = True
            for sock in self._sockets:
                sock.close()
            self._sockets.clear()
        self.done.set()


def _cut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already disconnected
        sock.shutdown(socket.SHUT_RDWR)


_current = threading.local()


def _watch(sock: socket.socket | None) -> None:
    watch: _Watch | None = getattr(_current, "watch", None)
    if watch is not None and sock is not None:
        watch.add(sock)


class _WatchedConnection(HTTPConnection):
    """Reports its socket to the exchange under way: a new one as soon as it is connected (before
    any TLS handshake), a reused one when a request is sent on it."""

    def _new_conn(self) -> socket.socket:
        sock = super()._new_conn()
        _watch(sock)
        return sock

    def request(self, *args: Any, **kwargs: Any) -> None:
        _watch(self.sock)
        super().request(*args, **kwargs)


class _WatchedHTTPSConnection(_WatchedConnection, HTTPSConnection):
    pass


class _WatchedPool(HTTPConnectionPool):
    ConnectionCls = _WatchedConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


_POOLS: dict[str, type[HTTPConnectionPool]] = {"http": _WatchedPool, "https": _WatchedHTTPSPool}


class WatchedAdapter(HTTPAdapter):
    """requests' adapter whose connections report their sockets to the exchange's deadline."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _POOLS

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        manager = super().proxy_manager_for(proxy, **proxy_kwargs)
        if not proxy.lower().startswith("socks"):  # SOCKS pools have connection classes of their own
            manager.pool_classes_by_scheme = _POOLS
        return manager


@dataclass
class _Outcome:
    answer: Answer | None = None
    error: ApiError | None = None
    watch: _Watch = field(default_factory=_Watch)


class Transport:
    """POSTs over ``session`` with a total deadline of ``timeout`` seconds per exchange."""

    def __init__(self, session: requests.Session, timeout: float, max_bytes: int = MAX_ANSWER_BYTES) -> None:
        if not (math.isfinite(timeout) and timeout > 0):
            raise ValueError(f"a timeout must be a positive number of seconds, got {timeout!r}")
        self.session = session
        self.timeout = timeout
        self.max_bytes = max_bytes

    def mount(self, base_url: str) -> None:
        """Route ``base_url`` and everything under it through a watched adapter."""
        self.session.mount(base_url, WatchedAdapter())

    def post(self, url: str, body: bytes, headers: Mapping[str, str], what: str) -> Answer:
        """One POST; raises TransportError (no whole answer in time, connection failure, an
        unreadable or too large answer) or ApiError (a request that cannot even be built)."""
        try:
            request = requests.Request("POST", url, data=body, headers=dict(headers)).prepare()
        except (requests.RequestException, ValueError) as exc:
            raise ApiError(f"{what}: the request cannot be built ({type(exc).__name__})") from None
        outcome = _Outcome()
        worker = threading.Thread(target=self._exchange, args=(request, outcome, what), name="wordfeud-http")
        worker.daemon = True
        try:
            worker.start()
        except RuntimeError:  # no thread to be had (resources exhausted, or the interpreter is exiting)
            raise TransportError(f"{what}: the exchange could not be started (no thread)") from None
        try:
            finished = outcome.watch.done.wait(self.timeout)
        except BaseException:  # Ctrl-C while waiting: hang up rather than leave the worker reading
            outcome.watch.expire()
            raise
        if not finished:
            outcome.watch.expire()
            raise TransportError(f"{what}: no answer within {self.timeout:g} s")
        worker.join()  # it has finished its work; no thread is left behind a completed exchange
        if outcome.error is not None:
            raise outcome.error
        if outcome.answer is None:  # pragma: no cover - the worker always leaves one or the other
            raise TransportError(f"{what}: the exchange ended without an answer")
        return outcome.answer

    def _exchange(self, request: requests.PreparedRequest, outcome: _Outcome, what: str) -> None:
        """The worker: send, read, and leave an Answer or a translated error in ``outcome``."""
        _current.watch = outcome.watch
        try:
            url = request.url or ""
            settings = self.session.merge_environment_settings(url, {}, True, None, None)
            adapter = self.session.get_adapter(url)
            response = adapter.send(
                request,
                stream=True,
                timeout=(self.timeout, self.timeout),
                verify=settings["verify"] if isinstance(settings["verify"], str) else True,  # always verified
                cert=settings["cert"],
                proxies=settings["proxies"],
            )
            try:
                outcome.answer = self._read(response, outcome.watch, what)
            finally:
                response.close()
        except Exception as exc:  # the boundary: whatever a hostile answer makes the HTTP stack raise
            outcome.error = self._translate(exc, what, urlsplit(request.url or ""))
        finally:
            _current.watch = None
            outcome.watch.finish()

    def _read(self, response: requests.Response, watch: _Watch, what: str) -> Answer:
        status = response.status_code
        raw_headers = getattr(response.raw, "headers", None)
        getlist = getattr(raw_headers, "getlist", None)
        cookies = tuple(getlist("Set-Cookie")) if callable(getlist) else ()
        if status != 200:
            return Answer(status, response.headers, cookies)
        encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            raise TransportError(f"{what}: the answer is compressed (Content-Encoding), though none was asked for")
        declared = response.headers.get("Content-Length", "").strip()
        too_large = TransportError(f"{what}: the answer is larger than {self.max_bytes} bytes")
        if declared and not (declared.isascii() and declared.isdigit()):
            raise TransportError(f"{what}: the answer's Content-Length is not a number")
        if declared and (len(declared) > 12 or int(declared) > self.max_bytes):
            raise too_large
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_content(_CHUNK):
            size += len(chunk)
            if size > self.max_bytes:
                raise too_large
            if watch.expired:
                raise TransportError(f"{what}: no answer within {self.timeout:g} s")
            chunks.append(chunk)
        return Answer(status, response.headers, cookies, b"".join(chunks))

    def _translate(self, exc: Exception, what: str, url: SplitResult) -> ApiError:
        """Our error for an exception of the HTTP stack: what happened (the name did not resolve, the
        connection was refused, TLS failed, no answer in time) and the classes involved, never the
        exception's message (which may quote headers)."""
        if isinstance(exc, ApiError):
            return exc
        chain = _chain(exc)
        names = type(exc).__name__ if len(chain) == 1 else f"{type(exc).__name__}: {type(chain[-1]).__name__}"
        log.debug("%s: %s", what, names)
        return TransportError(f"{what}: {_what_failed(chain, url, self.timeout, names)}")


def _what_failed(chain: list[BaseException], url: SplitResult, timeout: float, names: str) -> str:
    """Why an exchange failed, in words, from the exceptions it raised (outermost first).

    The specific causes come first: urllib3's ``NewConnectionError`` (a refused connection, a name
    that does not resolve) is, for history's sake, a kind of ``ConnectTimeoutError``."""
    host = url.hostname or "the server"
    address = f"{host}:{url.port or (443 if url.scheme == 'https' else 80)}"
    if any(isinstance(e, (socket.gaierror, NameResolutionError)) for e in chain):
        return f"the server's name {host} could not be resolved (DNS lookup failed)"
    if any(isinstance(e, ConnectionRefusedError) for e in chain):
        return f"connection refused by {address} (nothing listens there)"
    tls = next((e for e in chain if isinstance(e, (ssl.SSLError, requests.exceptions.SSLError, Urllib3SSLError))), None)
    if tls is not None:
        return f"TLS with {address} failed ({_tls_reason(chain)})"
    if any(isinstance(e, _TIMEOUTS) and not isinstance(e, NewConnectionError) for e in chain):
        return f"no answer within {timeout:g} s"
    if any(isinstance(e, ConnectionResetError) for e in chain):
        return f"the connection to {address} was reset"
    words = next((_ERRNO_WORDS[e.errno] for e in chain if isinstance(e, OSError) and e.errno in _ERRNO_WORDS), None)
    if words is not None:
        return f"cannot connect to {address}: {words}"
    if any(isinstance(e, requests.ConnectionError) for e in chain):
        return f"connection failed ({names})"
    return f"the exchange failed ({names})"


def _tls_reason(chain: list[BaseException]) -> str:
    """What OpenSSL said went wrong (its reason code or the certificate check's verdict; neither
    quotes anything the server sent), else the class names."""
    for error in chain:
        verdict = getattr(error, "verify_message", None)
        if isinstance(error, ssl.SSLError) and isinstance(verdict, str) and verdict:
            return f"certificate {verdict}" if not verdict.startswith("certificate") else verdict
        reason = getattr(error, "reason", None)
        if isinstance(error, ssl.SSLError) and isinstance(reason, str) and re.fullmatch(r"[A-Z0-9_]{1,80}", reason):
            return reason.lower().replace("_", " ")
    return " via ".join(type(e).__name__ for e in chain)


_TIMEOUTS = (requests.Timeout, Urllib3TimeoutError, TimeoutError)
#: Connection failures named by their errno, in our words (``os.strerror`` depends on the C library).
_ERRNO_WORDS = {
    errno.ENETUNREACH: "the network is unreachable",
    errno.EHOSTUNREACH: "no route to the host",
    errno.ECONNABORTED: "the connection was aborted",
    errno.EADDRNOTAVAIL: "the address is not available here",
}


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and what it wraps (causes, contexts, a ``reason``, an exception as first argument)."""
    seen = [exc]
    current: BaseException | None = exc
    while current is not None and len(seen) < 12:
        reason = getattr(current, "reason", None)
        first = current.args[0] if current.args else None
        following = next(
            (
                e
                for e in (current.__cause__, reason, first, current.__context__)
                if isinstance(e, BaseException) and e not in seen
            ),
            None,
        )
        if following is not None:
            seen.append(following)
        current = following
    return seen


__all__ = ["MAX_ANSWER_BYTES", "Answer", "Transport", "WatchedAdapter", "check_base_url", "masked_url"]
