"""The bot against the sandbox over real HTTP, whole games: the daemon, faults, ``once`` from a loop, replay."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.api.credentials import hash_password
from bot.play.daemon import Daemon
from bot.play.service import PassReport
from bot.settings.config import PlayConfig
from bot.store.store import DecisionStatus, Store
from bot.views.replay import replay
from cli.main import main
from dictionaries.registry import LexiconRegistry
from engine.game import Resign
from sandbox.faults import KINDS, Faults
from sandbox.state import SandboxGame
from tests.bot.conftest import BOT_EMAIL, BOT_PASSWORD, Sandbox


def check_games(sandbox: Sandbox, games: list[SandboxGame], store_path: Path) -> None:
    """Every game over, each bot turn in the server's history matched by exactly one applied decision."""
    store = Store(store_path)
    try:
        for sgame in games:
            assert sgame.game.is_over, f"game {sgame.id} is not over"
            seat = sgame.players.index(sandbox.me.id)
            history = sgame.game.history
            bot_turns = [i for i, t in enumerate(history) if t.player == seat and not isinstance(t.action, Resign)]
            applied = store.decisions(sgame.id, DecisionStatus.APPLIED)
            assert [d.move_count for d in applied] == bot_turns
        assert store.stats().games >= len(games) and store.stats().running == 0
    finally:
        store.close()
    assert sandbox.state.duplicate_submissions() == []


def run_daemon(
    sandbox: Sandbox,
    games: list[SandboxGame],
    store_path: Path,
    clock: Callable[[], float] | None = None,
    **sections: dict[str, object],
) -> Daemon:
    wiring = sandbox.wire(store_path, clock, **sections)

    def all_over(report: PassReport) -> bool:  # over on the server, and seen to be over by the bot
        return all(g.game.is_over for g in games) and not wiring.store.running_ids()

    daemon = Daemon(wiring.bot, poll_seconds=0.05, until=all_over)
    watchdog = threading.Timer(240, daemon.stop)  # a hung daemon fails the test instead of hanging CI
    watchdog.start()
    try:
        daemon.run(handle_signals=False)
    finally:
        watchdog.cancel()
        wiring.store.close()
    return daemon


def test_the_daemon_plays_three_games_to_the_end(sandbox: Sandbox, tmp_path: Path) -> None:
    games = [sandbox.game(5), sandbox.game(0), sandbox.game(5, "random")]
    daemon = run_daemon(sandbox, games, tmp_path / "state.db")
    assert all(g.game.is_over for g in games)
    check_games(sandbox, games, tmp_path / "state.db")
    assert daemon.passes >= 2
    assert sum(r.acted for r in daemon.reports) == len(sandbox.state.submissions)


def test_the_daemon_plays_a_whole_game_with_the_default_strategy(sandbox: Sandbox, tmp_path: Path) -> None:
    """The configuration's default strategy (sim: simulation, inference, pre-endgame and endgame search)
    through the whole service, on a short budget per move; every move it made is one the server applied."""
    assert PlayConfig().strategy == "sim"  # the default (the fixture's configurations play equity)
    games = [sandbox.game(5)]
    run_daemon(sandbox, games, tmp_path / "state.db", play={"strategy": "sim", "seconds_per_move": 0.1})
    check_games(sandbox, games, tmp_path / "state.db")
    store = Store(tmp_path / "state.db")
    try:
        assert len(store.decisions(games[0].id, DecisionStatus.APPLIED)) >= 5
    finally:
        store.close()


def test_the_daemon_survives_every_fault(sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The fault soak in-process: every fault kind switched on, ten games played to the end, no
    submission sent twice (``python -m sandbox.lab.soak`` adds kills of the bot and the server)."""
    rates = {kind: 0.03 for kind in KINDS}
    rates.update(apply_then_fail=0.04, slow=0.02)
    sandbox.server.faults = Faults(rates, seed=5, slow_seconds=0.4)
    games = [sandbox.game(ruleset, board) for ruleset, board in [(5, "normal"), (0, "normal"), (5, "random")] * 3]
    games.append(sandbox.game(0, "random"))
    with caplog.at_level(logging.INFO):
        run_daemon(
            sandbox,
            games,
            tmp_path / "state.db",
            time.monotonic,  # a game whose answer was lost waits (really) for a held request to land
            api={"timeout_seconds": 0.25, "retry_attempts": 10},
            schedule={"quarantine_seconds": 2.0},
        )
    check_games(sandbox, games, tmp_path / "state.db")
    assert not [r for r in caplog.records if r.name == "bot.play.daemon" and r.levelno >= logging.ERROR]
    messages = caplog.text
    assert "retrying" in messages and "logging in again" in messages and "reading the game again" in messages


def test_once_from_a_loop_finishes_a_game(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = sandbox.game(5)
    config = sandbox.config_file(tmp_path / "bot.toml")
    monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
    monkeypatch.setenv("WORDFEUD_PASSWORD", BOT_PASSWORD)
    log_file = tmp_path / "bot.log"
    state = tmp_path / "state.db"
    runs = 0
    while not game.game.is_over:
        runs += 1
        assert runs < 60
        status = main(["once", "-v", "--config", str(config), "--state", str(state), "--log-file", str(log_file)])
        assert status == 0, capsys.readouterr().err
    # one more pass, like the next cron run, sees the end and records the result
    assert main(["once", "--config", str(config), "--state", str(state), "--log-file", str(log_file)]) == 0
    runs += 1
    assert len(sandbox.state.sessions) == 1  # the session was saved and reused: one login in all those runs
    check_games(sandbox, [game], state)
    out = capsys.readouterr().out
    assert out.count("pass done:") == runs
    # replay needs no server: every recorded position of the game, scores equal to the server's
    assert main(["replay", "--config", str(config), "--state", str(state), str(game.id)]) == 0
    replayed = capsys.readouterr().out
    assert "0 scores differ from the server's" in replayed and "would play now" in replayed
    # no secret in the log, the state file or anything printed
    secrets = [BOT_PASSWORD, hash_password(BOT_PASSWORD), *sandbox.state.sessions]
    log_text = log_file.read_text(encoding="utf-8")
    assert f"game {game.id} vs house" in log_text  # one line per decision
    for secret in secrets:
        assert secret not in log_text and secret not in out and secret not in replayed
    state_bytes = state.read_bytes()
    assert BOT_PASSWORD.encode() not in state_bytes and hash_password(BOT_PASSWORD).encode() not in state_bytes
    assert (state.stat().st_mode & 0o077) == 0


def test_once_exit_statuses(sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = sandbox.config_file(tmp_path / "bot.toml")
    state = str(tmp_path / "state.db")
    monkeypatch.delenv("WORDFEUD_PASSWORD", raising=False)
    monkeypatch.delenv("WORDFEUD_PASSWORD_HASH", raising=False)
    monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
    assert main(["once", "--config", str(config), "--state", state]) == 2  # no password
    monkeypatch.setenv("WORDFEUD_PASSWORD", "wrong")
    assert main(["once", "--config", str(config), "--state", state]) == 4  # login refused
    monkeypatch.setenv("WORDFEUD_PASSWORD", BOT_PASSWORD)
    holder = Store(state)
    with holder.lock():
        assert main(["once", "--config", str(config), "--state", state]) == 3  # another run holds the lock
    holder.close()
    assert main(["once", "--config", str(config), "--state", state]) == 0
    assert main(["check-config", "--config", str(config), "--state", state]) == 0


def test_replay_of_a_daemon_game(sandbox: Sandbox, tmp_path: Path) -> None:
    games = [sandbox.game(5, "random")]
    run_daemon(sandbox, games, tmp_path / "state.db")
    store = Store(tmp_path / "state.db")
    lines = replay(store, games[0].id, LexiconRegistry().get)
    store.close()
    ours = [line for line in lines if "would play now" in line.text]
    theirs = [line for line in lines if "engine" in line.text and "would play" not in line.text]
    assert ours and theirs and not any(line.mismatch for line in lines)
