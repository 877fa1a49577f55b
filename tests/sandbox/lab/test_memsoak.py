"""The memory soak: the daemon with sim against a faulty sandbox, its resources sampled."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.settings.config import parse_config
from sandbox.lab.memsoak import Sample, at, file_bytes, main, memsoak_config, open_files, rss_kb

SAMPLE_LINE = re.compile(r"^\s*[\d.]+ min  RSS\s+[\d.]+ MB  open files\s+\d+  state\s+[\d.]+ KB  log\s+[\d.]+ KB", re.M)


def test_the_bot_plays_sim_and_keeps_random_games_going(tmp_path: Path) -> None:
    config = parse_config(tomllib.loads(memsoak_config("http://127.0.0.1:4321/wf/", tmp_path / "s.sqlite3", 3)))
    assert config.play.strategy == "sim"
    assert config.random_games.keep == 3 and config.random_games.board_type == "random"
    assert config.store.path == tmp_path / "s.sqlite3"


def test_the_process_figures_are_read_from_proc(tmp_path: Path) -> None:
    assert rss_kb(os.getpid()) > 1_000
    with (tmp_path / "f").open("w"):
        assert open_files(os.getpid()) >= 4  # stdin, stdout, stderr and this file
    (tmp_path / "state").write_bytes(b"x" * 10)
    (tmp_path / "state-wal").write_bytes(b"x" * 5)
    assert file_bytes(tmp_path / "state") == 15 and file_bytes(tmp_path / "missing") == 0


def test_the_sample_after_ten_minutes_is_the_first_at_or_after_it() -> None:
    samples = [Sample(s, 1, 1, 1, 1, 0, 0) for s in (10.0, 300.0, 599.0, 601.0, 900.0)]
    assert at(samples, 600.0).seconds == 601.0
    assert at(samples[:3], 600.0).seconds == 599.0  # a shorter run: its last sample


@pytest.mark.parametrize(
    "argv", [["--minutes", "0"], ["--minutes", "1", "--games", "0"], ["--minutes", "1", "--every", "-1"]]
)
def test_bad_options_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "memsoak" in capsys.readouterr().err


def test_a_short_run_samples_the_bot_and_finds_no_duplicate_or_traceback(tmp_path: Path) -> None:
    work = tmp_path / "work"
    result = subprocess.run(
        [sys.executable, "-m", "sandbox.lab.memsoak", "--minutes", "0.15", "--every", "3", "--keep", str(work)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert len(SAMPLE_LINE.findall(out)) >= 2, out
    assert re.search(r"^RSS: [\d.]+ MB at the start, [\d.]+ MB after [\d.]+ min, [\d.]+ MB at the end", out, re.M)
    assert "duplicate submissions: 0" in out and "tracebacks: 0" in out
    assert re.search(r"^bot submissions: [1-9]", out, re.M), out
    assert "final SIGTERM bot run 1: exited 0" in out
    assert (work / "bot-state.sqlite3").exists() and (work / "bot.log").exists()
