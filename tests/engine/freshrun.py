"""The hostile-input case modules (``native_cases``, ``endgame_cases``, ``playout_cases``) run in a fresh
interpreter, so that a crash of the C extension fails a test instead of killing pytest."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_module(module: str, *arguments: str, timeout: float = 300) -> dict[str, Any]:
    """``python -m MODULE ARGUMENTS`` in a fresh interpreter: its closing JSON line. A crash fails the test,
    naming the signal and the last case the module said it started (a ``case: NAME`` line)."""
    done = subprocess.run(
        [sys.executable, "-m", module, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    lines = done.stdout.splitlines()
    if done.returncode < 0:
        last = next((line for line in reversed(lines) if line.startswith("case: ")), "no case started")
        pytest.fail(f"crashed with {signal.Signals(-done.returncode).name} ({last}):\n{done.stderr[-2000:]}")
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(lines[-1])
    return result
