"""``sandbox --db PATH`` that cannot be the sandbox's file (a directory, a path under a file or in a
missing directory, a file that is not SQLite, the bot's own state file): one line naming the path and why,
exit 2, no traceback, nothing written."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store.store import Store as BotStore


def directory(tmp: Path) -> tuple[Path, str]:
    (tmp / "state").mkdir()
    return tmp / "state", "cannot open the sandbox's file: it is a directory"


def under_a_file(tmp: Path) -> tuple[Path, str]:
    (tmp / "plain").write_text("", encoding="utf-8")
    return tmp / "plain" / "sandbox.db", f"cannot open the sandbox's file: {tmp / 'plain'} is not a directory"


def in_a_missing_directory(tmp: Path) -> tuple[Path, str]:
    return tmp / "nowhere" / "sandbox.db", f"cannot open the sandbox's file: there is no directory {tmp / 'nowhere'}"


def not_sqlite(tmp: Path) -> tuple[Path, str]:
    (tmp / "notes.db").write_text("not a database, just text that is long enough to be read\n" * 20, encoding="utf-8")
    return tmp / "notes.db", "cannot use it as the sandbox's file: file is not a database"


def the_bots_state_file(tmp: Path) -> tuple[Path, str]:
    BotStore(tmp / "state.sqlite3").close()
    why = "it is the bot's state file (wordfeud-bot's), not a sandbox's; it was left as it was. Give the sandbox a "
    return tmp / "state.sqlite3", why + "file of its own"


@pytest.mark.parametrize("make", [directory, under_a_file, in_a_missing_directory, not_sqlite, the_bots_state_file])
@pytest.mark.parametrize("command", [["-m", "sandbox"], ["-m", "cli.main", "sandbox"]])
def test_a_db_that_cannot_be_opened_is_one_line_and_exit_2(
    tmp_path: Path, make: Callable[[Path], tuple[Path, str]], command: list[str]
) -> None:
    path, why = make(tmp_path)
    before = sorted(tmp_path.rglob("*"))
    content = path.read_bytes() if path.is_file() else None
    result = subprocess.run(
        [sys.executable, *command, "--db", str(path), "--port", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    prog = "python -m sandbox" if command[1] == "sandbox" else "wordfeud-bot sandbox"
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"{prog}: --db {path}: {why}\n"
    assert result.stdout == "" and sorted(tmp_path.rglob("*")) == before  # no server started, nothing made
    assert content is None or path.read_bytes() == content  # nothing written either


def test_check_names_the_bots_state_file_and_leaves_it_alone(tmp_path: Path) -> None:
    state = tmp_path / "state.sqlite3"
    BotStore(state).close()
    content = state.read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "sandbox", "--db", str(state), "--check"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 2 and result.stderr == (
        f"python -m sandbox: {state}: it is the bot's state file (wordfeud-bot's), not a sandbox's; it was left as "
        "it was. Give the sandbox a file of its own\n"
    )
    assert state.read_bytes() == content
