"""The sandbox command: ``--games`` and ``--board``, a restart on ``--db`` keeping its games, and ``--check``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

from sandbox.cli import main
from sandbox.state import State
from sandbox.store import Store
from tests.lexicons import english
from tests.sandbox.helpers import FakeClock, sandbox_command


def games_of(session: requests.Session, url: str) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = session.get(url + "user/games/", timeout=10).json()["content"]["games"]
    return games


def test_games_are_started_once_and_kept_on_a_restart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "sandbox.db"
    with sandbox_command("--db", str(db), "--games", "3", "--board", "random", "--ruleset", "0") as (lines, s, url):
        games = games_of(s, url)
        assert len(games) == 3 and all(g["ruleset"] == 0 and g["board"] != 0 and g["is_running"] for g in games)
        assert lines[-1].startswith("  games: 3 (3 running): ")
        first = sorted(g["id"] for g in games)
        moved = s.post(url + f"game/{first[0]}/pass/", json={}, timeout=10).json()
        assert moved["status"] == "success"
    with sandbox_command("--db", str(db), "--games", "5") as (lines, s, url):
        assert "(3 games)" in lines[0]
        assert sorted(g["id"] for g in games_of(s, url)) == first
    assert main(["--db", str(db), "--check"]) == 0
    out = capsys.readouterr().out
    assert "games: 3, finished 0; running: " in out
    assert "submissions: 1 (success 1)" in out and "duplicate submissions: 0" in out


def test_check_exit_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "sandbox.db"
    assert main(["--db", str(db), "--check"]) == 2
    assert f"no sandbox file {db}" in capsys.readouterr().err
    assert not db.exists()
    state = State(lambda _: english(), FakeClock())
    state.log_submission(7, 8, 3, "pass", {}, "not_your_turn")
    store = Store(db)
    store.save(state)
    store.close()
    assert main(["--db", str(db), "--check"]) == 1
    out = capsys.readouterr().out
    assert "duplicate submissions: 1" in out and "game 7 user 8 turn 3: pass {} -> not_your_turn" in out
    with pytest.raises(SystemExit) as exit_info:
        main(["--check"])
    assert exit_info.value.code == 2
    assert "--check needs --db FILE" in capsys.readouterr().err


@pytest.mark.parametrize("option", [["--games", "-1"], ["--board", "square"], ["--read-timeout", "0"]])
def test_bad_options_are_refused(option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(option)
    assert exit_info.value.code == 2
    assert option[0] in capsys.readouterr().err
