"""The daemon's life cycle: stopping waits for the pass in progress; a refused login stops it with exit 4;
the services log once which move generator runs."""

from __future__ import annotations

import logging
import os
import signal
import threading
from pathlib import Path

import pytest

from bot.errors import LoginRefusedError, StoreError
from bot.play.daemon import Daemon, Reloaded
from bot.play.service import PassReport
from cli.main import EXIT_AUTH, main
from engine import native
from tests.bot.conftest import BOT_EMAIL, Sandbox


class BlockingBot:
    """A bot whose pass waits until the test lets it go, and records when it ends."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.events: list[str] = []

    def run_pass(self, stop: threading.Event | None = None) -> PassReport:
        self.started.set()
        assert self.release.wait(30), "the test never released the pass"
        self.events.append("pass ended")
        return PassReport()


def test_stop_waits_for_the_pass_in_progress() -> None:
    bot = BlockingBot()
    daemon = Daemon(bot, poll_seconds=60)  # type: ignore[arg-type]

    def run() -> None:
        daemon.run(handle_signals=False)
        bot.events.append("run returned")

    runner = threading.Thread(target=run)
    runner.start()
    assert bot.started.wait(30)
    daemon.stop()  # what SIGTERM does, while the pass runs
    runner.join(0.3)
    assert runner.is_alive(), "run() returned (and the caller would close the store) under a running pass"
    bot.release.set()
    runner.join(30)
    assert bot.events == ["pass ended", "run returned"]


class RefusedBot:
    def __init__(self) -> None:
        self.passes = 0

    def run_pass(self, stop: threading.Event | None = None) -> PassReport:
        self.passes += 1
        raise LoginRefusedError("wrong_password", "", "user/login/email/")


@pytest.mark.logs_errors("a refused login is logged at ERROR before the daemon stops: that line is under test")
def test_a_refused_login_stops_the_daemon_after_one_pass() -> None:
    bot = RefusedBot()
    daemon = Daemon(bot, poll_seconds=0.01)  # type: ignore[arg-type]
    watchdog = threading.Timer(30, daemon.stop)  # a daemon that never gave up would hang the test
    watchdog.start()
    try:
        with pytest.raises(LoginRefusedError, match="wrong_password"):
            daemon.run(handle_signals=False)
    finally:
        watchdog.cancel()
    assert bot.passes == 1


class FailingBot:
    def __init__(self, stop_after: int) -> None:
        self.passes = 0
        self.stop_after = stop_after
        self.daemon: Daemon | None = None

    def run_pass(self, stop: threading.Event | None = None) -> PassReport:
        self.passes += 1
        if self.passes >= self.stop_after and self.daemon is not None:
            self.daemon.stop()
        raise StoreError("state file s.db: disk I/O error")


@pytest.mark.logs_errors("a failed pass is one ERROR line: the lines are under test")
def test_a_typed_failure_is_one_line_and_the_daemon_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    bot = FailingBot(stop_after=3)
    daemon = Daemon(bot, poll_seconds=0.01)  # type: ignore[arg-type]
    bot.daemon = daemon
    with caplog.at_level(logging.ERROR, logger="bot.play.daemon"):
        daemon.run(handle_signals=False)
    assert bot.passes == 3
    failures = [r for r in caplog.records if "the pass failed" in r.getMessage()]
    assert len(failures) == 3 and all(r.exc_info is None for r in failures)  # no traceback for a typed error


@pytest.mark.logs_errors("a refused login is logged at ERROR: the one line is under test")
def test_run_with_a_refused_login_exits_4_in_one_line(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = sandbox.config_file(tmp_path / "bot.toml", "[schedule]\npoll_seconds = 0.05\n")
    config.chmod(0o600)
    monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
    monkeypatch.setenv("WORDFEUD_PASSWORD", "not the password")
    # a daemon that retried forever would make this test hang: SIGTERM stops it after 30 s instead
    watchdog = threading.Timer(30, os.kill, (os.getpid(), signal.SIGTERM))
    watchdog.start()
    try:
        status = main(["run", "--config", str(config), "--state", str(tmp_path / "s.db")])
    finally:
        watchdog.cancel()
    err = capsys.readouterr().err
    assert status == EXIT_AUTH
    assert "wordfeud-bot run: login refused: user/login/email/: wrong_password" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["run", "once"])
@pytest.mark.logs_errors("the service is refused its login on purpose, to stop right after the line under test")
def test_the_services_log_which_generator_runs_once_at_start(
    command: str, sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = sandbox.config_file(tmp_path / "bot.toml")
    config.chmod(0o600)
    monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
    monkeypatch.setenv("WORDFEUD_PASSWORD", "not the password")  # the service starts, then stops at the login
    native.announce.cache_clear()  # another test may have announced it in this process already
    arguments = [command, "--config", str(config), "--state", str(tmp_path / "s.db")]
    watchdog = threading.Timer(30, os.kill, (os.getpid(), signal.SIGTERM))
    watchdog.start()
    try:
        assert main(arguments) == EXIT_AUTH
        first = capsys.readouterr().err
        assert main(arguments) == EXIT_AUTH
        second = capsys.readouterr().err
    finally:
        watchdog.cancel()
    assert f"INFO    engine.native: {native.describe()}" in first
    assert first.count("move generator:") == 1 and "move generator:" not in second  # once per process


def test_a_reload_plays_the_new_bot_and_keeps_the_games_waiting_for_a_lost_answer(
    sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGHUP's reload (``Daemon._reload``, what the signal's thread runs): the new configuration's bot
    plays from the next pass, at its poll interval, and a game left alone after a lost answer stays so
    (forgetting it could send its move twice); a reload that gives nothing keeps the bot in use."""
    old = sandbox.wire(tmp_path / "state.db")
    old.bot.turns._quarantined[42] = 1e12  # waiting for the outcome of a submission whose answer was lost
    new = sandbox.wire(tmp_path / "other.db")
    answers: list[Reloaded | None] = [None, Reloaded(new.bot, 7.0, 1.0, "re-read: the next pass uses it")]
    daemon = Daemon(old.bot, poll_seconds=60, reload=answers.pop)
    with caplog.at_level(logging.INFO, logger="bot.play.daemon"):
        daemon._reload()
    assert daemon.bot is new.bot and (daemon.poll_seconds, daemon.jitter_seconds) == (7.0, 1.0)
    assert 42 in new.bot.turns.quarantined
    assert [r.getMessage() for r in caplog.records] == ["re-read: the next pass uses it"]
    daemon._reload()  # the file did not load (``reload`` logged why): the bot in use goes on
    assert daemon.bot is new.bot
    old.store.close()
    new.store.close()
