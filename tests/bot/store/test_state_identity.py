"""The state file is the bot's own: a directory, another program's SQLite file and a missing file are
each refused with a line that says what they are, and nothing is written to them."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store.store import APPLICATION_ID, Store


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
