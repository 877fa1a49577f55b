"""Logging for the service: one format, optional file, secrets scrubbed from every record, and
control characters escaped in every record.

``Redactor`` is a filter on the handlers: any registered secret (password, password hash,
session id) in a formatted message is replaced by ``***`` before it is written anywhere, so a
library that logs a header or a URL cannot leak one. ``EscapingFormatter`` writes each record as
one line: control characters of the message (a username with a newline, ESC or BEL) are shown as
``\\x..`` (``bot.escapes``), and a traceback's lines are escaped and indented, so nothing the
server sends can forge a record or reach the terminal as an escape sequence.

>>> redactor = Redactor()
>>> redactor.add("s3cret-session")
>>> redactor.scrub("cookie sessionid=s3cret-session sent")
'cookie sessionid=*** sent'

Session ids change at every login (a long-lived bot logs in again whenever its session expires), so
only the newest ``SESSIONS_SCRUBBED`` are kept: an older one no longer opens anything, and keeping
every one would grow the set, and the work of scrubbing each line, for as long as the bot runs.
"""

from __future__ import annotations

import errno
import io
import logging
import os
import sys
from collections import OrderedDict
from dataclasses import dataclass
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import TextIO

from bot.errors import ConfigError
from bot.escapes import escaped, escaped_block

FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
_MIN_SECRET = 6  # shorter strings would scrub ordinary words
#: Session ids scrubbed: the newest ones (the current session and a few before it).
SESSIONS_SCRUBBED = 8


class Secrets:
    """The values to scrub: the login's secrets for good, and the newest ``SESSIONS_SCRUBBED`` session ids."""

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        self._fixed: set[str] = set()
        self._sessions: OrderedDict[str, None] = OrderedDict()
        for secret in secrets:
            self.add(secret)

    def __len__(self) -> int:
        return len(self._fixed | self._sessions.keys())

    def add(self, secret: str | None) -> None:
        """Scrub this value for good (ignored when empty or too short to be a secret)."""
        if secret and len(secret) >= _MIN_SECRET:
            self._fixed.add(secret)

    def add_session(self, session_id: str | None) -> None:
        """Scrub this session id while it is one of the newest ``SESSIONS_SCRUBBED``."""
        if session_id and len(session_id) >= _MIN_SECRET:
            self._sessions[session_id] = None
            self._sessions.move_to_end(session_id)
            while len(self._sessions) > SESSIONS_SCRUBBED:
                self._sessions.popitem(last=False)

    def scrub(self, text: str) -> str:
        """The text with every secret replaced by ``***`` (the longest first)."""
        for secret in sorted(self._fixed | self._sessions.keys(), key=len, reverse=True):
            text = text.replace(secret, "***")
        return text


class Redactor(logging.Filter):
    """Replaces registered secrets in log records with ``***``."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets = Secrets()

    def add(self, secret: str | None) -> None:
        """Scrub this value from now on (ignored when empty or too short to be a secret)."""
        self.secrets.add(secret)

    def add_session(self, session_id: str | None) -> None:
        """Scrub this session id while it is among the newest (see ``Secrets``)."""
        self.secrets.add_session(session_id)

    def scrub(self, text: str) -> str:
        """The text with every secret replaced."""
        return self.secrets.scrub(text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        scrubbed = self.scrub(message)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.scrub(record.exc_text)
        if scrubbed != message or record.args:
            record.msg, record.args = scrubbed, None
        return True


class EscapingFormatter(logging.Formatter):
    """The bot's format, with the message escaped and a traceback escaped and indented."""

    def format(self, record: logging.LogRecord) -> str:
        record.message = escaped(record.getMessage())
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        text = self.formatMessage(record)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            text += "\n" + escaped_block(record.exc_text)
        if record.stack_info:
            text += "\n" + escaped_block(self.formatStack(record.stack_info))
        return text


class _PrivateRotatingFile(RotatingFileHandler):
    """A rotating log file whose every new file (the first, and each after a rotation) is created
    readable by its owner only."""

    def _open(self) -> io.TextIOWrapper:
        descriptor = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        return open(descriptor, "a", encoding=self.encoding, errors=self.errors)  # the handler closes it


@dataclass(frozen=True)
class LogFile:
    """Where the log goes besides stderr, and how it is rotated: when a write would take it past
    ``max_bytes`` (0: never), ``FILE`` becomes ``FILE.1``, ``FILE.1`` becomes ``FILE.2`` and so on;
    the oldest beyond ``backups`` is deleted. ``source`` names the setting, for errors."""

    path: Path
    max_bytes: int = 0
    backups: int = 1
    source: str = "--log-file"


def open_log_file(log_file: LogFile) -> logging.Handler:
    """The handler that appends to the log file (made, with its directory, when missing; mode 600).
    ConfigError naming the setting and the file when it cannot be opened for writing: a directory,
    a path under a file, a directory without write permission."""
    path = log_file.path.expanduser()
    blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:  # mkdir would say "File exists"
        raise ConfigError(f"{log_file.source} {path}: cannot write the log there: {blocking} is not a directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():  # opening a directory for appending fails only on some systems
            raise IsADirectoryError(errno.EISDIR, "Is a directory")
        return _PrivateRotatingFile(path, maxBytes=log_file.max_bytes, backupCount=log_file.backups, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{log_file.source} {path}: cannot write the log there: {exc.strerror or exc}") from None


class _Stderr(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is when a record comes (as logging's last resort does), so that a
    replaced and closed stderr (a test's capture, an embedding program's) is never written to."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass  # StreamHandler sets it; the stream is always the current stderr


def setup_logging(level: str = "INFO", file: LogFile | None = None, *, verbose: bool = False) -> Redactor:
    """Send the bot's logs to stderr (and ``file``), scrubbed; returns the redactor to register secrets with.
    ConfigError (nothing set up) when the file cannot be opened."""
    redactor = Redactor()
    handlers: list[logging.Handler] = [_Stderr()]
    if file is not None:
        handlers.append(open_log_file(file))
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_wordfeud_bot", False):
            root.removeHandler(handler)
            handler.close()
    for handler in handlers:
        handler.setFormatter(EscapingFormatter(FORMAT))
        handler.addFilter(redactor)
        handler._wordfeud_bot = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else getattr(logging, level))
    logging.getLogger("urllib3").setLevel(logging.DEBUG if verbose else logging.WARNING)
    # a poll skipped because the previous pass still runs is expected, not worth a warning
    logging.getLogger("apscheduler").setLevel(logging.DEBUG if verbose else logging.ERROR)
    return redactor
