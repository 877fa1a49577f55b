"""Text from the server cannot forge a log record or reach a terminal as an escape
sequence. An opponent named with a newline and a fake ERROR record, ESC, BEL, a C1 CSI and a Unicode
line separator plays the bot in a sandbox; the log file, stderr, ``stats`` and ``replay`` show the
name with those characters escaped, one record per line."""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.api.models import Game
from bot.escapes import escaped, escaped_block
from bot.logs import FORMAT, EscapingFormatter
from cli.demo import _scores
from cli.main import _fail, main
from sandbox.server import SandboxServer
from sandbox.state import SandboxGame, State
from tests.bot.helpers import game_json
from tests.lexicons import english

BOT_EMAIL, BOT_PASSWORD = "bot@example.org", "correct horse battery"
#: A name that forges a record (newline + a line like a real one), clears the screen, rings the bell,
#: opens a C1 CSI, and starts a new line for Unicode-aware viewers.
EVIL = "eve\n2026-01-01 00:00:00,000 ERROR bot: forged\x1b[2J\x07\x9b31m\u2028x\u202e"
SHOWN = escaped(EVIL)
assert len(EVIL) <= 64  # whole: the names' limit does not cut it
#: Any control character but the newline, C1 controls, the line and paragraph separators, bidi overrides.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
RECORD = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) ")


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def hostile_sandbox() -> Iterator[tuple[SandboxServer, State, SandboxGame]]:
    state = State(lambda ruleset_id: english(), Clock(), seed=5)
    me = state.add_user("bot", BOT_EMAIL, BOT_PASSWORD)
    eve = state.add_user(EVIL, "eve@example.org", "eve-pw")
    state.house.add(eve.id)
    game = state.new_game(me, eve, 5)
    with SandboxServer(state) as server:
        yield server, state, game


def check_lines(text: str, where: str) -> None:
    assert not RAW.search(text), f"{where}: a raw control character: {RAW.search(text)!r}"
    assert "\nERROR forged" not in text and "\n2026-01-01" not in text, where


def test_a_hostile_username_is_escaped_in_the_log_stderr_stats_and_replay(
    hostile_sandbox: tuple[SandboxServer, State, SandboxGame],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server, state, sgame = hostile_sandbox
    config = tmp_path / "bot.toml"
    config.write_text(f'[api]\nbase_url = "{server.base_url}"\n[play]\nstrategy = "equity"\n', encoding="utf-8")
    config.chmod(0o600)
    monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
    monkeypatch.setenv("WORDFEUD_PASSWORD", BOT_PASSWORD)
    log_file, store = tmp_path / "bot.log", tmp_path / "state.db"
    service = ["--config", str(config), "--state", str(store)]
    for _ in range(3):  # the bot moves, the house answers: three decisions against eve
        assert main(["once", *service, "--log-file", str(log_file)]) == 0
    sgame.game.resign(sgame.players.index(sgame.players[1]))  # eve resigns: the game is finished
    sgame.updated = state.clock()
    assert main(["once", *service, "--log-file", str(log_file)]) == 0
    streams = capsys.readouterr()
    assert main(["stats", *service]) == 0
    stats = capsys.readouterr().out
    assert main(["replay", *service]) == 0
    listing = capsys.readouterr().out
    assert main(["replay", *service, str(sgame.id)]) == 0
    replayed = capsys.readouterr().out

    log_text = log_file.read_text(encoding="utf-8")
    for where, text in (("bot.log", log_text), ("stderr", streams.err), ("stats", stats),
                        ("replay list", listing), ("replay", replayed)):  # fmt: skip
        check_lines(text, where)
    # every line of the log file and of stderr is a record of its own, and eve's name is in them escaped
    for where, text in (("bot.log", log_text), ("stderr", streams.err)):
        lines = text.splitlines()
        assert lines and all(RECORD.match(line) for line in lines), where
        assert sum(SHOWN in line for line in lines) >= 3, where  # one line per decision names eve
        assert not [line for line in lines if line.split(" ", 3)[2] == "ERROR"], where
    assert f"  {SHOWN}" in stats and "by opponent:" in stats
    assert SHOWN in listing
    assert f": {SHOWN} played " in replayed  # the opponent's moves, rescored


def test_a_traceback_quoting_server_text_stays_inside_its_record() -> None:
    formatter = EscapingFormatter(FORMAT)
    try:
        raise ValueError("boom\n2026-01-01 00:00:00,000 ERROR   bot: forged\x1b]0;title\x07")
    except ValueError:
        record = logging.LogRecord("bot.test", logging.ERROR, __file__, 1, "game %d: %s", (7, EVIL), sys.exc_info())
    text = formatter.format(record)
    lines = text.split("\n")
    assert RECORD.match(lines[0]) and lines[0].endswith(f"game 7: {SHOWN}")
    assert all(line.startswith("    ") for line in lines[1:]) and len(lines) > 2
    assert not RAW.search(text)
    # the exception's own newline stays (a traceback is many lines) but indented: no record starts there
    assert "\n    2026-01-01 00:00:00,000 ERROR   bot: forged\\x1b]0;title\\x07" in text


def test_the_escape_covers_every_kind_of_control_and_leaves_text_alone() -> None:
    assert escaped("a\nb\rc\td\x00e\x1bf\x07g\x7fh\x85i\x9bj") == r"a\x0ab\x0dc\x09d\x00e\x1bf\x07g\x7fh\x85i\x9bj"
    assert escaped("x\u2028y\u2029z\u202ew\u2066v\ufeff") == r"x\u2028y\u2029z\u202ew\u2066v\ufeff"
    ordinary = "Ærøskøbing ÅÄÖ ĳ ß Ñandú 漢字 \\x41 tab-free"
    assert escaped(ordinary) == ordinary
    assert escaped_block("a\nb\x1b") == "    a\n    b\\x1b"


def test_the_demo_and_every_commands_error_message_escape_server_text(capsys: pytest.CaptureFixture[str]) -> None:
    game = game_json()
    game["players"][1]["username"] = EVIL
    scores = _scores(Game.model_validate(game))
    assert SHOWN in scores and not RAW.search(scores) and "\n" not in scores
    assert _fail("hint", f"game/5/: unknown_game ({EVIL})", 1) == 1
    err = capsys.readouterr().err
    assert err == f"wordfeud-bot hint: game/5/: unknown_game ({SHOWN})\n"
