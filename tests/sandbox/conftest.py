"""Fixtures of the sandbox tests: a hand-moved clock and a sandbox with two users on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sandbox.server import SandboxServer
from sandbox.state import State
from tests.lexicons import english
from tests.sandbox.helpers import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def server(clock: FakeClock) -> Iterator[SandboxServer]:
    state = State(lambda ruleset_id: english(), clock, seed=1)
    state.add_user("alice", "alice@example.org", "secret-a")
    state.add_user("bob", "bob@example.org", "secret-b")
    with SandboxServer(state) as running:
        yield running
