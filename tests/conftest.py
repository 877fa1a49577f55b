"""Test-wide settings: no test sees the user's own lexicons or data directory, and no test may log an ERROR
record unless it is marked ``logs_errors`` with the reason (as python-chess does: an error log is a bug)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path_factory.mktemp("wordfeud-bot-data")
    monkeypatch.setenv("WORDFEUD_BOT_DATA", str(data))
    return data


@pytest.fixture(autouse=True)
def _no_lexicon_from_an_earlier_test() -> Iterator[None]:
    """The per-process lexicon cache of the offline workers is emptied after each test: loaded in a test whose
    private data directory held a lexicon of its own, it would serve that lexicon to every later test."""
    yield
    workers = sys.modules.get("offline.runs.workers")
    if workers is not None:
        workers.worker_lexicon.cache_clear()


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """Each test leaves the root logger as it found it: the handlers a command's ``setup_logging`` added, and
    the level it set, would otherwise print a later test's records to that test's stderr."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    for handler in handlers:
        if handler not in root.handlers:
            root.addHandler(handler)  # one setup_logging took off (it replaces the bot's own)
    root.setLevel(level)


@pytest.fixture(autouse=True)
def _no_error_logs(request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail a test that logs at ERROR or above (in its setup or its call) and is not marked ``logs_errors``."""
    yield
    if request.node.get_closest_marker("logs_errors") is not None:
        return
    errors = [r for when in ("setup", "call") for r in caplog.get_records(when) if r.levelno >= logging.ERROR]
    if errors:
        lines = "\n".join(f"  {r.name}: {r.getMessage()}" for r in errors)
        pytest.fail(f"{len(errors)} ERROR log record(s) (mark the test logs_errors(why) if expected):\n{lines}")
