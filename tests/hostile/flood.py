"""A server that floods the bot, pass after pass: games whose ``updated`` stamp moves on every
poll while nothing else changes, opponents with huge names full of control characters, and a status
listing thousands of games whose reads fail with a huge, forging error text. Answers through
``responses``; ``bot_for`` wires the bot's pass to it with an injected clock.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import requests
import responses

from bot.api.client import RetryPolicy, WordfeudClient
from bot.play.reads import ReadSchedule
from bot.play.service import Bot
from bot.play.turn import TurnPlayer
from bot.store.store import Store
from tests.bot.helpers import BASE, SESSION, err, game_json, ok
from tests.lexicons import english

BOT_ID = 7  # the bot's user id in ``game_json``
KNOWN_FIRST = 3_000_000_000
UNKNOWN_FIRST = 4_000_000_000
#: What a forging, terminal-hijacking text looks like (a newline, a fake ERROR record, ESC, BEL, C1 CSI).
FORGERY = "\n2026-01-01 00:00:00,000 ERROR   bot.play.service: forged\x1b[2J\x07\x9b31m\u2028"
Reply = tuple[int, dict[str, str], str]


class FloodApi:
    """``known`` readable games (not the bot's turn, a new stamp every pass, the opponent named
    ``name_chars`` characters of forgery) and ``unknown`` listed games whose reads fail with an error
    text of ``message_chars`` characters that changes every pass. ``next_pass`` moves the stamps."""

    def __init__(self, known: int, unknown: int, *, name_chars: int = 64, message_chars: int = 100) -> None:
        self.known = [KNOWN_FIRST + i for i in range(known)]
        self.unknown = [UNKNOWN_FIRST + i for i in range(unknown)]
        self.name = ("eve" + FORGERY * (name_chars // len(FORGERY) + 1))[:name_chars]
        self.message_chars = message_chars
        self.pass_number = 0
        self.requests = 0
        self.reads: Counter[int] = Counter()

    def next_pass(self) -> None:
        self.pass_number += 1

    def answer(self, path: str) -> Reply:
        self.requests += 1
        if path == "user/status/":
            stamp = float(self.pass_number)
            return _reply(ok({"games": [{"id": g, "updated": stamp} for g in self.known + self.unknown]}))
        match = re.fullmatch(r"game/(\d+)/", path)
        if match is None:
            return _reply(err("unknown_request"))
        game_id = int(match.group(1))
        self.reads[game_id] += 1
        if game_id in self.known:
            game = game_json(id=game_id, updated=float(self.pass_number), current_player=1)
            game["players"][1]["username"] = self.name
            return _reply(ok({"game": game}))
        text = f"pass {self.pass_number}: " + FORGERY * (self.message_chars // len(FORGERY) + 1)
        return _reply(err("unknown_game", text[: self.message_chars]))

    def install(self, mock: responses.RequestsMock) -> None:
        def callback(request: requests.PreparedRequest) -> Reply:
            return self.answer(str(request.url).removeprefix(BASE))

        mock.add_callback(responses.POST, re.compile(re.escape(BASE) + ".*"), callback=callback)


def _reply(envelope: dict[str, Any]) -> Reply:
    return 200, {}, json.dumps(envelope)


def bot_for(store: Store, clock: Callable[[], float], per_pass: int = 50, *, keep: bool = False) -> Bot:
    """The bot's pass as the service wires it, logged in as ``BOT_ID``, reads tried once; with ``keep``
    the read failures are kept in the store (as ``bot.play.app.build`` does)."""
    client = WordfeudClient(BASE, session_id=SESSION, user_id=BOT_ID, sleep=lambda s: None, retry=RetryPolicy(1))
    turns = TurnPlayer(client, store, lambda ruleset: english(), clock=clock)
    return Bot(client, store, turns, reads=ReadSchedule(clock, per_pass=per_pass, store=store if keep else None))


class Ticker:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
