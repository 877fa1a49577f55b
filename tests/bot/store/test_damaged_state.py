"""A state file with its SQLite header intact and pages damaged: the services (``once``, ``run``) and
``learned`` stop with one line naming the file and what to do, exit 2 (systemd's unit does not restart
it), whether the damage is found by the quick check at opening or met by a read later in the pass;
``state check`` finds it, and ``state recover`` copies what can be read, the decisions first, into a new
file beside it and leaves the damaged one as it is."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.errors import DamagedStateError
from bot.play.daemon import Daemon
from bot.play.service import PassReport
from bot.store.state_file import StateFile
from bot.store.store import Store
from cli.main import EXIT_CONFIG, main
from tests.bot.conftest import BOT_EMAIL, BOT_PASSWORD, Sandbox

PAGE = 4096
DECISIONS, WORDS = 2000, 3000


def _good_state(path: Path) -> None:
    """A state file of some size: decisions and learned words, written in turns so that both tables'
    pages lie all along the file."""
    store = Store(path)
    try:
        for chunk in range(20):
            with store._transaction():
                for i in range(chunk * DECISIONS // 20, (chunk + 1) * DECISIONS // 20):
                    store._db.execute(
                        "INSERT INTO decisions (game_id, move_count, kind, notation, payload, points, status, at) "
                        "VALUES (?, 1, 'move', 'H8 WORD', ?, 10, 'applied', 1.0)",
                        (i, json.dumps({"n": i})),
                    )
                for i in range(chunk * WORDS // 20, (chunk + 1) * WORDS // 20):
                    store._db.execute(
                        "INSERT INTO accepted VALUES (5, ?, ?, 'opponent', 1.0, 1)", (f"WORD{i:05d}", i)
                    )
    finally:
        store.close()


def _damage(path: Path, first: int = 30, pages: int = 20) -> None:
    """Overwrite ``pages`` pages from page ``first`` (after the header page and the tables' roots) with garbage."""
    data = bytearray(path.read_bytes())
    assert len(data) // PAGE > first + pages + 10, "the state file is too small to damage in its middle"
    rng = random.Random(58)
    for page in range(first, first + pages):
        data[page * PAGE : (page + 1) * PAGE] = rng.randbytes(PAGE)
    path.write_bytes(bytes(data))


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    state = tmp_path / "state.sqlite3"
    _good_state(state)
    _damage(state)
    return state


def _one_line(err: str, command: str, state: Path) -> None:
    """One line of the command's own on stderr (the log may say which move generator is active), the last."""
    said = [line for line in err.splitlines() if line.startswith("wordfeud-bot")]
    assert len(said) == 1 and "Traceback" not in err and err.endswith(said[0] + "\n"), err
    assert said[0].startswith(f"wordfeud-bot {command}: state file {state} is damaged (")
    assert f"wordfeud-bot state recover --state {state}" in err and f"sqlite3 {state} .recover" in err


def _configured(sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sandbox's configuration file, private, with the bot's login in the environment."""
    config = sandbox.config_file(tmp_path / "bot.toml")
    config.chmod(0o600)
    monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
    monkeypatch.setenv("WORDFEUD_PASSWORD", BOT_PASSWORD)
    return config


@pytest.mark.parametrize("command", ["once", "run", "learned"])
def test_a_damaged_state_file_is_one_line_and_exit_2(
    command: str,
    damaged: Path,
    sandbox: Sandbox,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = _configured(sandbox, tmp_path, monkeypatch)
    before = damaged.read_bytes()
    assert main([command, "--config", str(config), "--state", str(damaged)]) == EXIT_CONFIG
    _one_line(capsys.readouterr().err, command, damaged)
    assert damaged.read_bytes() == before  # nothing was written to it


@pytest.mark.parametrize("command", ["once", "learned"])
def test_damage_met_by_a_read_after_the_opening_check_is_the_same_line(
    command: str,
    damaged: Path,
    sandbox: Sandbox,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Pages damaged after the file was opened (the check at opening passed): the read that meets them
    (``Store.learned`` when the turns are wired, a query of the pass) gives the same line, not a traceback."""
    monkeypatch.setattr(StateFile, "_check_pages", lambda self: None, raising=False)
    config = _configured(sandbox, tmp_path, monkeypatch)
    assert main([command, "--config", str(config), "--state", str(damaged)]) == EXIT_CONFIG
    _one_line(capsys.readouterr().err, command, damaged)


class _DamagedBot:
    def __init__(self) -> None:
        self.passes = 0

    def run_pass(self, stop: threading.Event | None = None) -> PassReport:
        self.passes += 1
        raise DamagedStateError("state file s.db is damaged (database disk image is malformed while reading it)")


@pytest.mark.logs_errors("the daemon logs the damaged state file as it stops")
def test_the_daemon_stops_at_a_damaged_state_file_rather_than_poll_again() -> None:
    bot = _DamagedBot()
    daemon = Daemon(bot, poll_seconds=0.01)  # type: ignore[arg-type]
    guard = threading.Timer(20, daemon.stop)  # only if the daemon polled on (the defect): end the test
    guard.start()
    try:
        with pytest.raises(DamagedStateError, match="is damaged"):
            daemon.run(handle_signals=False)
    finally:
        guard.cancel()
    assert bot.passes == 1


def test_state_check_finds_the_damage_and_passes_a_whole_file(
    damaged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["state", "check", "--state", str(damaged)]) == EXIT_CONFIG
    out, err = capsys.readouterr()
    assert "Page " in out and err.count("\n") == 1
    assert err.startswith(f"wordfeud-bot state check: state file {damaged} is damaged (")
    whole = tmp_path / "whole.sqlite3"
    _good_state(whole)
    assert main(["state", "check", "--state", str(whole)]) == 0
    assert capsys.readouterr().out == f"state file {whole}: whole (SQLite's integrity check: ok)\n"


def test_a_damaged_file_names_its_backup_when_there_is_one(damaged: Path) -> None:
    (damaged.parent / (damaged.name + ".bak")).write_bytes(b"")
    with pytest.raises(DamagedStateError, match=r"restore the backup .*state\.sqlite3\.bak \(cp "):
        Store(damaged)


def test_state_recover_keeps_every_readable_row_in_a_new_file(
    damaged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = damaged.read_bytes()
    target = damaged.parent / "state.sqlite3.recovered"
    assert main(["state", "recover", "--state", str(damaged)]) == 0
    out = capsys.readouterr().out
    assert damaged.read_bytes() == before  # the damaged file is only read
    assert main(["state", "check", "--state", str(target)]) == 0  # the new file is whole
    capsys.readouterr()
    store = Store(target, read_only=True)
    try:
        decisions = store.decisions()
        words = store.accepted()
    finally:
        store.close()
    # the rows the damage spared are all there, each as it was; the damage cost some of them
    assert 0 < len(decisions) + len(words) < DECISIONS + WORDS
    assert len(decisions) > DECISIONS // 2 and len(words) > 0
    assert all(d.payload == {"n": d.game_id} and d.notation == "H8 WORD" for d in decisions)
    assert out.startswith(f"recovered {len(decisions) + len(words):,} rows into {target}: {len(decisions):,} decisions")
    assert "damaged places skipped" in out and f"{damaged} was left as it is" in out
    # what SQLite itself can still read of the damaged file, row by row, is no more than what was recovered
    raw = sqlite3.connect(f"file:{damaged}?mode=ro", uri=True)
    try:
        readable = 0
        for rowid in range(1, DECISIONS + 1):
            with contextlib.suppress(sqlite3.DatabaseError):
                readable += raw.execute("SELECT 1 FROM decisions WHERE rowid = ?", (rowid,)).fetchone() is not None
    finally:
        raw.close()
    assert len(decisions) >= readable


def test_state_recover_never_writes_over_a_file(damaged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = damaged.parent / "taken.sqlite3"
    target.write_bytes(b"mine")
    assert main(["state", "recover", "--state", str(damaged), "--output", str(target)]) == EXIT_CONFIG
    assert capsys.readouterr().err == (
        f"wordfeud-bot state recover: {target} exists: recover writes a new file and never over one; "
        "give another --output\n"
    )
    assert target.read_bytes() == b"mine"


def test_state_check_and_recover_explain_themselves(capsys: pytest.CaptureFixture[str]) -> None:
    for action in ("check", "recover"):
        with pytest.raises(SystemExit):
            main(["state", action, "--help"])
        out = capsys.readouterr().out
        assert f"usage: wordfeud-bot state {action}" in out and "state file" in out
