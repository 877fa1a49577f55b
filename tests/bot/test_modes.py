"""Files the bot creates are its owner's only; a config file others can read is pointed out."""

from __future__ import annotations

import logging
import stat
from pathlib import Path

import pytest

from bot.logs import LogFile, setup_logging
from cli.main import main
from engine import native


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_log_file_is_private(tmp_path: Path) -> None:
    log_file = tmp_path / "logs" / "bot.log"
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        setup_logging("INFO", LogFile(log_file))
        logging.getLogger("bot.test").info("hello")
    finally:
        for handler in list(root.handlers):
            if handler not in before:
                root.removeHandler(handler)
                handler.close()
    assert mode(log_file) == 0o600
    assert "hello" in log_file.read_text(encoding="utf-8")


def test_a_config_file_others_can_read_is_pointed_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bot.toml"
    config.write_text('[api]\nbase_url = "http://127.0.0.1:9/wf/"\n', encoding="utf-8")
    monkeypatch.setenv("WORDFEUD_EMAIL", "bot@example.org")
    monkeypatch.setenv("WORDFEUD_PASSWORD", "pw")
    arguments = ["check-config", "--config", str(config), "--state", str(tmp_path / "s.db")]
    config.chmod(0o644)
    main(arguments)
    captured = capsys.readouterr()
    assert native.describe() in captured.out.splitlines()  # check-config says which move generator runs
    err = captured.err
    assert f"config file {config} can be read by other users (mode 644)" in err and f"chmod 600 {config}" in err
    config.chmod(0o600)
    main(arguments)
    assert "can be read by other users" not in capsys.readouterr().err
