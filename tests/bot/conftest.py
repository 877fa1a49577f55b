"""Fixtures of the bot tests: a client of the faked API that records its sleeps, and a sandbox on 127.0.0.1
with a bot account and a house player, with a bot wired to it."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.api.client import RetryPolicy, WordfeudClient
from bot.api.credentials import Credentials
from bot.play.app import Wiring, build
from bot.settings.config import BotConfig, parse_config
from bot.store.store import Store
from dictionaries import ENGLISH_DAWG, bundled_path
from sandbox.faults import Faults
from sandbox.server import SandboxServer
from sandbox.state import SandboxGame, State, User
from tests.bot.helpers import BASE, SESSION, Sleeps
from tests.lexicons import english

BOT_EMAIL = "bot@example.org"
BOT_PASSWORD = "correct horse battery"
STRATEGY = "equity"  # the strategy of the configurations below (see Sandbox.config)


class Ticker:
    """A monotonic clock the tests move by hand (quarantine waits)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class SteppingClock:
    """One second later at every reading: the sandbox's clock (every change gets a new ``updated``) and a
    simulation's in the budget tests."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@dataclass
class Sandbox:
    """The running server, its state, and the two accounts."""

    server: SandboxServer
    state: State
    me: User
    house: User

    def game(self, ruleset: int = 5, board_type: str = "normal") -> SandboxGame:
        """A new game bot vs house, the bot moving first."""
        return self.state.new_game(self.me, self.house, ruleset, board_type)

    def config(self, **sections: dict[str, object]) -> BotConfig:
        # Static equity unless a test asks otherwise: the service's tests are about the plumbing, and
        # equity plays the same moves fast on every machine (test_end_to_end.py plays the default, sim).
        data: dict[str, dict[str, object]] = {
            "api": {"base_url": self.server.base_url, "timeout_seconds": 5},
            "play": {"strategy": STRATEGY},
        }
        for name, values in sections.items():
            data.setdefault(name, {}).update(values)
        return parse_config(data)

    def config_file(self, path: Path, extra: str = "") -> Path:
        """A configuration file for the command line: this sandbox, the tests' strategy, then ``extra`` TOML."""
        text = f'[api]\nbase_url = "{self.server.base_url}"\n[play]\nstrategy = "{STRATEGY}"\n{extra}'
        path.write_text(text, encoding="utf-8")
        return path

    def wire(
        self, store_path: Path, ticker: Callable[[], float] | None = None, **sections: dict[str, object]
    ) -> Wiring:
        """A bot on this sandbox with retries that do not sleep (``ticker``: the quarantine's clock)."""
        credentials = Credentials.from_password("email", BOT_EMAIL, BOT_PASSWORD)
        clock = ticker or Ticker()
        return build(self.config(**sections), credentials, store=Store(store_path), sleep=lambda s: None, clock=clock)


@pytest.fixture(autouse=True)
def _enable_for_english(_private_data_dir: Path) -> None:
    """The sandboxes here referee with ENABLE (``tests.lexicons.english``): the bot plays the same list for
    ruleset 5, whose shipped default is word-list + ENABLE, from its (private) user lexicon directory."""
    lexicons = _private_data_dir / "lexicons"
    lexicons.mkdir(exist_ok=True)
    shutil.copy(bundled_path(ENGLISH_DAWG), lexicons / "en.dawg")


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    state = State(lambda ruleset_id: english(), SteppingClock(), seed=11)
    me = state.add_user("bot", BOT_EMAIL, BOT_PASSWORD)
    house = state.add_user("house", "house@example.org", "house-pw")
    state.house.add(house.id)
    with SandboxServer(state, faults=Faults(slow_seconds=0.6)) as server:
        yield Sandbox(server, state, me, house)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def client(sleeps: Sleeps) -> WordfeudClient:
    return WordfeudClient(BASE, session_id=SESSION, user_id=7, sleep=sleeps, retry=RetryPolicy(attempts=4))
