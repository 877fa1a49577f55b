"""The state file is the bot's own: a directory, a text file, another program's SQLite file, a path under a
file, a file this user cannot open and a missing file are each refused with a line that says what they
are (what a file is before who may read it), and nothing is written to them."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store.store import APPLICATION_ID, Store
from cli.main import main


def _application_id(path: Path) -> int:
    connection = sqlite3.connect(path)
    try:
        return int(connection.execute("PRAGMA application_id").fetchone()[0])
    finally:
        connection.close()


def test_a_directory_is_called_a_directory_not_given_chmod_advice(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir(mode=0o755)
    with pytest.raises(StoreError) as exc:
        Store(folder)
    message = str(exc.value)
    assert message.startswith(f"state file {folder} is a directory") and "chmod" not in message
    assert str(folder / "state.sqlite3") in message


def test_a_new_state_file_carries_the_bots_application_id(tmp_path: Path) -> None:
    Store(tmp_path / "s.db").close()
    assert _application_id(tmp_path / "s.db") == APPLICATION_ID


def test_another_programs_sqlite_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    foreign = tmp_path / "photos.db"
    connection = sqlite3.connect(foreign)
    connection.execute("CREATE TABLE albums (id INTEGER PRIMARY KEY, title TEXT)")
    connection.execute("INSERT INTO albums VALUES (1, 'summer')")
    connection.commit()
    connection.close()
    foreign.chmod(0o600)
    before = foreign.read_bytes()
    with pytest.raises(StoreError) as exc:
        Store(foreign)
    assert str(exc.value).startswith(f"state file {foreign} is another program's SQLite database (tables: albums)")
    assert "--state or store.path" in str(exc.value)
    assert foreign.read_bytes() == before  # no table added, no journal mode changed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photos.db"]


def test_a_foreign_application_id_is_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "other.db"
    connection = sqlite3.connect(foreign)
    connection.execute("PRAGMA application_id = 1234")
    connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    connection.commit()
    connection.close()
    foreign.chmod(0o600)
    with pytest.raises(StoreError, match=r"another program's SQLite database \(application id 0x4d2\)"):
        Store(foreign)


def test_a_file_of_an_earlier_version_without_the_id_is_recognised_by_its_marker(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    store.save_board(7, [[0] * 15] * 15)
    store.close()
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA application_id = 0")  # as the files written before the id was set
    connection.commit()
    connection.close()
    store = Store(path)
    assert store.board(7) == [[0] * 15] * 15
    store.close()
    assert _application_id(path) == APPLICATION_ID


def test_learned_refuses_a_missing_state_file_and_creates_none(tmp_path: Path) -> None:
    missing = tmp_path / "missing.sqlite3"
    env = {**os.environ, "WORDFEUD_BOT_DATA": str(tmp_path / "data")}
    result = subprocess.run(
        [sys.executable, "-m", "cli", "learned", "--state", str(missing)],
        capture_output=True, text=True, timeout=120, check=False, env=env,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == (
        f"wordfeud-bot learned: no state file {missing}: the bot writes it when it plays (see --state and store.path)"
    )
    assert not missing.exists()


def _check_config(state: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``check-config --state STATE`` says on stderr (it must fail with exit status 2)."""
    monkeypatch.setenv("WORDFEUD_EMAIL", "bot@example.org")
    monkeypatch.setenv("WORDFEUD_PASSWORD", "pw")
    assert main(["check-config", "--state", str(state)]) == 2
    return capsys.readouterr().err


def test_a_text_file_is_called_not_sqlite_before_any_chmod_advice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello\n", encoding="utf-8")
    text.chmod(0o644)
    err = _check_config(text, monkeypatch, capsys)
    assert err == (
        f"wordfeud-bot check-config: state file {text} is not an SQLite database, so not a wordfeud-bot state "
        "file; it was left as it was. Give the bot a file of its own (--state or store.path)\n"
    )
    assert text.read_text(encoding="utf-8") == "hello\n" and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_another_programs_sqlite_file_is_named_before_any_chmod_advice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    foreign = tmp_path / "photos.db"
    connection = sqlite3.connect(foreign)
    connection.execute("CREATE TABLE albums (id INTEGER PRIMARY KEY)")
    connection.commit()
    connection.close()
    foreign.chmod(0o644)
    before = foreign.read_bytes()
    err = _check_config(foreign, monkeypatch, capsys)
    assert err.startswith(
        f"wordfeud-bot check-config: state file {foreign} is another program's SQLite database (tables: albums)"
    )
    assert "chmod" not in err and err.count("\n") == 1
    assert foreign.read_bytes() == before


def test_an_empty_file_others_can_read_is_refused_and_left_empty(tmp_path: Path) -> None:
    empty = tmp_path / "s.db"
    empty.touch(mode=0o644)
    empty.chmod(0o644)
    with pytest.raises(StoreError, match=r"can be read by other users \(mode 644\).*chmod 600"):
        Store(empty)
    assert empty.read_bytes() == b""  # not marked as the bot's while refused


def test_a_state_path_under_a_file_says_the_file_is_not_a_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello\n", encoding="utf-8")
    err = _check_config(text / "state.db", monkeypatch, capsys)
    assert err == f"wordfeud-bot check-config: state file {text / 'state.db'}: {text} is not a directory\n"
    assert main(["stats", "--state", str(text / "state.db")]) == 2  # a command that reads it only
    assert capsys.readouterr().err == f"wordfeud-bot stats: state file {text / 'state.db'}: {text} is not a directory\n"


def test_a_state_file_this_user_cannot_open_is_permission_denied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.db"
    Store(state).close()
    state.chmod(0o000)
    if os.geteuid() == 0:  # root may open any file: ask the mode, as the kernel would for its owner
        monkeypatch.setattr(os, "access", lambda path, mode: os.stat(path).st_mode & 0o600 == 0o600)
    try:
        err = _check_config(state, monkeypatch, capsys)
    finally:
        state.chmod(0o600)
    assert err == (
        f"wordfeud-bot check-config: state file {state}: permission denied: this user cannot read and write it "
        "(mode 000)\n"
    )
