"""The requests of one pass with chat on (``[chat] enabled``): a status listing more new games than
``schedule.max_games_per_pass``, each new (greeted) and with an opponent's message (its chat read), costs
at most 1 + 3 × the cap requests, the bound docs/reliability.md states: the status, and for each game read
the game, the one line the bot says (a greeting or a closing line) and the chat read."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import requests
import responses

from bot.api.client import RetryPolicy, WordfeudClient
from bot.play.chat import ChatLines, Chatter
from bot.play.reads import ReadSchedule
from bot.play.service import Bot
from bot.play.turn import TurnPlayer
from bot.store.store import Store
from tests.bot.helpers import BASE, SESSION, err, game_json, ok
from tests.hostile.flood import BOT_ID, Ticker
from tests.lexicons import english

CAP = 50  # schedule.max_games_per_pass's default
FIRST = 5_000_000_000
GAMES = 80


def chatty_api(counts: dict[str, int]) -> responses.RequestsMock:
    """A server listing ``GAMES`` new games, the opponent's turn in each, one opponent message in each."""
    games = [FIRST + i for i in range(GAMES)]

    def answer(request: requests.PreparedRequest) -> tuple[int, dict[str, str], str]:
        path = str(request.url).removeprefix(BASE)
        content: dict[str, Any]
        kind = re.sub(r"\d+", "N", path)
        counts[kind] = counts.get(kind, 0) + 1
        if path == "user/status/":
            content = {"games": [{"id": g, "updated": 1.0} for g in games]}
        elif match := re.fullmatch(r"game/(\d+)/", path):
            content = {"game": game_json(id=int(match.group(1)), move_count=1, current_player=1, chat_count=1)}
        elif re.fullmatch(r"game/\d+/chat/", path):
            content = {"messages": [{"message": "hi", "sender": 8, "sent": 1.0}]}
        elif re.fullmatch(r"game/\d+/chat/send/", path):
            content = {}
        else:
            return 200, {}, json.dumps(err("unknown_request"))
        return 200, {}, json.dumps(ok(content))

    mock = responses.RequestsMock()
    mock.add_callback(responses.POST, re.compile(re.escape(BASE) + ".*"), callback=answer)
    return mock


def chatty_bot(store: Store, *, chat: bool) -> Bot:
    """The bot's pass as ``bot.play.app.build`` wires it, with chat on or off."""
    clock = Ticker()
    client = WordfeudClient(BASE, session_id=SESSION, user_id=BOT_ID, sleep=lambda s: None, retry=RetryPolicy(1))
    chatter = None
    if chat:
        messages = lambda game_id: [(m.message, m.sender, m.sent) for m in client.chat(game_id).messages]  # noqa: E731
        chatter = Chatter(store, client.send_chat, messages, ChatLines())
    turns = TurnPlayer(client, store, lambda ruleset: english(), clock=clock, chatter=chatter)
    return Bot(client, store, turns, reads=ReadSchedule(clock, per_pass=CAP))


def test_a_pass_with_chat_on_makes_at_most_1_plus_3_times_the_cap_requests() -> None:
    counts: dict[str, int] = {}
    with chatty_api(counts):
        report = chatty_bot(Store(":memory:"), chat=True).run_pass()
    assert not report.errors and len(report.turns) == CAP
    assert counts == {"user/status/": 1, "game/N/": CAP, "game/N/chat/send/": CAP, "game/N/chat/": CAP}
    assert sum(counts.values()) == 1 + 3 * CAP == 151  # the bound docs/reliability.md states, reached
    reliability = (Path(__file__).parents[2] / "docs" / "reliability.md").read_text(encoding="utf-8")
    assert "with chat on at most 1 + 3 × 50 (151)" in reliability


def test_a_pass_with_chat_off_makes_1_plus_the_cap_requests() -> None:
    counts: dict[str, int] = {}
    with chatty_api(counts):
        chatty_bot(Store(":memory:"), chat=False).run_pass()
    assert sum(counts.values()) == 1 + CAP == 51
