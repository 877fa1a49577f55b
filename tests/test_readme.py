"""The README's quick start, as written: its ``hint`` command runs on the example it names."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PROGRAM = ".venv/bin/wordfeud-bot"
MOVE_ROW = re.compile(r"^\s+(\d+)\s+(?:\d{1,2}[A-O]|[A-O]\d{1,2}) \S+\s+\d+\s", re.MULTILINE)


def quick_start_commands() -> list[str]:
    """The command lines of the README's ``sh`` blocks under "Quick start"."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_the_quick_start_has_its_three_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 3, commands
    assert commands[0].endswith(f"{PROGRAM} demo")
    assert "python -m pytest" in commands[1]
    assert commands[2].startswith(f"{PROGRAM} hint ")


def test_the_quick_start_hint_runs_as_written(tmp_path: Path) -> None:
    """The third command, word for word, from the repository root: the board it names ships, and it
    prints the position and the five best moves."""
    argv = shlex.split(quick_start_commands()[2])
    assert argv[0] == PROGRAM
    board = Path(argv[argv.index("--board") + 1])
    assert (ROOT / board).is_file(), f"the README's hint names {board}, which does not ship"
    installed = Path(sys.executable).parent / "wordfeud-bot"  # the same program in this environment
    program = [str(installed)] if installed.exists() else [sys.executable, "-m", "cli"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORDFEUD_")}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1")
    env["WORDFEUD_BOT_DATA"] = str(tmp_path / "data")
    done = subprocess.run(
        program + argv[1:], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    rack = argv[argv.index("--rack") + 1]
    assert f"rack {rack}" in done.stdout
    ranks = [int(rank) for rank in MOVE_ROW.findall(done.stdout)]
    assert ranks == [1, 2, 3, 4, 5], done.stdout
    assert done.stderr == ""
