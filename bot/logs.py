"""Logging for the service: one format, optional file, and secrets scrubbed from every record.

``Redactor`` is a filter on the handlers: any registered secret (password, password hash,
session id) in a formatted message is replaced by ``***`` before it is written anywhere, so a
library that logs a header or a URL cannot leak one.

>>> redactor = Redactor()
>>> redactor.add("s3cret-session")
>>> redactor.scrub("cookie sessionid=s3cret-session sent")
'cookie sessionid=*** sent'

Session ids change at every login (a long-lived bot logs in again whenever its session expires), so
only the newest ``SESSIONS_SCRUBBED`` are kept: an older one no longer opens anything, and keeping
every one would grow the set, and the work of scrubbing each line, for as long as the bot runs.
"""

from __future__ import annotations

import logging
import os
import sys
from collections import OrderedDict
from pathlib import Path

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
        handler.setFormatter(logging.Formatter(FORMAT))
        handler.addFilter(redactor)
        handler._wordfeud_bot = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else getattr(logging, level))
    logging.getLogger("urllib3").setLevel(logging.DEBUG if verbose else logging.WARNING)
    # a poll skipped because the previous pass still runs is expected, not worth a warning
    logging.getLogger("apscheduler").setLevel(logging.DEBUG if verbose else logging.ERROR)
    return redactor
