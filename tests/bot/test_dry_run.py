"""A dry run (``once --dry-run``, ``play.dry_run``) changes nothing on the server: no move, swap or pass,
no chat line, no invitation answered, no random opponent asked for; and it records in the state file
neither a greeting nor an act, so the real run after it still greets and plays. Against the sandbox on
127.0.0.1: its whole state is compared before and after."""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.api.client import WordfeudClient
from bot.api.credentials import Credentials
from bot.api.submission import Kind, Submission
from bot.errors import NotSentError
from bot.store.store import DecisionStatus
from sandbox.state import Invite, State
from tests.bot.conftest import BOT_EMAIL, BOT_PASSWORD, Sandbox

#: The client's methods that only read (or log in). Every other public method is taken for a write and
#: must be refused by a read-only client: a new method is listed here or in ``_WRITES`` below.
READS = frozenset({"login", "status", "game", "board", "chat"})

_MOVE = Submission(Kind.MOVE, "H8 AT", 2, tiles=((7, 7, "A", False), (8, 7, "T", False)), words=("AT",))
#: One call of each write method (game and invite ids filled in by the test).
_WRITES: dict[str, Callable[[WordfeudClient, int, int], Any]] = {
    "submit": lambda client, game, invite: client.submit(game, _MOVE),
    "move": lambda client, game, invite: client.move(game, _MOVE),
    "swap": lambda client, game, invite: client.swap(game, Submission(Kind.SWAP, "-AB", letters=("A", "B"))),
    "pass_turn": lambda client, game, invite: client.pass_turn(game),
    "accept_invite": lambda client, game, invite: client.accept_invite(invite),
    "reject_invite": lambda client, game, invite: client.reject_invite(invite),
    "send_chat": lambda client, game, invite: client.send_chat(game, "hello"),
    "random_request": lambda client, game, invite: client.random_request(5),
}


def server_state(state: State) -> str:
    """Everything the sandbox keeps that a request could change (sessions aside: logging in is a read)."""
    games = {
        game_id: {
            "history": [repr(turn) for turn in sgame.game.history],
            "scores": list(sgame.game.scores),
            "current": sgame.game.current,
            "over": sgame.game.is_over,
            "updated": sgame.updated,
            "chat": sgame.chat,
        }
        for game_id, sgame in state.games.items()
    }
    return json.dumps(
        {
            "games": games,
            "invites": sorted(state.invites),
            "random_requests": sorted(state.random_requests),
            "submissions": [repr(s) for s in state.submissions],
            "notifications": state.notifications,
            "counters": state.counters(),
        },
        sort_keys=True,
        default=str,
    )


def _invite_from_ann(sandbox: Sandbox) -> int:
    ann = sandbox.state.add_user("ann", "ann@example.org", "ann-pw")
    invite = Invite(sandbox.state.next_id("invite"), ann.id, sandbox.me.id, 5, "normal", sandbox.state.clock())
    sandbox.state.invites[invite.id] = invite
    return invite.id


def test_a_read_only_client_sends_no_write_of_any_kind(sandbox: Sandbox) -> None:
    public = {name for name, _ in inspect.getmembers(WordfeudClient, inspect.isfunction) if not name.startswith("_")}
    assert public - READS == set(_WRITES), "a new client method: list it in READS or give it a call in _WRITES"
    game = sandbox.game(5)
    invite = _invite_from_ann(sandbox)
    credentials = Credentials.from_password("email", BOT_EMAIL, BOT_PASSWORD)
    client = WordfeudClient(sandbox.server.base_url, credentials=credentials, sleep=lambda s: None, read_only=True)
    client.status()  # logged in, and reading works
    before, sent = server_state(sandbox.state), client.requests_sent
    for name, call in _WRITES.items():
        with pytest.raises(NotSentError, match=r"not sent \(dry run\)"):
            call(client, game.id, invite)
        assert client.requests_sent == sent, f"{name} sent a request"
    assert server_state(sandbox.state) == before
    writable = WordfeudClient(sandbox.server.base_url, credentials=credentials, sleep=lambda s: None)
    writable.send_chat(game.id, "hello")  # the same call of a client that may write does change the server
    assert server_state(sandbox.state) != before


def test_a_dry_run_pass_changes_nothing_and_the_real_run_after_it_still_greets(
    sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    chat: dict[str, object] = {"enabled": True}
    random: dict[str, object] = {"keep": 4}
    ended = sandbox.game(5)  # greeted by a real run, then over: the dry run must not say goodbye
    real = sandbox.wire(tmp_path / "state.db", chat={"enabled": True})
    real.bot.run_pass()
    real.store.close()
    assert [m["message"] for m in ended.chat] == ["Hi house, good luck!"]
    ended.game.resign(ended.players.index(sandbox.house.id))
    ended.updated = sandbox.state.clock()
    fresh = sandbox.game(5)  # the bot's turn, never seen: a real run greets it and plays
    invite = _invite_from_ann(sandbox)
    before = server_state(sandbox.state)

    dry = sandbox.wire(tmp_path / "state.db", play={"dry_run": True}, chat=chat, random_games=random)
    with caplog.at_level(logging.INFO):
        report = dry.bot.run_pass()
    assert server_state(sandbox.state) == before  # no move, chat, invite answer or random request
    assert report.errors == [] and report.accepted == [] and report.requested == 0
    assert [t.outcome for t in report.turns if t.game_id == fresh.id] == ["dry_run"]
    assert f"invite {invite}: accept" in report.withheld
    assert report.running >= 2  # the fresh game and the invitation it would accept
    assert sum(w.startswith("random request") for w in report.withheld) == 4 - report.running
    said = [r.getMessage() for r in caplog.records]
    assert f"game {fresh.id}: dry run: would say 'Hi house, good luck!'" in said
    assert any("dry run: would accept invite" in line for line in said)
    assert not any("not sent (" in line for line in said)  # no write even reached the client's guard
    assert not dry.store.chat_said(fresh.id, "greeting") and not dry.store.chat_said(ended.id, "closing")
    assert [d.status for d in dry.store.decisions(fresh.id)] == [DecisionStatus.DRY_RUN]
    dry.store.close()

    again = sandbox.wire(tmp_path / "state.db", chat=chat, random_games=random)  # the real run after the dry run
    report = again.bot.run_pass()
    again.store.close()
    assert [m["message"] for m in fresh.chat][:1] == ["Hi house, good luck!"]
    assert report.accepted == [invite] and report.requested == 4 - report.running
    assert report.requested > 0 and invite not in sandbox.state.invites
    assert fresh.game.history and fresh.game.history[0].player == fresh.players.index(sandbox.me.id)
