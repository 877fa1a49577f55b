"""``account.secrets_file``: the secrets as a shell file of ``KEY=value`` lines.

The same file serves cron (``. secrets.env`` in the crontab line) and the bot, so it reads what a
shell would: ``KEY=value`` or ``export KEY=value``, a value bare, in single quotes (taken as it is) or
in double quotes (``\\"``, ``\\\\``, ``\\$`` and ``\\``` escaped), blank lines and ``#`` comments. What a
shell would change before the bot sees it (a ``$`` expansion, a command substitution) is refused,
since the bot cannot read it the same way; so is a ``WORDFEUD_*`` key the bot does not know (a typo
would otherwise surface as "set WORDFEUD_EMAIL"). Every refusal names the file and the line, never
the value.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from bot.errors import ConfigError

_LINE = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_DOUBLE_ESCAPES = {'"': '"', "\\": "\\", "$": "$", "`": "`"}


def parse_secrets(text: str, path: Path, known: tuple[str, ...]) -> dict[str, str]:
    """The ``KEY=value`` pairs of a secrets file's text; ConfigError naming ``path`` and the line of
    the first line that is not understood. Keys that do not start with ``WORDFEUD_`` are kept but not
    checked (the file may set other variables for cron); ``WORDFEUD_*`` keys must be in ``known``."""
    values: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"account.secrets_file {path} line {number}"
        match = _LINE.match(stripped)
        if match is None:
            raise ConfigError(f"{where}: expected KEY=value or export KEY=value")
        key, raw = match.groups()
        if key.startswith("WORDFEUD_") and key not in known:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]}?" if close else f"; known: {', '.join(known)}"
            raise ConfigError(f"{where}: unknown key {key}{hint}")
        try:
            values[key] = _value(raw)
        except ValueError as exc:
            raise ConfigError(f"{where} ({key}): {exc}") from None
    return values


def _value(raw: str) -> str:
    """A shell word (the value after ``=``), with an optional trailing ``# comment``."""
    out: list[str] = []
    i = 0
    while i < len(raw):
        char = raw[i]
        if char == "'":
            end = raw.find("'", i + 1)
            if end < 0:
                raise ValueError("a single quote is not closed")
            out.append(raw[i + 1 : end])
            i = end + 1
        elif char == '"':
            i = _double_quoted(raw, i + 1, out)
        elif char.isspace():
            rest = raw[i:].strip()
            if rest and not rest.startswith("#"):
                raise ValueError("the value has a space outside quotes; put it in single quotes")
            break
        elif char in "$`":
            raise ValueError(f"a shell expansion ({char}) cannot be read the same way; put the value in single quotes")
        elif char == "\\":
            if i + 1 >= len(raw):
                raise ValueError("the line ends with a backslash")
            out.append(raw[i + 1])
            i += 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _double_quoted(raw: str, i: int, out: list[str]) -> int:
    """Append the text of a double-quoted part starting after its quote; return where it ends."""
    while i < len(raw):
        char = raw[i]
        if char == '"':
            return i + 1
        if char == "\\" and i + 1 < len(raw) and raw[i + 1] in _DOUBLE_ESCAPES:
            out.append(raw[i + 1])
            i += 2
            continue
        if char in "$`":
            raise ValueError(f"a shell expansion ({char}) in double quotes; put the value in single quotes")
        out.append(char)
        i += 1
    raise ValueError("a double quote is not closed")
