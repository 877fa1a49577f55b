"""Configuration: the example file loads, bad values name their key, secrets only from the environment."""

from __future__ import annotations

import ipaddress
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from urllib3.util import parse_url

from bot.api.credentials import hash_password
from bot.api.transport import check_base_url
from bot.errors import ConfigError
from bot.settings.config import ApiConfig, BotConfig, load_config, load_credentials, parse_config

EXAMPLE = Path(__file__).resolve().parents[3] / "config" / "bot.example.toml"


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
        ("[play]\nstrategy = 'genius'", "play.strategy: unknown strategy 'genius'; known: equity, equity+endgame"),
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


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://evil.example.net\\@127.0.0.1/wf/", "backslash"),
        ("http://user:s3cretpass@127.0.0.1:8080/wf/", "user info"),
        ("https://s3cretpass@api.wordfeud.com/wf/", "user info"),
        ("https://api.wordfeud.com@evil.example.net/wf/", "user info"),
        ("http://127.0.0.1 /wf/", "whitespace"),
        ("https://api.wordfeud.com/wf/\n", "whitespace"),
        ("https://api.wordfeud.com/w\x00f/", "control character"),
        ("https://аpi.wordfeud.com/wf/", "non-ASCII"),  # a Cyrillic a
        ("https://api.wordfeud.com/wf/?next=x", "query"),
        ("https://api.wordfeud.com/wf/?token=s3cretpass", "query"),
        ("https://api.wordfeud.com/wf/#x", "query or fragment"),
        ("https://api.wordfeud.com/wf/../admin/", "no . or .."),
        ("https://api.wordfeud.com//wf/", "path"),
        ("http://127.0.0.1.evil.example.net/wf/", "plain http"),
        ("http://localhost.evil.example.net/wf/", "plain http"),
        ("http://[::ffff:8.8.8.8]/wf/", "plain http"),
        ("http://127.1/wf/", "not a host name"),
        ("http://0x7f.0.0.1/wf/", "not a host name"),
        ("http://2130706433/wf/", "not a host name"),
        ("https://-x.example.net/wf/", "not a host name"),
        ("http://[::1%25lo]/wf/", "IPv6"),
        ("http://127.0.0.1:0/wf/", "port"),
        ("http://127.0.0.1:65536/wf/", "port"),
        ("http://127.0.0.1:+80/wf/", "port"),
        ("https:/api.wordfeud.com/wf/", "not an http(s) URL"),
        ("api.wordfeud.com/wf/", "not an http(s) URL"),
    ],
)
def test_base_url_is_checked_strictly_and_named_without_its_secrets(url: str, problem: str) -> None:
    with pytest.raises(ConfigError) as exc:
        parse_config({"api": {"base_url": url}}, "bot.toml")
    message = str(exc.value)
    assert message.startswith("bot.toml: api.base_url: ") and problem in message
    assert "s3cretpass" not in message
    if "@" in url:
        assert "***@" in message


@pytest.mark.parametrize(
    "url",
    ["https://api.wordfeud.com/wf/", "http://127.0.0.1:8080/wf/", "http://localhost:8080/wf", "http://[::1]:8080/wf/"],
)
def test_good_base_urls_pass_unchanged(url: str) -> None:
    assert parse_config({"api": {"base_url": url}}).api.base_url == url


def test_a_refused_base_url_is_not_quoted_by_pydantic_either() -> None:
    with pytest.raises(ValidationError) as exc:
        BotConfig.model_validate({"api": {"base_url": "https://me:s3cretpass@api.wordfeud.com/wf/"}})
    assert "s3cretpass" not in str(exc.value)
    with pytest.raises(ValidationError) as direct:
        ApiConfig(base_url="https://me:s3cretpass@api.wordfeud.com/wf/")
    assert "s3cretpass" not in str(direct.value)


_HOSTS = [
    *("127.0.0.1", "localhost", "LocalHost", "[::1]", "[0:0::1]", "example.net", "api.example.net"),
    *("xn--bcher-kva.example", "evil.net\\@127.0.0.1", "127.0.0.1@evil.net", "127.0.0.1.evil.net", "127.1"),
    *("0x7f.1", "[::1%25lo]", "127.0.0.1."),
    *("é.example", "ex ample.net", "%31%32%37.0.0.1", "[::ffff:127.0.0.1]", "", "a..b", "-a.b"),
]
_PATH_PIECES = ["/", "/", "/wf", "/wf/", "wf", "/.", "/..", "/%2f", "@", "\\", "?", "#", " ", ":", "/~x-y_z."]


@settings(max_examples=500, deadline=None)
@given(
    scheme=st.sampled_from(["http://", "https://", "HTTP://", "http:/", "http:\\\\"]),
    host=st.sampled_from(_HOSTS),
    port=st.sampled_from(["", "", ":8080", ":0", ":99999", ":", ":8o"]),
    path=st.lists(st.sampled_from(_PATH_PIECES), max_size=3),
)
def test_an_accepted_base_url_is_read_alike_by_every_parser(scheme: str, host: str, port: str, path: list[str]) -> None:
    """Whatever ``check_base_url`` accepts goes, by requests and urllib3 alike, to the host it checked."""
    url = scheme + host + port + "".join(path)
    try:
        canonical = check_base_url(url)
    except ValueError:
        return
    by_urllib3 = parse_url(url)
    assert by_urllib3.auth is None and by_urllib3.host is not None
    name = _host(by_urllib3.host)
    assert name == _host(urlsplit(url).hostname) == _host(parse_url(canonical).host)
    prepared = requests.Request("POST", canonical + "user/status/").prepare().url or ""
    assert _host(urlsplit(prepared).hostname) == name
    if by_urllib3.scheme == "http":
        assert name in ("localhost", "::1") or name.startswith("127.")


def _host(host: str | None) -> str:
    """A host as one string per machine: IP addresses in their compressed form, names in lower case."""
    bare = (host or "").strip("[]").lower()
    try:
        return ipaddress.ip_address(bare).compressed
    except ValueError:
        return bare
