"""The project speaks of itself alone: no tracked file names a work session (a numbered stop or issue, "this
round") or the machine it was made on; history is told by date and commit, or by version in the CHANGELOG."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SESSION_WORDS = re.compile(
    r"\b[Ss]tops? \d+|\b[Ii]ssues? \d+|\bdevelopment\s+machine|\b(?:this|last|next|earlier|previous) (?:round|stop)\b"
)


def tracked_text_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are not known")
    files = [ROOT / name for name in listed.splitlines()]
    return [path for path in files if path.is_file() and path.suffix not in {".gz", ".dawg", ".png", ".so"}]


def test_no_tracked_file_names_a_work_session() -> None:
    found = []
    for path in tracked_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if SESSION_WORDS.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


def test_the_check_finds_what_it_looks_for() -> None:
    # spelled in parts, so that this file does not name what it looks for
    session, number = "stop", " 43"
    spelled = ["as " + session + number, "Issue" + number, "on the develop" + "ment machine", "this " + "round's code"]
    for line in spelled:
        assert SESSION_WORDS.search(line), line
    for line in ["round-trips", "fit rounds", "a stop signal", "stopped 3 games"]:
        assert not SESSION_WORDS.search(line), line
