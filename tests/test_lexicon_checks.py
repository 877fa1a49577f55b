"""A truncated or corrupt lexicon file is reported as a problem by both ``check-config`` and ``dict list``."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main
from dictionaries import ENGLISH_DAWG, bundled_path


def _broken_lexicon(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "en.dawg"
    path.write_bytes(bundled_path(ENGLISH_DAWG).read_bytes()[:5000])  # truncated
    return path


def test_check_config_loads_the_lexicons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bot.toml"
    lexicons = tmp_path / "lexicons"
    lexicons.mkdir()  # a directory that does not exist is a configuration error of its own
    config.write_text(
        f'[api]\nbase_url = "http://127.0.0.1:9/wf/"\n[dictionaries]\ndirectory = "{lexicons}"\n'
        "[invites]\nrulesets = [5]\n[random_games]\nrulesets = [5]\n",
        encoding="utf-8",
    )
    config.chmod(0o600)
    monkeypatch.setenv("WORDFEUD_EMAIL", "bot@example.org")
    monkeypatch.setenv("WORDFEUD_PASSWORD", "pw")
    arguments = ["check-config", "--config", str(config), "--state", str(tmp_path / "s.db")]
    assert main(arguments) == 0
    assert "ruleset 5: shipped:" in capsys.readouterr().out
    broken = _broken_lexicon(lexicons)
    assert main(arguments) == 2
    out = capsys.readouterr().out
    assert f"ruleset 5: NO USABLE LEXICON: unreadable: {broken}: file is truncated or corrupt" in out


def test_dict_list_says_unreadable_and_exits_1(capsys: pytest.CaptureFixture[str], _private_data_dir: Path) -> None:
    assert main(["dict", "list"]) == 0
    assert "shipped:" in capsys.readouterr().out
    broken = _broken_lexicon(_private_data_dir / "lexicons")
    assert main(["dict", "list"]) == 1
    assert f"unreadable: {broken}: file is truncated" in capsys.readouterr().out
