"""A pass over the account: invites by the filters, random opponents, only changed games; the daemon's signals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.api.models import Invite as ApiInvite
from engine.movegen.generate import generate
from sandbox.api import invite_json
from sandbox.state import Invite
from tests.bot.conftest import BOT_EMAIL, BOT_PASSWORD, Sandbox
from tests.lexicons import english


def invite(sandbox: Sandbox, inviter: int, ruleset: int = 5, board: str = "normal") -> int:
    state = sandbox.state
    item = Invite(state.next_id("invite"), inviter, sandbox.me.id, ruleset, board, state.clock())
    state.invites[item.id] = item
    return item.id


def test_invites_follow_the_filters(sandbox: Sandbox, tmp_path: Path) -> None:
    troll = sandbox.state.add_user("troll", "t@x.org", "pw")
    friend = sandbox.state.add_user("friend", "f@x.org", "pw")
    good = invite(sandbox, friend.id, 5)
    blocked = invite(sandbox, troll.id, 5)
    wrong_ruleset = invite(sandbox, friend.id, 4)
    wrong_board = invite(sandbox, friend.id, 0, "random")
    no_lexicon = invite(sandbox, friend.id, 9)
    wiring = sandbox.wire(
        tmp_path / "s.db", invites={"rulesets": [0, 5, 9], "board_types": ["normal"], "block": ["TROLL"]}
    )
    wiring.bot.has_lexicon = lambda ruleset: ruleset != 9
    report = wiring.bot.run_pass()
    assert report.accepted == [good]
    assert sorted(report.rejected) == sorted([blocked, wrong_ruleset, wrong_board, no_lexicon])
    assert sandbox.state.invites == {}
    [game] = [g for g in sandbox.state.games.values() if sandbox.me.id in g.players]
    assert game.players == (friend.id, sandbox.me.id)


def test_a_full_bot_leaves_invites_waiting_and_allow_lists_restrict(sandbox: Sandbox, tmp_path: Path) -> None:
    friend = sandbox.state.add_user("friend", "f@x.org", "pw")
    stranger = sandbox.state.add_user("stranger", "s@x.org", "pw")
    sandbox.game(5)
    waiting = invite(sandbox, friend.id)
    outsider = invite(sandbox, stranger.id)
    wiring = sandbox.wire(tmp_path / "s.db", invites={"max_games": 1, "allow": ["Friend"]})
    report = wiring.bot.run_pass()
    assert report.accepted == [] and report.rejected == [outsider]
    assert waiting in sandbox.state.invites  # waits for a free slot
    assert wiring.bot.invite_verdict(sandbox_invite(sandbox, waiting), 0) is None


def sandbox_invite(sandbox: Sandbox, invite_id: int) -> ApiInvite:
    return ApiInvite.model_validate(invite_json(sandbox.state, sandbox.state.invites[invite_id]))


def test_random_opponents_keep_the_games_going(sandbox: Sandbox, tmp_path: Path) -> None:
    wiring = sandbox.wire(tmp_path / "s.db", random_games={"keep": 3, "rulesets": [5, 0]})
    first = wiring.bot.run_pass()
    assert first.requested == 3
    rulesets = sorted(g.game.rules.id for g in sandbox.state.games.values())
    assert rulesets == [0, 5, 5]
    second = wiring.bot.run_pass()  # the three games are seen and played; none is asked for again
    assert second.requested == 0 and second.running == 3 and second.acted == 3


def test_only_changed_games_are_read(sandbox: Sandbox, tmp_path: Path) -> None:
    friend = sandbox.state.add_user("friend", "f@x.org", "pw")  # not a house player: moves only when told
    sgame = sandbox.state.new_game(friend, sandbox.me, 5)
    wiring = sandbox.wire(tmp_path / "s.db")
    first = wiring.bot.run_pass()
    assert [t.outcome for t in first.turns] == ["waiting"]
    reads = wiring.client.requests_sent
    assert wiring.bot.run_pass().turns == []
    assert wiring.client.requests_sent == reads + 1  # only user/status/: the game did not change
    game = sgame.game
    game.place(max(generate(game.board, game.rack, english(), game.rules), key=lambda m: m.score or 0))
    sgame.updated = sandbox.state.clock()
    third = wiring.bot.run_pass()
    assert [t.outcome for t in third.turns] == ["played"]


def test_sigterm_finishes_the_pass_and_exits_cleanly(sandbox: Sandbox, tmp_path: Path) -> None:
    sandbox.game(5)
    config = sandbox.config_file(tmp_path / "bot.toml", "[schedule]\npoll_seconds = 0.2\njitter_seconds = 0\n")
    env = {**os.environ, "WORDFEUD_EMAIL": BOT_EMAIL, "WORDFEUD_PASSWORD": BOT_PASSWORD}
    command = [sys.executable, "-m", "cli.main", "run", "--config", str(config), "--state", str(tmp_path / "s.db")]
    daemon = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    assert daemon.stderr is not None
    lines = []
    for line in daemon.stderr:  # wait (by reading its log) until it has played a move
        lines.append(line)
        if "played" in line:
            break
    daemon.send_signal(signal.SIGTERM)
    _, rest = daemon.communicate(timeout=60)
    log = "".join(lines) + rest
    assert daemon.returncode == 0, log
    assert "SIGTERM received" in log and "stopped after" in log
