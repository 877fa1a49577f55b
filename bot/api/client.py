"""``WordfeudClient``: one method per API endpoint over a ``requests.Session``.

Each exchange has a total deadline (``timeout``: connect, headers and body together), never
follows a redirect, and reads at most a few MB (``bot.api.transport``). Reads are retried with
exponential backoff and jitter (``tenacity``) on transport failures (connection errors, timeouts,
HTTP 5xx/429, bodies that are not JSON we accept), bounded in attempts and total time, never on
API-level errors or on final HTTP answers (3xx, other 4xx). Writes (move, swap, pass, resign,
invites, chat) are never retried blindly: a write without a usable answer raises
``OutcomeUnknownError`` and the caller re-reads the game. ``login_required`` triggers one
re-login and one repeat of the call. A ``read_only`` client (a dry run) sends no write at all: every
write goes through ``_call(write=True)``, which logs what it would have sent and raises
``NotSentError`` instead (the login and the reads still go out). The session id is sent as the
``sessionid`` cookie; neither it nor the password hash appears in any message or log line of the client.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import requests
from pydantic import BaseModel, ValidationError
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, stop_after_delay
from tenacity.wait import wait_exponential_jitter

from bot.api.credentials import Credentials
from bot.api.models import (
    ERROR_MESSAGE_LIMIT,
    ERROR_TYPE_LIMIT,
    Chat,
    Game,
    Invite,
    LoginUser,
    MoveResult,
    Status,
    SwapResult,
    cut,
    field_problem,
)
from bot.api.submission import Kind, Submission
from bot.api.transport import Answer, Transport, check_base_url, masked_url, retry_after_seconds
from bot.errors import (
    STATUS_ERRORS,
    ApiStatusError,
    AuthError,
    ConfigError,
    HttpStatusError,
    LoginRefusedError,
    NotSentError,
    OutcomeUnknownError,
    ProtocolError,
    RateLimitedError,
    RedirectError,
    TransportError,
)
from bot.logs import Secrets

DEFAULT_BASE_URL = "https://api.wordfeud.com/wf/"
#: The official app's style of User-Agent, as the API notes recommend.
USER_AGENT = "WebFeudClient/3.0.17 (Android 10)"

log = logging.getLogger(__name__)
Model = TypeVar("Model", bound=BaseModel)
JSON = dict[str, Any]
#: What a session id may look like: cookie-safe characters only, so it can go back in a header.
_SESSION_ID = re.compile(r"[A-Za-z0-9._~+/=:-]{1,512}")


@dataclass(frozen=True)
class RetryPolicy:
    """How reads are retried: at most ``attempts`` tries within ``total_seconds``, waits growing
    from ``first_wait`` to ``max_wait`` seconds with random jitter."""

    attempts: int = 6
    total_seconds: float = 120.0
    first_wait: float = 1.0
    max_wait: float = 30.0


def _retryable(exc: BaseException) -> bool:
    return isinstance(exc, TransportError) and not isinstance(exc, OutcomeUnknownError)


class WordfeudClient:
    """A logged-in (or logging-in) user of the Wordfeud API at ``base_url``.

    ``on_session`` is called with each new session id (the store keeps it so cron runs need not
    log in every time); ``sleep`` is what the retries wait with (tests pass a no-op). A ``read_only``
    client refuses every write (``NotSentError``): nothing it does changes anything on the server.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        *,
        credentials: Credentials | None = None,
        session_id: str | None = None,
        user_id: int | None = None,
        timeout: float = 15.0,
        retry: RetryPolicy | None = None,
        http: requests.Session | None = None,
        sleep: Callable[[float], None] = time.sleep,
        on_session: Callable[[str, int], None] | None = None,
        read_only: bool = False,
    ) -> None:
        try:
            self.base_url = check_base_url(base_url)
        except ValueError as exc:
            raise ConfigError(f"api.base_url: {exc}") from None
        self.credentials = credentials
        self._secrets = Secrets(tuple(credentials.secrets()) if credentials is not None else ())
        self.session_id: str | None = None
        if session_id is not None and _SESSION_ID.fullmatch(session_id):
            self._keep_session(session_id)
        elif session_id is not None:
            log.warning("the saved session id is not usable; logging in again")
        self.user_id = user_id
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self._http = http or requests.Session()
        self._transport = Transport(self._http, timeout)
        self._transport.mount(self.base_url)
        self._sleep = sleep
        self._on_session = on_session
        self.requests_sent = 0
        #: A dry run: no write is sent (checked in ``_call``, the one way out for every write).
        self.read_only = read_only

    def __repr__(self) -> str:
        return f"WordfeudClient({self.base_url!r}, user_id={self.user_id})"

    # -- session ----------------------------------------------------------------------------

    def login(self) -> LoginUser:
        """Log in with the credentials; keeps the new session id. Raises AuthError when refused."""
        if self.credentials is None:
            raise LoginRefusedError("login_required", "no credentials to log in with")
        creds = self.credentials
        key = {"email": "email", "username": "username", "id": "id"}[creds.method]
        path = {"email": "user/login/email/", "username": "user/login/", "id": "user/login/id/"}[creds.method]
        value: str | int = int(creds.login) if creds.method == "id" else creds.login
        self._forget_session()
        try:
            content = self._call(path, {key: value, "password": creds.password_hash}, write=False, auth=False)
        except HttpStatusError as exc:
            if exc.status in (401, 403):
                raise AuthError(f"http_{exc.status}", f"HTTP {exc.status}", path) from None
            raise
        user = self._parse(LoginUser, content, path)
        if self.session_id is None:
            raise ProtocolError(f"{path}: the login answer set no usable sessionid cookie")
        self.user_id = user.id
        log.info("logged in as %s (user id %d)", self._scrub(user.username), user.id)
        if self._on_session is not None:
            self._on_session(self.session_id, user.id)
        return user

    def _forget_session(self) -> None:
        self.session_id = None

    def _keep_session(self, session_id: str) -> None:
        self.session_id = session_id
        self._secrets.add_session(session_id)

    def _scrub(self, text: str) -> str:
        """``text`` (from the server) with the password hash and every session id seen replaced by ``***``."""
        return self._secrets.scrub(text)

    # -- reading ----------------------------------------------------------------------------

    def status(self) -> Status:
        """``user/status/``: games with their ``updated`` stamps, invites, random requests."""
        return self._parse(Status, self._call("user/status/"), "user/status/")

    def game(self, game_id: int) -> Game:
        """``game/<id>/``: one game with tiles, rack and bag count."""
        path = f"game/{game_id}/"
        content = self._call(path)
        return self._parse(Game, content.get("game"), path)

    def board(self, board_id: int) -> list[list[int]]:
        """``board/<id>/``: the 15x15 premium grid (``[y][x]``, codes 0..4); ``Store.board_grid`` caches it."""
        path = f"board/{board_id}/"
        grid = self._call(path).get("board")
        if not (
            isinstance(grid, list)
            and len(grid) == 15
            and all(isinstance(row, list) and len(row) == 15 for row in grid)
            and all(isinstance(v, int) and 0 <= v <= 4 for row in grid for v in row)
        ):
            raise ProtocolError(f"{path}: 'board' is not a 15x15 grid of codes 0..4")
        return grid

    # -- writing ----------------------------------------------------------------------------

    def submit(self, game_id: int, submission: Submission) -> int | None:
        """Send a move, swap or pass (``game/<id>/move|swap|pass/``); a move's points as the server scored them."""
        if submission.kind is Kind.MOVE:
            return self.move(game_id, submission).points
        if submission.kind is Kind.SWAP:
            self.swap(game_id, submission)
        else:
            self.pass_turn(game_id)
        return None

    def move(self, game_id: int, submission: Submission) -> MoveResult:
        """``game/<id>/move/``: place the submission's tiles ``[x, y, letter, is_blank]`` with its main word."""
        path = f"game/{game_id}/move/"
        return self._parse(MoveResult, self._call(path, submission.body(), write=True), path)

    def swap(self, game_id: int, submission: Submission) -> SwapResult:
        """``game/<id>/swap/``: exchange the submission's rack letters (``""`` for a blank)."""
        path = f"game/{game_id}/swap/"
        return self._parse(SwapResult, self._call(path, submission.body(), write=True), path)

    def pass_turn(self, game_id: int) -> JSON:
        """``game/<id>/pass/``."""
        return self._call(f"game/{game_id}/pass/", write=True)

    def accept_invite(self, invite_id: int) -> int:
        """``invite/<id>/accept/``; returns the new game's id."""
        path = f"invite/{invite_id}/accept/"
        game_id = self._call(path, write=True).get("id")
        if not isinstance(game_id, int) or isinstance(game_id, bool):
            raise ProtocolError(f"{path}: the answer has no game 'id'")
        return game_id

    def reject_invite(self, invite_id: int) -> None:
        """``invite/<id>/reject/``."""
        self._call(f"invite/{invite_id}/reject/", write=True)

    def chat(self, game_id: int) -> Chat:
        """``game/<id>/chat/``: the game's chat messages."""
        path = f"game/{game_id}/chat/"
        return self._parse(Chat, self._call(path), path)

    def send_chat(self, game_id: int, message: str) -> None:
        """``game/<id>/chat/send/``: one message (a write: never retried blindly)."""
        self._call(f"game/{game_id}/chat/send/", {"message": message}, write=True)

    def random_request(self, ruleset: int, board_type: str = "normal") -> JSON:
        """``random_request/create/``: ask to be paired with a random opponent."""
        return self._call("random_request/create/", {"ruleset": ruleset, "board_type": board_type}, write=True)

    # -- plumbing ---------------------------------------------------------------------------

    def _call(self, path: str, body: JSON | None = None, *, write: bool = False, auth: bool = True) -> JSON:
        """The ``content`` of a successful answer; raises the precise ApiError otherwise (``NotSentError``
        for a write of a read-only client, which is not sent)."""
        if write and self.read_only:
            fields = ", ".join(sorted(body)) if body else "no fields"
            log.info("dry run: %s not sent (%s)", path, fields)
            raise NotSentError(f"{path}: not sent (dry run)")
        if auth and self.session_id is None and self.credentials is not None:
            self.login()
        for attempt in (1, 2):
            envelope = self._send_once(path, body) if write else self._send_retrying(path, body)
            content: JSON = envelope["content"]
            if envelope["status"] == "success":
                return content
            raw_type, raw_message = content.get("type"), content.get("message")
            type_ = raw_type if isinstance(raw_type, str) else "unknown_error"
            type_ = cut(self._scrub(type_), ERROR_TYPE_LIMIT, "error type")
            message = raw_message if isinstance(raw_message, str) else ""
            message = cut(self._scrub(message), ERROR_MESSAGE_LIMIT, "error message")
            if type_ == "login_required" and auth and attempt == 1 and self.credentials is not None:
                log.info("%s: session expired; logging in again", path)
                self.login()
                continue
            raise STATUS_ERRORS.get(type_, ApiStatusError)(type_, message, path)
        raise AssertionError("unreachable")  # pragma: no cover

    def _send_retrying(self, path: str, body: JSON | None) -> JSON:
        policy = self.retry
        retrying = Retrying(
            retry=retry_if_exception(_retryable),
            stop=stop_after_attempt(policy.attempts) | stop_after_delay(policy.total_seconds),
            wait=self._wait,
            sleep=self._sleep,
            reraise=True,
            before_sleep=_log_retry,
        )
        return retrying(self._send, path, body)

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, RateLimitedError) and exc.retry_after is not None:
            asked = exc.retry_after
            if math.isfinite(asked) and asked >= 0:  # anything else: our own backoff
                return min(asked, self.retry.max_wait)
        return float(wait_exponential_jitter(initial=self.retry.first_wait, max=self.retry.max_wait)(state))

    def _send_once(self, path: str, body: JSON | None) -> JSON:
        try:
            return self._send(path, body)
        except RateLimitedError:
            raise  # refused before it was carried out
        except TransportError as exc:
            raise OutcomeUnknownError(f"{exc}; the request may or may not have been carried out") from exc

    def _send(self, path: str, body: JSON | None) -> JSON:
        """One HTTP exchange, turned into an envelope dict or the precise ApiError."""
        headers = {
            "Content-Type": "application/json; charset=UTF-8",
            "Accept": "application/json",
            "Accept-Encoding": "identity",
            "User-Agent": USER_AGENT,
        }
        if self.session_id is not None:
            headers["Cookie"] = f"sessionid={self.session_id}"
        data = json.dumps(body if body is not None else {}).encode("utf-8")
        self.requests_sent += 1
        answer = self._transport.post(self.base_url + path, data, headers, path)
        self._check_status(answer, path)
        envelope = _decode_json(answer.body, path)
        if (
            not isinstance(envelope, dict)
            or envelope.get("status") not in ("success", "error")
            or not isinstance(envelope.get("content"), dict)
        ):
            raise ProtocolError(f"{path}: the answer is not a {{status, content}} envelope")
        session = _session_cookie(answer.set_cookies)
        if session is not None:
            self._keep_session(session)
        log.debug("%s -> %s", path, envelope["status"])
        return envelope

    def _check_status(self, answer: Answer, path: str) -> None:
        """Raise for any status but 200: 429 and 5xx (and oddities) are worth another try, a
        redirect or another 4xx is final."""
        status = answer.status
        if status == 200:
            return
        if status == 429:
            wait = retry_after_seconds(answer.headers.get("Retry-After"))
            raise RateLimitedError(f"{path}: HTTP 429 (rate limited)", wait)
        if 300 <= status < 400:
            location = answer.headers.get("Location")
            shown = masked_url(self._scrub(location)) if location is not None else "nowhere (no Location)"
            raise RedirectError(path, status, shown)
        if 400 <= status < 500:
            raise HttpStatusError(path, status)
        raise TransportError(f"{path}: HTTP {status}")

    def _parse(self, model: type[Model], data: Any, path: str) -> Model:
        try:
            return model.model_validate(data)
        except ValidationError as exc:  # keys (and so the field's name) may come from the server: scrubbed
            raise ProtocolError(self._scrub(f"{path}: {model.__name__} {field_problem(exc)}")[:300]) from None


def _log_retry(state: RetryCallState) -> None:
    exc = state.outcome.exception() if state.outcome else None
    log.warning("%s; retrying (attempt %d)", exc, state.attempt_number + 1)


class _RefusedJsonError(ValueError):
    """A JSON value the client does not accept, though ``json`` would."""


#: Integers longer than this are refused with the whole answer (no id or count comes near; converting
#: thousands of digits is slow). Shorter ones out of range are refused by the models, naming the field.
_MAX_INT_DIGITS = 40
_SURROGATE = re.compile("[\ud800-\udfff]")  # json joins escaped pairs: what is left of these is alone


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS:
        raise _RefusedJsonError(f"an integer of {len(text.lstrip('-'))} digits")
    return int(text)


def _whole_strings(value: Any) -> Any:
    """``value`` with every lone surrogate (from a ``\\ud800`` escape) replaced by U+FFFD, so each string
    can be stored and logged; a malformed entry is then refused by its model, not the whole answer."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_whole_strings(item) for item in value]
    if isinstance(value, dict):
        return {_whole_strings(key): _whole_strings(item) for key, item in value.items()}
    return value


def _decode_json(body: bytes, path: str) -> Any:
    """The parsed body; TransportError for anything that is not UTF-8 JSON, nested too deeply or
    with absurdly long integers. NaN, infinities and numbers out of range are left to the models,
    which refuse them naming the field (so one bad entry of a list does not spoil the answer)."""
    try:
        text = body.decode("utf-8")
        value = json.loads(text, parse_int=_bounded_int)
        if "\\u" in text:  # only an escape can make a lone surrogate
            value = _whole_strings(value)
    except RecursionError:
        raise TransportError(f"{path}: the answer is JSON nested too deeply") from None
    except _RefusedJsonError as exc:
        raise TransportError(f"{path}: the answer has {exc}") from None
    except (UnicodeError, ValueError):
        raise TransportError(f"{path}: the answer is not JSON") from None
    return value


def _session_cookie(set_cookies: Sequence[str]) -> str | None:
    """The ``sessionid`` of the ``Set-Cookie`` values, if one is a usable token (the first one wins)."""
    for header in set_cookies:
        name, sep, value = header.partition(";")[0].partition("=")
        if sep and name.strip() == "sessionid":
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            return value if _SESSION_ID.fullmatch(value) else None
    return None


__all__ = ["DEFAULT_BASE_URL", "USER_AGENT", "Invite", "RetryPolicy", "WordfeudClient"]
