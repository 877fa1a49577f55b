"""The bot's word in a game's chat (``[chat]``, off by default): a greeting when a game starts and one
closing line when it ends, in the game's language, and the opponent's messages kept for the status page.

Each line is sent at most once: the store marks the event before the message goes out, so neither a
crash nor a lost answer can send it twice (a message whose sending failed is not sent again). A dry run
says nothing and marks nothing: it logs the line it would send, and the real run after it still sends
it (a game is greeted while it is young, at most one move made, whether or not a run saw it before).
Incoming messages are stored
as text to show, never read for commands.
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Protocol

from bot.api.models import Game
from bot.errors import BotError
from engine.rules.ruleset import Ruleset

log = logging.getLogger(__name__)

@cache
def _lines() -> dict[str, dict[str, str]]:
    text = resources.files("bot.data").joinpath("chat.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def default_line(ruleset: int, event: str) -> str:
    """The built-in line of an event in the ruleset's language."""
    data = _lines()
    language = data["languages"][Ruleset.for_id(ruleset).code]
    return data[language][event]


def _plain(text: str) -> str:
    """A name as it goes into a message: printable characters only, at most 40."""
    return "".join(ch for ch in text if ch.isprintable())[:40]


@dataclass(frozen=True)
class ChatLines:
    """The configured lines (None: the built-in line of the game's language)."""

    greeting: str | None = None
    won: str | None = None
    lost: str | None = None
    drawn: str | None = None

    def line(self, game: Game, user_id: int, event: str) -> str:
        me, other = game.me(user_id), game.opponent(user_id)
        template = getattr(self, event) or default_line(game.ruleset, event)
        return template.format(opponent=_plain(other.username or "there"), my_score=me.score, their_score=other.score)


class ChatStore(Protocol):
    """What ``Chatter`` needs of the store (``bot.store.store.Store`` has it)."""

    def mark_chat(self, game_id: int, event: str) -> bool: ...

    def chat_said(self, game_id: int, event: str) -> bool: ...

    def chat_read(self, game_id: int) -> int: ...

    def add_chat(self, game_id: int, messages: list[tuple[str, float]], read: int) -> None: ...


class Chatter:
    """Greets, says goodbye and keeps the opponent's messages; ``send`` and ``read`` are the client's."""

    def __init__(
        self,
        store: ChatStore,
        send: Callable[[int, str], None],
        read: Callable[[int], list[tuple[str, int, float]]],
        lines: ChatLines,
        *,
        greet: bool = True,
        dry_run: bool = False,
    ) -> None:
        self.store = store
        self.send = send
        self.read = read
        self.lines = lines
        self.greet = greet
        self.dry_run = dry_run  # log what would be said; send and mark nothing

    def observe(self, game: Game, user_id: int, was_running: bool | None) -> None:
        """After a game was read: ``was_running`` is what the store knew before (None: a new game)."""
        if self.greet and game.is_running and game.move_count <= 1:
            self._say(game, user_id, "greeting")
        if not game.is_running and was_running:
            me, other = game.me(user_id).score, game.opponent(user_id).score
            self._say(game, user_id, "won" if me > other else "lost" if other > me else "drawn")
        if game.chat_count > self.store.chat_read(game.id):
            self._read(game, user_id)

    def _say(self, game: Game, user_id: int, event: str) -> None:
        mark = "greeting" if event == "greeting" else "closing"
        if self.dry_run:
            if not self.store.chat_said(game.id, mark):
                log.info("game %d: dry run: would say %r", game.id, self.lines.line(game, user_id, event))
            return
        if not self.store.mark_chat(game.id, mark):
            return  # said already
        text = self.lines.line(game, user_id, event)
        try:
            self.send(game.id, text)
        except BotError as exc:
            log.warning("game %d: the %s was not sent (it is not tried again): %s", game.id, event, exc)
            return
        log.info("game %d: said %r", game.id, text)

    def _read(self, game: Game, user_id: int) -> None:
        try:
            messages = self.read(game.id)
        except BotError as exc:
            log.warning("game %d: cannot read the chat: %s", game.id, exc)
            return
        theirs = [(text, sent) for text, sender, sent in messages if sender != user_id]
        self.store.add_chat(game.id, theirs, len(messages))
