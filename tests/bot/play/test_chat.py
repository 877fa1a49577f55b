"""Chat (off by default): over HTTP against the sandbox, one greeting when a game starts and one closing
line when it ends, in the game's language, never twice (a second bot on the same state says nothing);
the opponent's messages are kept (the newest, cut to a bound) and shown on the status page as text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.api.models import CHAT_MESSAGE_LENGTH, Chat, Game
from bot.errors import ApiError
from bot.play.chat import ChatLines, Chatter, default_line
from bot.play.daemon import Daemon
from bot.play.service import PassReport
from bot.settings.config import ChatConfig, parse_config
from bot.store.people_store import CHAT_KEPT
from bot.store.store import Store
from bot.views.status_page import fragment, snapshot
from tests.bot.conftest import Sandbox
from tests.bot.helpers import game_json


def _play_out(sandbox: Sandbox, store_path: Path, **sections: dict[str, object]) -> None:
    wiring = sandbox.wire(store_path, None, **sections)
    games = list(sandbox.state.games.values())

    def all_over(report: PassReport) -> bool:
        return all(g.game.is_over for g in games) and not wiring.store.running_ids()

    try:
        Daemon(wiring.bot, poll_seconds=0.05, until=all_over).run(handle_signals=False)
    finally:
        wiring.store.close()


def _said(sandbox: Sandbox, game_id: int) -> list[str]:
    game = sandbox.state.games[game_id]
    return [str(m["message"]) for m in game.chat if m["sender"] == sandbox.me.id]


def test_chat_is_off_by_default(sandbox: Sandbox, tmp_path: Path) -> None:
    assert ChatConfig().enabled is False
    game = sandbox.game(5)
    _play_out(sandbox, tmp_path / "state.db")
    assert _said(sandbox, game.id) == []


def test_one_greeting_and_one_closing_line_in_the_games_language(sandbox: Sandbox, tmp_path: Path) -> None:
    first, second = sandbox.game(5), sandbox.game(5)
    first.chat.append({"message": "hello bot\u001b[31m", "sender": sandbox.house.id, "sent": 1.5})
    _play_out(sandbox, tmp_path / "state.db", chat={"enabled": True})
    store = Store(tmp_path / "state.db")
    assert store.chat(first.id) == [(1.5, "hello bot\u001b[31m")]  # read over HTTP, kept as text
    assert store.chat(second.id) == []  # the bot's own lines are not kept
    store.close()
    for game in (first, second):
        said = _said(sandbox, game.id)
        assert len(said) == 2, said
        assert said[0] == "Hi house, good luck!"
        seat = game.players.index(sandbox.me.id)
        me, them = game.game.scores[seat], game.game.scores[1 - seat]
        event = "won" if me > them else "lost" if them > me else "drawn"
        assert said[1] == default_line(5, event).format(opponent="house", my_score=me, their_score=them)
    # the same state file on the next run: the games are over and were greeted; nothing more is said
    _play_out(sandbox, tmp_path / "state.db", chat={"enabled": True})
    assert len(_said(sandbox, first.id)) == 2


def test_configured_lines_replace_the_built_in_ones_and_bad_fields_are_refused() -> None:
    config = parse_config({"chat": {"enabled": True, "greeting": "Hello {opponent}", "closing_won": "gg {my_score}"}})
    lines = ChatLines(config.chat.greeting, config.chat.closing_won)
    game = Game.model_validate(game_json())
    assert lines.line(game, 7, "greeting") == "Hello them"
    assert lines.line(game, 7, "won") == "gg 10"
    assert lines.line(game, 7, "lost") == "Well played, them! 12-10 to you."
    assert default_line(1, "greeting") == "Hei {opponent}, lykke til!"
    assert default_line(10, "greeting") != default_line(1, "greeting")  # nynorsk has its own lines
    with pytest.raises(Exception, match=r"chat.greeting.*unknown field \{password\}"):
        parse_config({"chat": {"greeting": "hi {password}"}})


class _Store:
    def __init__(self) -> None:
        self.marks: set[str] = set()
        self.read = 0
        self.kept: list[tuple[str, float]] = []

    def mark_chat(self, game_id: int, event: str) -> bool:
        key = f"{game_id}:{event}"
        new = key not in self.marks
        self.marks.add(key)
        return new

    def chat_said(self, game_id: int, event: str) -> bool:
        return f"{game_id}:{event}" in self.marks

    def chat_read(self, game_id: int) -> int:
        return self.read

    def add_chat(self, game_id: int, messages: list[tuple[str, float]], read: int) -> None:
        self.kept = messages
        self.read = read


def test_a_failed_send_is_not_tried_again_and_only_new_games_are_greeted() -> None:
    store, sent = _Store(), []

    def failing(game_id: int, text: str) -> None:
        sent.append(text)
        raise ApiError("HTTP 500")

    chatter = Chatter(store, failing, lambda game_id: [], ChatLines())
    game = Game.model_validate(game_json(move_count=1))
    chatter.observe(game, 7, None)
    chatter.observe(game, 7, None)
    assert sent == ["Hi them, good luck!"]  # once, though it failed
    old = Game.model_validate(game_json(id=5, move_count=9))
    chatter.observe(old, 7, None)  # first seen in the middle of the game: no greeting
    over = Game.model_validate(game_json(id=6, is_running=False))
    chatter.observe(over, 7, None)  # first seen already over: no closing line
    assert len(sent) == 1


def test_incoming_messages_are_kept_bounded_and_shown_as_text(tmp_path: Path) -> None:
    long = "x" * (CHAT_MESSAGE_LENGTH + 100)
    chat = Chat.model_validate({"messages": [{"message": long, "sender": 8, "sent": 1.0}]})
    assert len(chat.messages[0].message) == CHAT_MESSAGE_LENGTH
    store = Store(tmp_path / "state.db")
    game = Game.model_validate(game_json(chat_count=CHAT_KEPT + 5))
    store.record_game(game, 7)
    messages = [(f"<script>alert({i})</script>", 8, float(i)) for i in range(CHAT_KEPT + 4)]
    messages.append(("mine", 7, 99.0))
    chatter = Chatter(store, lambda game_id, text: None, lambda game_id: messages, ChatLines(), greet=False)
    chatter.observe(game, 7, True)
    kept = store.chat(game.id)
    assert len(kept) == CHAT_KEPT and kept[-1][1] == f"<script>alert({CHAT_KEPT + 3})</script>"
    assert store.chat_read(game.id) == CHAT_KEPT + 5
    facts = snapshot(store, {"now": 0, "healthy": True, "reason": "", "passes": 0, "started": 0,
                             "last_success": None, "last_error": None, "last_error_at": None})  # fmt: skip
    html = fragment(facts)
    assert "&lt;script&gt;alert(" in html and "<script>alert(" not in html
    assert json.dumps(facts)  # the page's JSON has them too, as data
    store.close()
