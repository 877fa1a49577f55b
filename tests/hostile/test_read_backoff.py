"""A status listing thousands of games whose reads fail costs a bounded number of
requests per pass (``schedule.max_games_per_pass``), each failing game backs off exponentially (60 s,
doubling, at most an hour), and neither the cap nor a game's repeated failure is logged every pass."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import responses

from bot.api.credentials import Credentials
from bot.errors import ConfigError
from bot.play.app import build
from bot.play.reads import ReadSchedule
from bot.settings.config import parse_config
from bot.store.store import Store
from tests.hostile.flood import FloodApi, Ticker, bot_for

POLL = 30.0


@pytest.mark.logs_errors("every unknown game's first failed read is logged")
def test_3000_unknown_games_cost_at_most_the_cap_per_pass(caplog: pytest.LogCaptureFixture) -> None:
    api, clock = FloodApi(known=0, unknown=3000), Ticker()
    bot = bot_for(Store(":memory:"), clock, per_pass=50)
    per_pass = []
    with responses.RequestsMock() as mock, caplog.at_level(logging.INFO):
        api.install(mock)
        for _ in range(12):
            before = api.requests
            report = bot.run_pass()
            per_pass.append(api.requests - before)
            assert len(report.errors) == 50 and report.running == 3000  # unknown games count as running
            api.next_pass()
            clock.now += POLL
    assert per_pass == [51] * 12  # the status and 50 games, not 3,001 requests
    assert len(api.reads) == 600 and set(api.reads.values()) == {1}  # a new 50 each pass, none twice yet
    caps = [r for r in caplog.records if r.name == "bot.play.reads" and r.levelno >= logging.INFO]
    assert len(caps) == 1 and caps[0].getMessage().startswith("3000 games are due and at most 50 are read")
    failures = [r for r in caplog.records if r.name == "bot.play.service"]
    assert len(failures) == 600  # each game's first failure, once


@pytest.mark.logs_errors("the failing game's first failure is logged")
def test_a_failing_game_backs_off_exponentially_to_an_hour_and_is_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    api, clock = FloodApi(known=0, unknown=1), Ticker()
    bot = bot_for(Store(":memory:"), clock)
    read_at = []
    with responses.RequestsMock() as mock, caplog.at_level(logging.INFO):
        api.install(mock)
        while clock.now <= 11_000:
            before = sum(api.reads.values())
            bot.run_pass()
            if sum(api.reads.values()) > before:
                read_at.append(clock.now)
            api.next_pass()
            clock.now += POLL
    # waits 60, 120, 240, 480, 960, 1920, then 3600 (the longest) seconds
    assert read_at == [0, 60, 180, 420, 900, 1860, 3780, 7380, 10980]
    assert len([r for r in caplog.records if r.name == "bot.play.service"]) == 1


@pytest.mark.logs_errors("the unknown games' first failures are logged")
def test_a_known_game_is_read_first_whatever_floods_the_status(tmp_path: Path) -> None:
    api, clock = FloodApi(known=1, unknown=3000), Ticker()
    bot = bot_for(Store(tmp_path / "s.db"), clock, per_pass=10)
    with responses.RequestsMock() as mock:
        api.install(mock)
        for _ in range(20):
            report = bot.run_pass()
            assert [t.outcome for t in report.turns] == ["waiting"]  # its stamp moved: read every pass
            api.next_pass()
            clock.now += POLL
    assert api.reads[api.known[0]] == 20 and sum(api.reads.values()) == 20 * 10


def test_a_read_that_succeeds_forgets_the_failures() -> None:
    clock = Ticker()
    reads = ReadSchedule(clock, per_pass=5)
    assert reads.choose([(1, True)]) == [1]
    assert reads.failed(1) == (60.0, True)
    clock.now = 60.0
    assert reads.choose([(1, True)]) == [1]
    assert reads.failed(1) == (120.0, False)  # the second failure in a row: not worth a log line
    assert reads.waiting() == {1}
    reads.succeeded(1)
    assert reads.waiting() == set() and reads.failed(1) == (60.0, True)
    reads.forget_all_but(set())  # no longer listed: forgotten
    assert reads.waiting() == set()
    with pytest.raises(ValueError, match="per_pass"):
        ReadSchedule(clock, per_pass=0)


def test_the_cap_is_a_config_key_with_a_default() -> None:
    assert parse_config({}).schedule.max_games_per_pass == 50
    with pytest.raises(ConfigError, match="max_games_per_pass"):
        parse_config({"schedule": {"max_games_per_pass": 0}})
    config = parse_config({"schedule": {"max_games_per_pass": 7}})
    wiring = build(config, Credentials.from_password("email", "bot@example.org", "pw"), store=Store(":memory:"))
    assert wiring.bot.reads.per_pass == 7


@pytest.mark.logs_errors("the unknown games' first failures are logged")
def test_runs_of_once_remember_the_failing_games_in_the_state_file(tmp_path: Path) -> None:
    """Cron's ``once`` starts a new process each time: the waits live in the state file, so the next run
    reads the next games instead of the same failing ones (and a game read again is forgotten)."""
    api, clock = FloodApi(known=0, unknown=120), Ticker()
    state = tmp_path / "s.db"
    with responses.RequestsMock() as mock:
        api.install(mock)
        for _ in range(3):  # three runs, 30 s apart, each a fresh process's bot on the same state file
            store = Store(state, clock=clock)
            bot = bot_for(store, clock, per_pass=50)
            bot.reads = ReadSchedule(clock, per_pass=50, store=store)
            bot.run_pass()
            store.close()
            api.next_pass()
            clock.now += POLL
    # 50, 50 others (the first wait), then the 20 never read and 30 of the first 50 (their wait is over)
    assert set(api.reads) == set(api.unknown) and sum(api.reads.values()) == 150
    store = Store(state, clock=clock)
    failures = store.read_failures()
    assert len(failures) == 120 and failures[api.unknown[0]] == (2, 180.0)  # failed at 0 and 60 s: waits 120 s
    reads = ReadSchedule(clock, store=store)
    reads.succeeded(api.unknown[0])
    reads.forget_all_but(set(api.unknown[:10]))  # the status no longer lists the others
    assert sorted(store.read_failures()) == api.unknown[1:10]
    store.close()
