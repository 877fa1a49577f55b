"""``check-config`` says which password variable is used and where it is set (never its value), and
shows the strategy, the status page's address, the log file and the random games."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.api.credentials import hash_password
from bot.settings.checkconfig import status_address
from bot.settings.config import BotConfig, parse_config, password_source
from cli.main import main

SECRET = "Tr0ub4dor&3"


def _check(tmp_path: Path, toml: str, extra: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    config = tmp_path / "bot.toml"
    config.write_text(toml, encoding="utf-8")
    config.chmod(0o600)
    assert main(["check-config", "--config", str(config), "--state", str(tmp_path / "s.db"), *extra]) == 0
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err and hash_password(SECRET) not in captured.out + captured.err
    return captured.out.splitlines()


def test_the_password_variable_and_the_settings_are_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WORDFEUD_EMAIL", "bot@example.org")
    monkeypatch.setenv("WORDFEUD_PASSWORD", SECRET)
    monkeypatch.delenv("WORDFEUD_PASSWORD_HASH", raising=False)
    toml = (
        '[api]\nbase_url = "http://127.0.0.1:9/wf/"\n[play]\nstrategy = "equity"\nseconds_per_move = 3\n'
        '[status]\nlisten = "127.0.0.1:8765"\n[random_games]\nkeep = 2\nrulesets = [5, 0]\n'
        '[logging]\nfile = "/var/tmp/from-config.log"\n[invites]\nlevel = "club"\nlevels = { Ann = "beginner" }\n'
        '[chat]\nenabled = true\n'
        '[records]\ngcg_dir = "/var/tmp/gcg"\n'
    )
    out = _check(tmp_path, toml, ["--log-file", str(tmp_path / "bot.log")], capsys)
    assert "account: email bot@example.org; password: WORDFEUD_PASSWORD from the environment" in out
    assert not any("hash set" in line for line in out)
    assert "strategy: equity, up to 3 s a move, 10 candidates if the server refuses words" in out
    assert "status page: http://127.0.0.1:8765/" in out
    assert f"log file: {tmp_path / 'bot.log'} (and stderr), level INFO" in out  # --log-file wins
    assert "random games: keep 2 going on rulesets [5, 0], normal board" in out
    assert "level: full (play.strategy); invitations club; ann beginner" in out
    assert "chat: on: a greeting and a closing line in each game" in out
    assert "GCG records of finished games: /var/tmp/gcg/<game id>.gcg" in out


def test_the_defaults_say_what_is_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WORDFEUD_EMAIL", "bot@example.org")
    monkeypatch.delenv("WORDFEUD_PASSWORD", raising=False)
    monkeypatch.setenv("WORDFEUD_PASSWORD_HASH", hash_password(SECRET))
    out = _check(tmp_path, '[api]\nbase_url = "http://127.0.0.1:9/wf/"\n', [], capsys)
    assert "account: email bot@example.org; password: WORDFEUD_PASSWORD_HASH from the environment" in out
    assert "strategy: sim, up to 2 s a move, 10 candidates if the server refuses words" in out
    assert "status page: off (set status.listen, e.g. 127.0.0.1:8765, to serve it)" in out
    assert "log file: none: the log goes to stderr only (--log-file or logging.file), level INFO" in out
    assert "random games: off (random_games.keep = 0: the bot asks for no random opponents)" in out
    assert "level: full (play.strategy)" in out and "chat: off (chat.enabled)" in out
    assert "GCG records of finished games: off (records.gcg_dir)" in out


def test_where_the_password_comes_from(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.env"
    secrets.write_text(f"export WORDFEUD_PASSWORD='{SECRET}'\n", encoding="utf-8")
    secrets.chmod(0o600)
    config = parse_config({"account": {"secrets_file": str(secrets)}})
    assert password_source(config, {}) == f"WORDFEUD_PASSWORD from the secrets file {secrets}"
    both = password_source(config, {"WORDFEUD_PASSWORD_HASH": hash_password(SECRET)})
    assert both == "WORDFEUD_PASSWORD_HASH from the environment (WORDFEUD_PASSWORD is set too, and not used)"
    assert password_source(BotConfig(), {}) == ""


@pytest.mark.parametrize(
    ("listen", "shown"),
    [("0.0.0.0:80", "http://0.0.0.0:80/"), ("[::1]:8765", "http://[::1]:8765/"), ("127.0.0.1:0", "<any free port>")],
)
def test_status_address(listen: str, shown: str) -> None:
    assert shown in status_address(listen)
