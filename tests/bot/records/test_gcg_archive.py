"""``[records] gcg_dir``: the GCG record of a finished game written when the bot sees it end (the sandbox over
HTTP, the ``once`` command as cron runs it), once and whole; off by default; a failure is one log line."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bot.errors import ConfigError
from bot.records.archive import GcgArchive, game_over_hook
from bot.records.gcg import parse_gcg
from bot.records.gcg_game import play_back, ruleset_of
from bot.settings.config import parse_config
from bot.store.store import Store
from cli.main import main
from tests.bot.conftest import BOT_EMAIL, BOT_PASSWORD, Sandbox
from tests.bot.recorded import record_demo


def _play_to_the_end(sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: str) -> int:
    """A game bot vs house played to its end by ``once`` runs, and one more run that sees it over."""
    game = sandbox.game(5)
    config = sandbox.config_file(tmp_path / "bot.toml", extra)
    monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
    monkeypatch.setenv("WORDFEUD_PASSWORD", BOT_PASSWORD)
    state = tmp_path / "state.db"
    for _ in range(60):
        if game.game.is_over:
            break
        assert main(["once", "--config", str(config), "--state", str(state)]) == 0
    assert game.game.is_over
    assert main(["once", "--config", str(config), "--state", str(state)]) == 0
    return game.id


def test_a_game_played_to_its_end_leaves_its_gcg_file(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "records" / "gcg"  # missing: created when the service starts
    game_id = _play_to_the_end(sandbox, tmp_path, monkeypatch, f'[records]\ngcg_dir = "{folder}"\n')
    assert sorted(p.name for p in folder.iterdir()) == [f"{game_id}.gcg"]  # no .partial left beside it
    game = parse_gcg((folder / f"{game_id}.gcg").read_text(encoding="utf-8"))
    imported = play_back(game, ruleset_of(game))
    store = Store(tmp_path / "state.db")
    try:
        row = next(r for r in store.games() if r.game_id == game_id)
    finally:
        store.close()
    assert imported.scores == (row.my_score, row.their_score)
    written = (folder / f"{game_id}.gcg").stat().st_mtime_ns
    config = tmp_path / "bot.toml"
    assert main(["once", "--config", str(config), "--state", str(tmp_path / "state.db")]) == 0
    assert (folder / f"{game_id}.gcg").stat().st_mtime_ns == written  # once: a later pass does not write it again


def test_off_by_default_no_gcg_file_is_written(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, _private_data_dir: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    _play_to_the_end(sandbox, tmp_path, monkeypatch, "")
    assert parse_config({}).records.gcg_dir is None
    assert list(tmp_path.rglob("*.gcg")) == [] and list(_private_data_dir.rglob("*.gcg")) == []


def test_gcg_dir_is_a_path_and_a_file_in_its_place_is_an_error(tmp_path: Path) -> None:
    afile = tmp_path / "taken"
    afile.write_text("x", encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(f"records.gcg_dir: {afile} is a file, not a directory")):
        parse_config({"records": {"gcg_dir": str(afile)}})
    with pytest.raises(ConfigError, match=r"records\.gcg_dir"):
        parse_config({"records": {"gcg_dir": 5}})
    assert game_over_hook(None) is None
    below = afile / "gcg"  # a directory that cannot be made: names the key and the path
    with pytest.raises(ConfigError, match=re.escape(f"records.gcg_dir {below}: ")):
        game_over_hook(below)


def test_a_record_that_cannot_be_written_is_one_log_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    recorded = record_demo(tmp_path, 1)  # a whole game in a state file
    store = Store(recorded.state)
    folder = tmp_path / "gcg"
    archive = GcgArchive.opened(folder)
    try:
        with caplog.at_level(logging.INFO, logger="bot.records.archive"):
            archive(store, 42)  # no recorded position: no record to make
            folder.rmdir()
            folder.write_text("x", encoding="utf-8")  # the directory gone, a file in its place
            archive(store, recorded.game_id)
    finally:
        store.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.records.archive"]
    assert len(lines) == 2
    assert lines[0].startswith(f"game 42: the GCG record {folder / '42.gcg'} is not written: ")
    path = folder / f"{recorded.game_id}.gcg"
    assert lines[1] == f"game {recorded.game_id}: the GCG record {path} is not written: {folder} is not a directory"
