"""``account.secrets_file``: the shell form the README's cron line sources is read, and a line that is
not understood is named by file and line (never by its value)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.api.credentials import hash_password
from bot.errors import ConfigError
from bot.settings.config import SECRETS_FILE_KEYS, load_credentials, parse_config
from bot.settings.secretsfile import parse_secrets


def _secrets(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "secrets.env"
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    return path


def test_export_lines_as_the_readme_gives_them_log_in(tmp_path: Path) -> None:
    path = _secrets(tmp_path, "export WORDFEUD_EMAIL=me@x.org\nexport WORDFEUD_PASSWORD='p w#1'\n")
    creds = load_credentials(parse_config({"account": {"secrets_file": str(path)}}), {})
    assert creds.login == "me@x.org" and creds.password_hash == hash_password("p w#1")


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("WORDFEUD_PASSWORD=plain", "plain"),
        ("export   WORDFEUD_PASSWORD=plain  # a comment", "plain"),
        ("WORDFEUD_PASSWORD='it''s'", "its"),
        ("WORDFEUD_PASSWORD='$HOME `x` \\'", "$HOME `x` \\"),
        ('WORDFEUD_PASSWORD="a \\"b\\" \\$c"', 'a "b" $c'),
        ("WORDFEUD_PASSWORD=a\\ b", "a b"),
        ("WORDFEUD_PASSWORD=", ""),
    ],
)
def test_values_are_read_as_a_shell_reads_them(tmp_path: Path, line: str, value: str) -> None:
    assert parse_secrets(f"# x\n\n{line}\n", tmp_path, SECRETS_FILE_KEYS) == {"WORDFEUD_PASSWORD": value}


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("garbage line", "expected KEY=value or export KEY=value"),
        ("export", "expected KEY=value or export KEY=value"),
        ("set WORDFEUD_EMAIL=me@x.org", "expected KEY=value"),
        ("WORDFEUD_EMAL=me@x.org", "unknown key WORDFEUD_EMAL; did you mean WORDFEUD_EMAIL?"),
        ("WORDFEUD_PASSWORD='s3cret", "(WORDFEUD_PASSWORD): a single quote is not closed"),
        ('WORDFEUD_PASSWORD="s3cret', "a double quote is not closed"),
        ("WORDFEUD_PASSWORD=s3cret two", "a space outside quotes"),
        ("WORDFEUD_PASSWORD=s3cret$HOME", "shell expansion ($)"),
        ('WORDFEUD_PASSWORD="s3cret`id`"', "shell expansion (`) in double quotes"),
    ],
)
def test_a_line_not_understood_is_named_by_file_and_line(tmp_path: Path, line: str, problem: str) -> None:
    path = _secrets(tmp_path, f"# mine\nexport WORDFEUD_EMAIL=me@x.org\n{line}\n")
    config = parse_config({"account": {"secrets_file": str(path)}})
    with pytest.raises(ConfigError) as exc:
        load_credentials(config, {})
    message = str(exc.value)
    assert message.startswith(f"account.secrets_file {path} line 3") and problem in message
    assert "s3cret" not in message


def test_other_variables_for_cron_are_allowed(tmp_path: Path) -> None:
    text = "export PATH=/usr/bin\nexport WORDFEUD_BOT_DATA=/srv/wf\nWORDFEUD_USER_ID=12\nWORDFEUD_PASSWORD=pw\n"
    path = _secrets(tmp_path, text)
    creds = load_credentials(parse_config({"account": {"login": "id", "secrets_file": str(path)}}), {})
    assert creds.login == "12"
