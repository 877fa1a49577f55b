"""The commands that only read the state file (``stats``, ``replay``, ``learned``) open it read-only: on a
read-only mount (``immutable=1``), without the lock, and an empty file is said to be empty and left as it
is; a lock file the services cannot write is one line and exit 2, as the other read-only cases."""

from __future__ import annotations

import fcntl
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store.store import Store
from cli.main import EXIT_CONFIG, main
from tests.bot.conftest import BOT_EMAIL, BOT_PASSWORD, Sandbox


def _state(tmp_path: Path) -> Path:
    state = tmp_path / "ro" / "state.sqlite3"
    Store(state).close()  # a clean close merges the write-ahead log: the file alone remains
    return state


def _read_only_directory(directory: Path) -> Callable[[], None]:
    """Make ``directory`` one nothing can be created in, as on a read-only mount (root, whom the mode does
    not stop, gets the immutable attribute); returns what undoes it."""
    directory.chmod(0o555)
    if os.geteuid() != 0:
        return lambda: directory.chmod(0o755)
    if subprocess.run(["chattr", "+i", str(directory)], capture_output=True, check=False).returncode != 0:
        directory.chmod(0o755)
        pytest.skip("running as root without chattr: no directory here refuses root's writes")

    def undo() -> None:
        subprocess.run(["chattr", "-i", str(directory)], check=True)
        directory.chmod(0o755)

    return undo


@pytest.mark.parametrize("command", [["stats"], ["replay"], ["learned"]])
def test_reading_commands_work_on_a_read_only_directory_and_write_nothing(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = _state(tmp_path)
    before = state.read_bytes()
    lock = open(f"{state}.lock", "a")  # noqa: SIM115 - another run holds the lock
    undo = _read_only_directory(state.parent)
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert main([*command, "--state", str(state)]) == 0, capsys.readouterr().err
    finally:
        lock.close()
        undo()
    assert capsys.readouterr().err == ""
    assert state.read_bytes() == before
    assert sorted(p.name for p in state.parent.iterdir()) == ["state.sqlite3", "state.sqlite3.lock"]


@pytest.mark.parametrize("command", ["stats", "replay", "learned"])
def test_an_empty_file_is_said_to_be_empty_and_left_empty_by_a_reading_command(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "state.sqlite3"
    empty.touch(mode=0o600)
    assert main([command, "--state", str(empty)]) == EXIT_CONFIG
    assert capsys.readouterr().err == (
        f"wordfeud-bot {command}: state file {empty} is empty (0 bytes): there is nothing to read; it was left as "
        "it is (the bot writes it when it plays: once or run)\n"
    )
    assert empty.read_bytes() == b"" and sorted(p.name for p in tmp_path.iterdir()) == ["state.sqlite3"]


def test_a_lock_file_that_cannot_be_written_is_one_line_and_exit_2(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.sqlite3"
    Store(state).close()
    lock = Path(f"{state}.lock")
    lock.touch(mode=0o400)
    lock.chmod(0o400)
    if os.geteuid() == 0:  # root may write any file: refuse it as the kernel would its owner
        real = os.open

        def refusing(path: str | os.PathLike[str], flags: int, *args: int, **kwargs: int) -> int:
            if str(path) == str(lock) and flags & os.O_WRONLY:
                raise PermissionError(13, "Permission denied", str(path))
            return real(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", refusing)
    config = sandbox.config_file(tmp_path / "bot.toml")
    config.chmod(0o600)
    monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
    monkeypatch.setenv("WORDFEUD_PASSWORD", BOT_PASSWORD)
    assert main(["once", "--config", str(config), "--state", str(state)]) == EXIT_CONFIG
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("wordfeud-bot")]
    assert said == [
        f"wordfeud-bot once: lock file {lock}: Permission denied: the bot takes its lock there before it writes "
        "the state; make the file and its directory writable by this user, or give another --state"
    ]
