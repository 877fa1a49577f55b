"""The log file: one that cannot be opened is a configuration error (exit 2, one line, caught by
check-config), and it is rotated so that it stays bounded (``logging.max_bytes``, ``logging.backups``)."""

from __future__ import annotations

import io
import logging
import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.errors import ConfigError
from bot.logs import LogFile, setup_logging
from bot.settings.config import parse_config

ENV = {**os.environ, "WORDFEUD_EMAIL": "bot@example.org", "WORDFEUD_PASSWORD": "correct horse battery"}


def bad_log_path(tmp_path: Path, kind: str) -> tuple[Path, str]:
    """A log path that cannot be opened for writing, and the words of the reason."""
    if kind == "directory":
        path = tmp_path / "logs"
        path.mkdir()
        return path, "Is a directory"
    if kind == "under-a-file":
        (tmp_path / "plain").write_text("", encoding="utf-8")
        return tmp_path / "plain" / "bot.log", f"{tmp_path / 'plain'} is not a directory"
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    return locked / "bot.log", "Permission denied"


KINDS = [
    "directory",
    "under-a-file",
    pytest.param(
        "unwritable-directory",
        marks=pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a directory of mode 500"),
    ),
]


def wordfeud_bot(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *argv], env=ENV, capture_output=True, text=True, timeout=120, check=False
    )


def config_with(tmp_path: Path, extra: str = "") -> Path:
    config = tmp_path / "bot.toml"
    config.write_text(f'[api]\nbase_url = "http://127.0.0.1:9/wf/"\n{extra}', encoding="utf-8")
    config.chmod(0o600)
    return config


def assert_config_error(
    result: subprocess.CompletedProcess[str], command: str, source: str, path: Path, why: str
) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"wordfeud-bot {command}: {source} {path}: cannot write the log there: {why}\n"
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["once", "run", "demo"])
def test_a_log_file_option_that_cannot_be_opened_is_a_config_error(tmp_path: Path, command: str, kind: str) -> None:
    path, why = bad_log_path(tmp_path, kind)
    service = ["--config", str(config_with(tmp_path)), "--state", str(tmp_path / "s.db")] if command != "demo" else []
    result = wordfeud_bot(command, *service, "--log-file", str(path))
    assert_config_error(result, command, "--log-file", path, why)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["once", "run", "check-config"])
def test_a_logging_file_that_cannot_be_opened_is_a_config_error(tmp_path: Path, command: str, kind: str) -> None:
    path, why = bad_log_path(tmp_path, kind)
    config = config_with(tmp_path, f'[logging]\nfile = "{path}"\n')
    result = wordfeud_bot(command, "--config", str(config), "--state", str(tmp_path / "s.db"))
    assert_config_error(result, command, "logging.file", path, why)
    assert result.stdout == ""


def test_check_config_checks_the_log_file_option_too(tmp_path: Path) -> None:
    path, why = bad_log_path(tmp_path, "directory")
    result = wordfeud_bot("check-config", "--config", str(config_with(tmp_path)), "--log-file", str(path))
    assert_config_error(result, "check-config", "--log-file", path, why)


def test_check_config_passes_a_log_file_that_opens(tmp_path: Path) -> None:
    path = tmp_path / "new" / "bot.log"
    config = config_with(tmp_path, f'[logging]\nfile = "{path}"\n')
    result = wordfeud_bot("check-config", "--config", str(config), "--state", str(tmp_path / "s.db"))
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert path.is_file() and stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("max_bytes = 100", "logging.max_bytes: expected 0 (never rotate) or at least 4096 bytes, got 100"),
        ("max_bytes = -1", "logging.max_bytes: Input should be greater than or equal to 0"),
        (
            "max_bytes = '1 MB'",
            "logging.max_bytes: Input should be a valid integer, unable to parse string as an integer",
        ),
        ("backups = 0", "logging.backups: Input should be greater than or equal to 1"),
        ("backups = 5000", "logging.backups: Input should be less than or equal to 1000"),
    ],
)
def test_bad_rotation_settings_name_the_key(table: str, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config(tomllib.loads(f"[logging]\n{table}\n"), "bot.toml")
    assert str(error.value) == f"bot.toml: {message}"


def test_the_log_is_rotated_and_bounded(tmp_path: Path) -> None:
    path = tmp_path / "bot.log"
    setup_logging("INFO", LogFile(path, max_bytes=4096, backups=2))
    log = logging.getLogger("bot.test")
    line = "x" * 100
    for number in range(400):  # about 60 KB of log: many times what the three files hold
        log.info("line %d %s", number, line)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["bot.log", "bot.log.1", "bot.log.2"]  # the oldest beyond two backups are gone
    for name in files:
        size = (tmp_path / name).stat().st_size
        assert 0 < size <= 4096, (name, size)
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name  # rotated files stay private
    assert "line 399 " in path.read_text(encoding="utf-8")  # the newest lines are in the file itself
    assert "line 0 " not in "".join((tmp_path / name).read_text(encoding="utf-8") for name in files)


def test_max_bytes_0_never_rotates(tmp_path: Path) -> None:
    path = tmp_path / "bot.log"
    setup_logging("INFO", LogFile(path, max_bytes=0, backups=2))
    for number in range(100):
        logging.getLogger("bot.test").info("line %d %s", number, "x" * 100)
    assert [p.name for p in tmp_path.iterdir()] == ["bot.log"] and path.stat().st_size > 10_000


def test_the_default_rotation_is_bounded() -> None:
    settings = parse_config({}).logging
    assert settings.max_bytes == 10 * 1024 * 1024 and settings.backups == 5  # at most 60 MiB of log


def test_the_stderr_handler_writes_to_the_stderr_of_the_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stderr replaced and closed after the logs were set up (a test's capture, an embedding program's)
    is never written to: the next record goes to the stderr of its moment, with no "Logging error"."""
    first, second = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    setup_logging("INFO")
    first.close()
    monkeypatch.setattr(sys, "stderr", second)
    logging.getLogger("bot.test").warning("after the first stderr closed")
    assert "after the first stderr closed" in second.getvalue()
    assert "Logging error" not in second.getvalue()
