"""The bot's exceptions: what went wrong, named precisely, so callers can tell a retry from a bug.

``ApiError`` covers everything the Wordfeud server (or the way to it) did: ``TransportError`` when
the answer never arrived or made no sense (worth retrying a read), ``HttpStatusError`` for an HTTP
status that another try would not change (a redirect, a 4xx), ``ApiStatusError`` when the server
answered "no" in its envelope (neither is retried). Foreign exceptions (``requests``,
``pydantic``, ``sqlite3``) are translated into these once, where they happen.
"""

from __future__ import annotations


class BotError(Exception):
    """Base of every error the bot raises on purpose."""


class ConfigError(BotError, ValueError):
    """The configuration or the secrets are missing or wrong; the message names the key."""


class StoreError(BotError):
    """The state database cannot be opened or is not ours."""


class LockedError(StoreError):
    """Another run of the bot holds the state lock."""


class UnusableStateError(StoreError):
    """The state file or its lock cannot be used as it is (a lock file that cannot be written, an empty file
    given to a command that only reads): the operator must act, so it is a configuration problem (exit 2)."""


class DamagedStateError(UnusableStateError):
    """The state file's pages are damaged (SQLite's integrity checks fail, or a read meets a malformed page);
    the message names the file and what to do (a backup, ``wordfeud-bot state recover``)."""


class ApiError(BotError):
    """Anything that went wrong talking to the Wordfeud API."""


class TransportError(ApiError):
    """No usable answer: connection failure, no whole answer within the deadline, HTTP 5xx or 429,
    a body that is not JSON we accept or is too large."""


class OutcomeUnknownError(TransportError):
    """A write (move, swap, pass, …) got no usable answer: it may or may not have been carried out.

    Never retried blindly: the caller re-reads the game to find out.
    """


class NotSentError(ApiError):
    """A write the client refused to send because it is read-only (``--dry-run``, ``play.dry_run``):
    nothing reached the server. Only a caller that forgot to check ``WordfeudClient.read_only`` meets it."""


class RateLimitedError(TransportError):
    """HTTP 429; ``retry_after`` is the wait the server asked for, in seconds (None if it gave none)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class HttpStatusError(ApiError):
    """An HTTP status that asking again will not change (3xx, 4xx other than 429): a wrong base URL,
    a refused or unknown request. Never retried; names the status and the path."""

    def __init__(self, path: str, status: int, detail: str = "") -> None:
        text = f"{path}: HTTP {status}"
        super().__init__(f"{text} ({detail})" if detail else text)
        self.path = path
        self.status = status


class RedirectError(HttpStatusError):
    """A 3xx answer. The API never redirects, and following one would send the login or a move to
    another server; ``location`` is where it pointed (user info masked), shown so the operator can
    check ``api.base_url``."""

    def __init__(self, path: str, status: int, location: str) -> None:
        super().__init__(path, status, f"redirect to {location}, not followed; check api.base_url")
        self.location = location


class ProtocolError(ApiError):
    """The server answered with an envelope whose content does not have the fields we need."""


class ApiStatusError(ApiError):
    """The server said no: ``{"status": "error", "content": {"type": ..., "message": ...}}``."""

    def __init__(self, type_: str, message: str = "", endpoint: str = "") -> None:
        text = f"{endpoint}: {type_}" if endpoint else type_
        super().__init__(f"{text} ({message})" if message else text)
        self.type = type_
        self.message = message
        self.endpoint = endpoint


class AuthError(ApiStatusError):
    """Login refused (``wrong_password``, ``unknown_email``, ``unknown_username``, …) or a session
    that stays invalid after logging in again."""


class LoginRefusedError(AuthError):
    """The server refused the login itself (``wrong_password``, ``unknown_email``, ...) or there are no
    credentials to log in with: retrying cannot help, so the daemon stops (exit status 4)."""


class IllegalWordError(ApiStatusError):
    """``illegal_word``: the server's dictionary does not have a word of the move."""


class NotYourTurnError(ApiStatusError):
    """``not_your_turn``: the game moved on since we looked."""


class GameOverApiError(ApiStatusError):
    """``game_over``: the game has ended."""


#: API error types that get their own class; any other type is a plain ApiStatusError.
STATUS_ERRORS: dict[str, type[ApiStatusError]] = {
    "wrong_password": LoginRefusedError,
    "unknown_email": LoginRefusedError,
    "wrong_email": LoginRefusedError,
    "unknown_username": LoginRefusedError,
    "unknown_user_id": LoginRefusedError,
    "login_required": AuthError,
    "illegal_word": IllegalWordError,
    "not_your_turn": NotYourTurnError,
    "game_over": GameOverApiError,
}

