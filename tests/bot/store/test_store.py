"""The state database: transactions, the run lock, private files, refused words, statistics."""

from __future__ import annotations

import re
import sqlite3
import stat
from pathlib import Path

import pytest

from bot.api.models import Game
from bot.api.submission import Kind, Submission
from bot.errors import LockedError, StoreError
from bot.store.store import DecisionStatus, Store


def game(move_count: int = 3, running: bool = True, scores: tuple[int, int] = (10, 12)) -> Game:
    return Game.model_validate(
        {
            "id": 77,
            "ruleset": 5,
            "current_player": 0,
            "is_running": running,
            "move_count": move_count,
            "updated": 100.0 + move_count,
            "tiles": [],
            "players": [
                {"id": 1, "username": "bot", "position": 0, "score": scores[0], "rack": ["A"], "is_local": True},
                {"id": 2, "username": "them", "position": 1, "score": scores[1]},
            ],
        }
    )


def test_a_failed_transaction_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    store.add_rejected(5, "QI")
    with pytest.raises(RuntimeError), store._transaction():
        store._db.execute("INSERT INTO rejected VALUES (5, 'ZA')")
        raise RuntimeError("crash in the middle")
    assert store.rejected().words(5) == {"QI"}
    store.close()


def test_state_survives_reopening_and_settles_decisions(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db", clock=lambda: 5.0)
    store.record_game(game(), 1)
    hi = Submission(Kind.MOVE, "8G HI", 9, tiles=((7, 7, "H", False),), words=("HI",), ruleset=5)
    decision = store.begin_decision(77, 3, hi)
    store.save_session("acct", "sessionvalue123", 1)
    store.save_board(1089, [[0] * 15] * 15)
    store.close()
    again = Store(tmp_path / "s.db")
    assert [d.status for d in again.decisions(77, DecisionStatus.PENDING)] == [DecisionStatus.PENDING]
    again.settle(decision, DecisionStatus.APPLIED, server_points=9)
    [settled] = again.decisions(77)
    assert (settled.status, settled.server_points, settled.payload["move"][0][2]) == (DecisionStatus.APPLIED, 9, "H")
    assert settled.submission == hi and settled.payload == {"move": [[7, 7, "H", False]], "ruleset": 5, "words": ["HI"]}
    assert again.session("acct") == ("sessionvalue123", 1) and again.session("other") is None
    assert again.seen(77) == (103.0, True) and again.board(1089) == [[0] * 15] * 15
    again.close()


def test_snapshots_are_kept_once_per_change_and_stats_count_results(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    store.record_game(game(3), 1)
    store.record_game(game(3), 1)
    store.record_game(game(5, running=False, scores=(300, 250)), 1)
    assert [s["move_count"] for s in store.snapshots(77)] == [3, 5]
    stats = store.stats()
    assert (stats.games, stats.running, stats.wins, stats.losses, stats.average_score) == (1, 0, 1, 0, 300.0)
    assert store.running_ids() == set() and store.game_ids() == [77]
    store.close()


def test_the_lock_keeps_two_runs_apart(tmp_path: Path) -> None:
    first, second = Store(tmp_path / "s.db"), Store(tmp_path / "s.db")
    with first.lock(), pytest.raises(LockedError, match=r"s\.db\.lock"), second.lock():
        pass
    with second.lock():  # released when the first run ends
        pass
    first.close()
    second.close()


def test_the_file_is_private_and_others_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "s.db"
    Store(path).close()
    assert path.stat().st_mode & 0o777 == 0o600
    path.chmod(0o644)
    with pytest.raises(StoreError, match="chmod 600"):
        Store(path)
    foreign = tmp_path / "other.db"
    connection = sqlite3.connect(foreign)
    connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    connection.execute("INSERT INTO meta VALUES ('marker', 'something else')")
    connection.commit()
    connection.close()
    foreign.chmod(0o600)
    with pytest.raises(StoreError, match="not a wordfeud-bot state database"):
        Store(foreign)
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not sqlite at all" * 100)
    garbage.chmod(0o600)
    with pytest.raises(StoreError, match=r"garbage\.db"):
        Store(garbage)


def test_one_state_file_is_one_lock_whatever_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tmp_path / "data" / "s.db"
    first = Store(real)
    (tmp_path / "link.db").symlink_to(real)
    through_link = Store(tmp_path / "link.db")
    monkeypatch.chdir(tmp_path / "data")
    relative = Store("s.db")
    with first.lock():
        for other in (through_link, relative):
            with pytest.raises(LockedError, match=re.escape(str(real.resolve()) + ".lock")), other.lock():
                pass
    assert stat.S_IMODE((real.parent / "s.db.lock").stat().st_mode) == 0o600
    for store in (first, through_link, relative):
        store.close()


def test_ints_sqlite_cannot_hold_are_a_store_error(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    with pytest.raises(StoreError, match=r"s\.db"):
        store.save_board(2**63, [[0] * 15] * 15)
    store.close()


def test_a_version_1_state_file_is_migrated_and_keeps_its_state(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    path.touch(mode=0o600)
    old = sqlite3.connect(path)
    old.executescript(
        """CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('marker', 'wordfeud-bot state'), ('version', '1');
        CREATE TABLE rejected (ruleset INTEGER NOT NULL, word TEXT NOT NULL, PRIMARY KEY (ruleset, word));
        INSERT INTO rejected VALUES (5, 'QI'), (5, 'ZA');
        CREATE TABLE sessions (
            account TEXT PRIMARY KEY, session_id TEXT NOT NULL, user_id INTEGER NOT NULL, saved REAL NOT NULL);
        INSERT INTO sessions VALUES ('acct', 'sid', 7, 1.0);"""
    )
    old.commit()
    old.close()
    store = Store(path)
    assert store.session("acct") == ("sid", 7) and store.rejected().words(5) == {"QI", "ZA"}
    assert store.add_accepted(5, "ZA", 1, "opponent", new=True)
    assert store.rejected().words(5) == {"QI"} and [a.word for a in store.accepted(5)] == ["ZA"]
    store.close()
    check = sqlite3.connect(path)
    assert check.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() == ("2",)
    check.close()
    Store(path).close()  # and it opens again as a version-2 file
