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
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from bot.escapes import escaped, escaped_block

FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
_MIN_SECRET = 6  # shorter strings would scrub ordinary words


class Redactor(logging.Filter):
    """Replaces registered secrets in log records with ``***``."""

    def __init__(self) -> None:
        super().__init__()
        self._secrets: set[str] = set()

    def add(self, secret: str | None) -> None:
        """Scrub this value from now on (ignored when empty or too short to be a secret)."""
        if secret and len(secret) >= _MIN_SECRET:
            self._secrets.add(secret)

    def scrub(self, text: str) -> str:
        """The text with every secret replaced."""
        for secret in sorted(self._secrets, key=len, reverse=True):
            text = text.replace(secret, "***")
        return text

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


def setup_logging(level: str = "INFO", file: Path | None = None, *, verbose: bool = False) -> Redactor:
    """Send the bot's logs to stderr (and ``file``), scrubbed; returns the redactor to register secrets with."""
    redactor = Redactor()
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if file is not None:
        path = file.expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))  # a new log is its owner's only
        handlers.append(logging.FileHandler(path, encoding="utf-8"))
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_wordfeud_bot", False):
            root.removeHandler(handler)
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
