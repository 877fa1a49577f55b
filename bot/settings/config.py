"""The bot's configuration: a TOML file loaded into pydantic models, secrets from the environment.

Secrets never live in the configuration: the login (``WORDFEUD_EMAIL``, ``WORDFEUD_USERNAME`` or
``WORDFEUD_USER_ID``, by ``account.login``) and ``WORDFEUD_PASSWORD`` or
``WORDFEUD_PASSWORD_HASH`` come from the environment, or from ``account.secrets_file`` (``KEY=value``
or ``export KEY=value`` lines, ``bot.settings.secretsfile``) which must be readable by its owner only. A bad file
names the key and the problem.
"""

from __future__ import annotations

import difflib
import os
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bot.api.client import DEFAULT_BASE_URL
from bot.api.credentials import Credentials
from bot.api.transport import check_base_url
from bot.errors import ConfigError
from bot.settings.chatlines import check_template
from bot.settings.secretsfile import parse_secrets
from engine.players.levels import level_named
from engine.players.registry import strategy_named, table_file
from engine.rules.ruleset import RULESET_IDS

LOGIN_VARIABLES = {"email": "WORDFEUD_EMAIL", "username": "WORDFEUD_USERNAME", "id": "WORDFEUD_USER_ID"}
PASSWORD_VARIABLES = ("WORDFEUD_PASSWORD", "WORDFEUD_PASSWORD_HASH")
#: The ``WORDFEUD_*`` keys a secrets file may set (the file is also sourced by cron, so the bot's
#: own variables may be there too).
SECRETS_FILE_KEYS = (*LOGIN_VARIABLES.values(), *PASSWORD_VARIABLES, "WORDFEUD_BOT_CONFIG", "WORDFEUD_BOT_DATA")
BoardType = Literal["normal", "random"]
BOARD_TYPES: tuple[BoardType, ...] = ("normal", "random")


def default_data_dir() -> Path:
    """Where the bot keeps its state: ``$WORDFEUD_BOT_DATA``, else the XDG data directory."""
    base = os.environ.get("WORDFEUD_BOT_DATA")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "wordfeud-bot"


class Section(BaseModel):
    """A config table: unknown keys are errors (a typo must not be silently ignored)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_rulesets(values: list[int]) -> list[int]:
    bad = [v for v in values if v not in RULESET_IDS]
    if bad:
        raise ValueError(f"unknown ruleset ids {bad}; Wordfeud has 0..12")
    return values


class AccountConfig(Section):
    login: Literal["email", "username", "id"] = "email"
    secrets_file: Path | None = None


class ApiConfig(Section):
    # a refused base_url may hold a password: pydantic's own message must not quote it
    model_config = ConfigDict(extra="forbid", frozen=True, hide_input_in_errors=True)

    base_url: str = DEFAULT_BASE_URL
    timeout_seconds: float = Field(default=15.0, gt=0, le=300)
    retry_attempts: int = Field(default=6, ge=1, le=50)
    retry_seconds: float = Field(default=120.0, gt=0)

    @field_validator("base_url")
    @classmethod
    def _https(cls, value: str) -> str:
        check_base_url(value)  # the client's own check: ValueError naming the (masked) value
        return value


class ScheduleConfig(Section):
    poll_seconds: float = Field(default=30.0, gt=0)
    jitter_seconds: float = Field(default=10.0, ge=0)
    quarantine_seconds: float = Field(default=60.0, ge=0)
    max_games_per_pass: int = Field(default=50, ge=1, le=10_000)


def _check_level(value: str | None) -> str | None:
    if value is not None:
        level_named(value)  # ValueError lists the known levels
    return value


class InvitesConfig(Section):
    accept: bool = True
    rulesets: list[int] = Field(default_factory=lambda: [0, 5])
    board_types: list[BoardType] = Field(default_factory=lambda: list(BOARD_TYPES))
    allow: list[str] = Field(default_factory=list)
    block: list[str] = Field(default_factory=list)
    max_games: int = Field(default=20, ge=1)
    level: str | None = None
    levels: dict[str, str] = Field(default_factory=dict)

    _rulesets = field_validator("rulesets")(_check_rulesets)
    _level = field_validator("level")(_check_level)

    @field_validator("levels")
    @classmethod
    def _levels(cls, value: dict[str, str]) -> dict[str, str]:
        for name, level in value.items():
            try:
                level_named(level)
            except ValueError as exc:
                raise ValueError(f"{name}: {exc}") from None
        return {name.lower(): level for name, level in value.items()}


class RandomGamesConfig(Section):
    keep: int = Field(default=0, ge=0)
    rulesets: list[int] = Field(default_factory=lambda: [5], min_length=1)
    board_type: BoardType = "normal"
    level: str | None = None

    _rulesets = field_validator("rulesets")(_check_rulesets)
    _level = field_validator("level")(_check_level)


def _check_strategy(value: str) -> str:
    strategy_named(value)  # ValueError lists the known names
    path = table_file(value)
    if path is not None and not Path(path).expanduser().is_file():
        raise ValueError(f"no leave table file {path!r}")
    return value


class PlayConfig(Section):
    strategy: str = "sim"
    level: str = "full"
    max_candidates: int = Field(default=10, ge=1, le=100)
    dry_run: bool = False
    seconds_per_move: float = Field(default=2.0, gt=0, le=600)
    learned_words_per_game: int = Field(default=20, ge=0, le=10_000)
    learned_words_per_day: int = Field(default=200, ge=0, le=1_000_000)

    _strategy = field_validator("strategy")(_check_strategy)
    _level = field_validator("level")(_check_level)


class DictionariesConfig(Section):
    directory: Path | None = None


class StoreConfig(Section):
    path: Path | None = None
    # games the bot only read, remembered at most (the oldest forgotten first): bot.store.store.MAX_UNPLAYED_GAMES
    max_unplayed_games: int = Field(default=1000, ge=50, le=1_000_000)

    def resolved(self) -> Path:
        """The state file: the configured path (``~`` expanded) or ``<data dir>/state.sqlite3``."""
        return self.path.expanduser() if self.path else default_data_dir() / "state.sqlite3"


class RecordsConfig(Section):
    gcg_dir: Path | None = None  # off: no GCG file is written when a game ends

    @field_validator("gcg_dir")
    @classmethod
    def _gcg_dir(cls, value: Path | None) -> Path | None:
        if value is None:
            return None
        path = value.expanduser()
        if path.exists() and not path.is_dir():
            raise ValueError(f"{path} is a file, not a directory")
        return path


class ChatConfig(Section):
    enabled: bool = False
    greeting: str | None = None
    closing_won: str | None = None
    closing_lost: str | None = None
    closing_drawn: str | None = None

    @field_validator("greeting", "closing_won", "closing_lost", "closing_drawn")
    @classmethod
    def _template(cls, value: str | None) -> str | None:
        if value is not None:
            if not value.strip() or len(value) > 200:
                raise ValueError("a chat line has 1 to 200 characters")
            check_template(value, "the line")
        return value


#: The smallest ``logging.max_bytes`` that rotates: a smaller file would hold a few lines.
MIN_LOG_BYTES = 4096


class LoggingConfig(Section):
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    file: Path | None = None
    max_bytes: int = Field(default=10 * 1024 * 1024, ge=0)  # 0: never rotated by the bot
    backups: int = Field(default=5, ge=1, le=1000)

    @field_validator("max_bytes")
    @classmethod
    def _max_bytes(cls, value: int) -> int:
        if 0 < value < MIN_LOG_BYTES:
            raise ValueError(f"expected 0 (never rotate) or at least {MIN_LOG_BYTES} bytes, got {value}")
        return value


def parse_listen(text: str) -> tuple[str, int]:
    """``host:port`` (``[::1]:8765`` for IPv6) as (host, port); ValueError naming what is wrong."""
    host, sep, port_text = text.rpartition(":")
    if not sep or not host:
        raise ValueError(f"expected HOST:PORT such as 127.0.0.1:8765, got {text!r}")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"the port of {text!r} is not a number") from None
    if not 0 <= port <= 65535:
        raise ValueError(f"the port of {text!r} must be 0..65535 (0: any free port)")
    return host, port


class StatusConfig(Section):
    listen: str | None = None
    refresh_seconds: float = Field(default=5.0, gt=0, le=3600)
    healthy_polls: int = Field(default=3, ge=1, le=1000)
    read_timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    max_connections: int = Field(default=16, ge=1, le=1000)
    allowed_hosts: tuple[str, ...] = ()

    @field_validator("allowed_hosts")
    @classmethod
    def _allowed_hosts(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for name in value:
            if not name or name != name.strip() or any(c in name for c in "/:@ "):
                raise ValueError(f"{name!r} is not a host name (no port, scheme or path: e.g. 'bot.example.org')")
        return tuple(name.lower() for name in value)

    @field_validator("listen")
    @classmethod
    def _listen(cls, value: str | None) -> str | None:
        if value is not None:
            parse_listen(value)
        return value


class BotConfig(Section):
    """The whole configuration file."""

    model_config = ConfigDict(extra="forbid", frozen=True, hide_input_in_errors=True)  # see ApiConfig

    account: AccountConfig = AccountConfig()
    api: ApiConfig = ApiConfig()
    schedule: ScheduleConfig = ScheduleConfig()
    invites: InvitesConfig = InvitesConfig()
    random_games: RandomGamesConfig = RandomGamesConfig()
    play: PlayConfig = PlayConfig()
    dictionaries: DictionariesConfig = DictionariesConfig()
    store: StoreConfig = StoreConfig()
    logging: LoggingConfig = LoggingConfig()
    status: StatusConfig = StatusConfig()
    chat: ChatConfig = ChatConfig()
    records: RecordsConfig = RecordsConfig()


def load_config(path: Path | None) -> BotConfig:
    """Read and check a config file (None: every default). Raises ConfigError naming the key."""
    if path is None:
        return BotConfig()
    try:
        # utf-8-sig: a byte order mark at the start (editors on Windows write one) is not part of the TOML
        data = tomllib.loads(Path(path).read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise ConfigError(f"config file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"config file {path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start})"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path}: not valid TOML: {exc}") from None
    return parse_config(data, str(path))


def exposure_warning(path: Path) -> str | None:
    """A warning when other users can read the config file (it holds no secret by design, but a
    user may have put one in), else None."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return None
    if not mode & 0o077:
        return None
    return (
        f"config file {path} can be read by other users (mode {mode:o}); secrets belong in the environment "
        f"or account.secrets_file, but if this file holds any, run: chmod 600 {path}"
    )


def parse_config(data: Mapping[str, object], source: str = "config") -> BotConfig:
    """Check a parsed config table."""
    try:
        return BotConfig.model_validate(data)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            key = ".".join(str(part) for part in error["loc"])
            message = error["msg"]
            if error["type"] == "extra_forbidden":
                hint = _did_you_mean(error["loc"])
                message = f"unknown key{hint} (secrets such as passwords belong in the environment)"
            elif error["type"] == "value_error":
                message = str(error["ctx"]["error"]) if "ctx" in error else message.removeprefix("Value error, ")
            problems.append(f"{key}: {message}")
        raise ConfigError(f"{source}: " + "; ".join(problems)) from None


def _did_you_mean(location: tuple[int | str, ...]) -> str:
    """``; did you mean 'poll_seconds'?`` for a key that is a typo of a known one, else ''."""
    model: type[BaseModel] = BotConfig
    for part in location[:-1]:
        annotation = model.model_fields.get(str(part))
        kind = annotation.annotation if annotation is not None else None
        if not (isinstance(kind, type) and issubclass(kind, BaseModel)):
            return ""
        model = kind
    close = difflib.get_close_matches(str(location[-1]), list(model.model_fields), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def load_credentials(config: BotConfig, environ: Mapping[str, str] | None = None) -> Credentials:
    """The login from the environment, completed from ``account.secrets_file``; ConfigError names
    the variable that is missing or the file that others can read."""
    values = {key: value for key, (value, _) in _secret_values(config, environ).items()}
    login_variable = LOGIN_VARIABLES[config.account.login]
    login = values.get(login_variable, "").strip()
    if not login:
        raise ConfigError(
            f"account.login is {config.account.login!r}: set {login_variable} in the environment or the secrets file"
        )
    try:
        if values.get("WORDFEUD_PASSWORD_HASH"):
            return Credentials(config.account.login, login, values["WORDFEUD_PASSWORD_HASH"].strip().lower())
        if values.get("WORDFEUD_PASSWORD"):
            return Credentials.from_password(config.account.login, login, values["WORDFEUD_PASSWORD"])
    except ValueError as exc:
        raise ConfigError(f"{login_variable} / WORDFEUD_PASSWORD_HASH: {exc}") from None
    raise ConfigError("set WORDFEUD_PASSWORD or WORDFEUD_PASSWORD_HASH in the environment or the secrets file")


def _secret_values(config: BotConfig, environ: Mapping[str, str] | None) -> dict[str, tuple[str, str]]:
    """The login and password variables that are set, each with where it came from (the environment
    wins over the secrets file)."""
    env = os.environ if environ is None else environ
    wanted = (*LOGIN_VARIABLES.values(), *PASSWORD_VARIABLES)
    found: dict[str, tuple[str, str]] = {}
    if config.account.secrets_file:
        where = f"the secrets file {config.account.secrets_file}"
        found.update({k: (v, where) for k, v in _secrets_file(config.account.secrets_file).items() if k in wanted})
    found.update({k: (env[k], "the environment") for k in wanted if env.get(k)})
    return {k: (v, where) for k, (v, where) in found.items() if v}


def password_source(config: BotConfig, environ: Mapping[str, str] | None = None) -> str:
    """Which password variable the login uses and where it is set (never its value), e.g.
    ``WORDFEUD_PASSWORD from the environment``; '' when none is set."""
    found = _secret_values(config, environ)
    for variable in ("WORDFEUD_PASSWORD_HASH", "WORDFEUD_PASSWORD"):  # the order load_credentials takes them
        if variable in found:
            text = f"{variable} from {found[variable][1]}"
            other = next((v for v in PASSWORD_VARIABLES if v != variable and v in found), None)
            return text + (f" ({other} is set too, and not used)" if other else "")
    return ""


def _secrets_file(path: Path) -> dict[str, str]:
    path = path.expanduser()
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"account.secrets_file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"account.secrets_file {path}: not UTF-8 text") from None
    if mode & 0o077:
        raise ConfigError(
            f"account.secrets_file {path} can be read by other users (mode {mode:o}); run: chmod 600 {path}"
        )
    return parse_secrets(text, path, SECRETS_FILE_KEYS)
