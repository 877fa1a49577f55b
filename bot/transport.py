"""How the client reaches the Wordfeud API safely; for now, the check of its base URL.

``check_base_url`` accepts only ``scheme://host[:port]/path/`` made of plain characters, no user
info, plain http only to this machine, and only when urllib3, requests and ``urllib.parse`` all
read the same host from it: the client and the config both use it, so a URL the config accepts is
the URL the request goes to.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

import requests
from urllib3.util import parse_url

_LOOPBACK_NAMES = ("localhost",)
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_SEGMENT = re.compile(r"[A-Za-z0-9._~-]+")
_PORT = re.compile(r"[0-9]{1,5}")


# -- the base URL ---------------------------------------------------------------------------


def masked_url(value: str, limit: int = 120) -> str:
    """``value`` quoted for a message: anything from ``//`` to the last ``@`` (user info, a password)
    replaced by ``***``, shortened to ``limit`` characters, control characters escaped."""
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
    if "@" in value:
        raise ValueError(f"{shown} contains user info (user:password@); the API takes none in its URL")
    if "?" in value or "#" in value:
        raise ValueError(f"{shown} has a query or fragment; use scheme://host[:port]/path/")
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


__all__ = ["check_base_url", "masked_url"]
