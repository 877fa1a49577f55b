"""Test-wide settings: no test sees the user's own lexicons or data directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path_factory.mktemp("wordfeud-bot-data")
    monkeypatch.setenv("WORDFEUD_BOT_DATA", str(data))
    return data
