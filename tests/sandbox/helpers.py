"""Talking to a sandbox the way the tests do: over HTTP with plain ``requests``, from the API notes."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import requests

from engine.movegen.generate import generate
from sandbox.server import SandboxServer
from sandbox.state import SandboxGame


def api_hash(password: str) -> str:
    """The password as the API sends it: hex SHA-1 of the password and the app's salt."""
    return hashlib.sha1((password + "JarJarBinks9").encode()).hexdigest()


class FakeClock:
    """A wall clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def post(session: requests.Session, server: SandboxServer, path: str, body: Any = None) -> dict[str, Any]:
    """POST a JSON body to the sandbox; the answer must be a 200 with the API's envelope."""
    response = session.post(server.base_url + path, json=body if body is not None else {}, timeout=10)
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    assert set(data) == {"status", "content"}
    return data


def login(server: SandboxServer, email: str, password: str) -> requests.Session:
    """A session logged in by email."""
    session = requests.Session()
    data = post(session, server, "user/login/email/", {"email": email, "password": api_hash(password)})
    assert data["status"] == "success", data
    return session


def new_game(server: SandboxServer) -> SandboxGame:
    """A new game between the first two users."""
    users = list(server.state.users.values())
    return server.state.new_game(users[0], users[1], 5)


def wire_move(game: SandboxGame) -> tuple[list[list[Any]], int]:
    """The best move of the player to move, in the API's form, with its score."""
    g = game.game
    move = max(generate(g.board, g.rack, g.lexicon, g.rules), key=lambda m: (m.score or 0, sorted(m.tiles)))
    symbol = g.rules.alphabet.symbol
    return [[c, r, symbol(t & 63), bool(t & 64)] for r, c, t in move.tiles], move.score or 0


@contextmanager
def sandbox_command(*options: str) -> Iterator[tuple[list[str], requests.Session, str]]:
    """Run ``python -m sandbox --port 0 OPTIONS``; yield its first lines, a logged-in session and the URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines: list[str] = []
        while not lines or not lines[-1].startswith("  games:"):
            line = process.stdout.readline()
            assert line, f"the sandbox ended: {lines} {process.stderr.read() if process.stderr else ''}"
            lines.append(line)
        url = next(line for line in lines if line.startswith("sandbox serving")).split()[-1]
        session = requests.Session()
        login: dict[str, Any] = session.post(
            url + "user/login/email/",
            json={"email": "player@sandbox.local", "password": api_hash("player-password")},
            timeout=10,
        ).json()
        assert login["status"] == "success"
        yield lines, session, url
    finally:
        process.terminate()
        process.wait(timeout=10)
