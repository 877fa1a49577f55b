"""Text from the server made safe for a log line or a terminal: control characters shown as escapes.

An opponent's username, a server's error text or a word can hold a newline (a forged log record),
ESC or BEL (terminal escape sequences), C1 controls (``\\x9b`` is a one-byte CSI on some terminals),
the Unicode line and paragraph separators (a new line to many viewers) or bidirectional overrides
(text shown in another order than it is stored). ``escaped`` replaces each with a visible escape:
``\\x..`` below U+0100, ``\\u....`` above. It is the one function for logs and terminals: the log
formatter (``bot.logs``) applies it to every record, the command-line printers to every line they
print that holds server text. A backslash is left as it is (it changes no line and no colour).

>>> escaped("bob\\nERROR forged\\x1b[31m\\x07")
'bob\\\\x0aERROR forged\\\\x1b[31m\\\\x07'
>>> escaped("line\\u2028sep\\u202eevil")
'line\\\\u2028sep\\\\u202eevil'
>>> escaped("plain Ærø ÅÄÖ text")
'plain Ærø ÅÄÖ text'
"""

from __future__ import annotations

import re

#: C0 controls, DEL, C1 controls, the Unicode line/paragraph separators, bidirectional marks,
#: embeddings, overrides and isolates, and the byte-order mark (a zero-width no-break space).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escaped(text: str) -> str:
    """``text`` with every control, separator and bidirectional character shown as ``\\x..``/``\\u....``."""
    return _UNSAFE.sub(_escape, text)


def escaped_block(text: str, indent: str = "    ") -> str:
    """A multi-line block of our own (a traceback) that may quote server text: each line escaped and
    indented, so no line of it can pass for a log record of its own (records start at the margin)."""
    return "\n".join(indent + escaped(line) for line in text.split("\n"))


__all__ = ["escaped", "escaped_block"]
