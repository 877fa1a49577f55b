"""Configuration: the example file loads, bad values name their key, secrets only from the environment."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.config import BotConfig, load_config, load_credentials, parse_config
from bot.credentials import hash_password
from bot.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parents[2] / "config" / "bot.example.toml"


def test_the_example_file_loads_and_states_every_default() -> None:
    config = load_config(EXAMPLE)
    defaults = BotConfig()
    assert config == defaults
    # every key of every section appears in the example (so it cannot rot), set or commented out
    text = EXAMPLE.read_text(encoding="utf-8")
    for section, model in BotConfig.model_fields.items():
        assert f"[{section}]" in text
        assert model.annotation is not None
        for key in type(getattr(defaults, section)).model_fields:
            assert f"\n{key} = " in text or f"\n# {key} = " in text, f"{section}.{key} missing from the example"


@pytest.mark.parametrize(
    ("toml", "named"),
    [
        ("[api]\ntimeout_seconds = -1", "api.timeout_seconds"),
        ("[api]\nbase_url = 'http://api.wordfeud.com/wf/'", "api.base_url"),
        ("[api]\nbase_url = 'ftp://x'", "api.base_url"),
        ("[invites]\nrulesets = [5, 13]", "invites.rulesets"),
        ("[invites]\nboard_types = ['square']", "invites.board_types.0"),
        ("[account]\npassword = 'x'", "account.password: unknown key"),
        ("[acount]\nlogin = 'email'", "acount: unknown key"),
        ("[play]\nmax_candidates = 'many'", "play.max_candidates"),
        ("[logging]\nlevel = 'LOUD'", "logging.level"),
        ("[play]\nstrategy = 'genius'", "play.strategy: unknown strategy 'genius'; known: equity, equity-hand"),
        ("[play]\nstrategy = 'equity:/no/such/table.json'", "no leave table file '/no/such/table.json'"),
    ],
)
def test_bad_values_name_the_key(toml: str, named: str) -> None:
    with pytest.raises(ConfigError) as exc:
        parse_config(tomllib.loads(toml), "bot.toml")
    assert named in str(exc.value) and str(exc.value).startswith("bot.toml: ")


def test_local_http_is_allowed_for_the_sandbox() -> None:
    config = parse_config({"api": {"base_url": "http://127.0.0.1:8080/wf/"}})
    assert config.api.base_url.startswith("http://127.0.0.1")


def test_unreadable_or_broken_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing\.toml"):
        load_config(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[api\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(broken)


def test_credentials_from_the_environment() -> None:
    config = BotConfig()
    creds = load_credentials(config, {"WORDFEUD_EMAIL": "me@x.org", "WORDFEUD_PASSWORD": "pw"})
    assert (creds.method, creds.login, creds.password_hash) == ("email", "me@x.org", hash_password("pw"))
    digest = hash_password("other")
    creds = load_credentials(config, {"WORDFEUD_EMAIL": "me@x.org", "WORDFEUD_PASSWORD_HASH": digest.upper()})
    assert creds.password_hash == digest
    by_id = parse_config({"account": {"login": "id"}})
    assert load_credentials(by_id, {"WORDFEUD_USER_ID": "123", "WORDFEUD_PASSWORD": "pw"}).login == "123"


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({}, "WORDFEUD_EMAIL"),
        ({"WORDFEUD_EMAIL": "me@x.org"}, "WORDFEUD_PASSWORD"),
        ({"WORDFEUD_EMAIL": "me@x.org", "WORDFEUD_PASSWORD_HASH": "nothex"}, "40 hexadecimal"),
    ],
)
def test_missing_or_bad_secrets_name_the_variable(env: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        load_credentials(BotConfig(), env)


def test_secrets_file_must_be_private(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.env"
    secrets.write_text("# mine\nWORDFEUD_EMAIL=me@x.org\nWORDFEUD_PASSWORD='pw'\n", encoding="utf-8")
    secrets.chmod(0o644)
    config = parse_config({"account": {"secrets_file": str(secrets)}})
    with pytest.raises(ConfigError, match="chmod 600"):
        load_credentials(config, {})
    secrets.chmod(0o600)
    creds = load_credentials(config, {})
    assert creds.login == "me@x.org" and creds.password_hash == hash_password("pw")
    # the environment wins over the file
    assert load_credentials(config, {"WORDFEUD_EMAIL": "env@x.org"}).login == "env@x.org"
    secrets.write_text("garbage line\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="line 1"):
        load_credentials(config, {})
