"""Wiring: a configured bot from a config and credentials (the one place the client is made)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

from bot.api.client import RetryPolicy, WordfeudClient
from bot.api.credentials import Credentials
from bot.errors import ConfigError
from bot.logs import Redactor
from bot.play.acceptances import LearningBudget
from bot.play.chat import ChatLines, Chatter
from bot.play.reads import ReadSchedule
from bot.play.service import Bot
from bot.play.strength import StrengthChooser
from bot.play.turn import TurnPlayer, TurnSettings
from bot.settings.config import BotConfig
from bot.store.store import Store
from dictionaries.registry import LexiconRegistry, user_lexicon_dir
from engine.errors import LexiconError
from engine.players.registry import strategy_named

log = logging.getLogger(__name__)


@dataclass
class Wiring:
    """The bot's parts, for the modes to use and close."""

    bot: Bot
    client: WordfeudClient
    store: Store
    lexicons: LexiconRegistry


def account_key(credentials: Credentials, base_url: str) -> str:
    """How the store names a saved session: server and login (no secret)."""
    return f"{base_url} {credentials.method}:{credentials.login}"


def registry_for(config: BotConfig) -> LexiconRegistry:
    """The lexicons: the configured directory first, then the user directory, then the shipped ones.
    ConfigError naming ``dictionaries.directory`` when it is set and is no directory (a typo would
    otherwise play other lexicons than the ones meant, without a word)."""
    extra = [config.dictionaries.directory.expanduser()] if config.dictionaries.directory else []
    for directory in extra:
        if not directory.is_dir():
            what = "not a directory" if directory.exists() else "no such directory"
            raise ConfigError(f"dictionaries.directory {directory}: {what}")
    return LexiconRegistry([*extra, user_lexicon_dir()])


def build(
    config: BotConfig,
    credentials: Credentials,
    *,
    store: Store | None = None,
    redactor: Redactor | None = None,
    http: requests.Session | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    store_path: Path | None = None,
    game_over: Callable[[Store, int], None] | None = None,
) -> Wiring:
    """A bot for the configured account; reuses a saved session when the store has one. ``game_over`` is
    called once with the store and the game's id when the bot sees a game end (``bot.records.archive``).
    ConfigError when the configured lexicons cannot be found (before the state file is opened)."""
    lexicons = registry_for(config)
    store = store or Store(store_path or config.store.resolved(), max_unplayed_games=config.store.max_unplayed_games)
    redactor = redactor or Redactor()
    for secret in credentials.secrets():
        redactor.add(secret)
    key = account_key(credentials, config.api.base_url)
    saved = store.session(key)
    if saved is not None:
        redactor.add_session(saved[0])

    def remember(session_id: str, user_id: int) -> None:
        redactor.add_session(session_id)
        store.save_session(key, session_id, user_id)

    client = WordfeudClient(
        config.api.base_url,
        credentials=credentials,
        session_id=saved[0] if saved else None,
        user_id=saved[1] if saved else None,
        timeout=config.api.timeout_seconds,
        retry=RetryPolicy(attempts=config.api.retry_attempts, total_seconds=config.api.retry_seconds),
        http=http,
        sleep=sleep,
        on_session=remember,
        read_only=config.play.dry_run,  # a dry run sends no write: no move, chat, invite answer or request
    )

    def has_lexicon(ruleset: int) -> bool:
        try:
            return lexicons.find(ruleset) is not None
        except LexiconError:
            return False

    settings = TurnSettings(
        max_candidates=config.play.max_candidates,
        dry_run=config.play.dry_run,
        quarantine=config.schedule.quarantine_seconds,
        seconds_per_move=config.play.seconds_per_move,
        budget=LearningBudget(config.play.learned_words_per_game, config.play.learned_words_per_day),
    )
    strategy = strategy_named(config.play.strategy)
    chooser = StrengthChooser(config.play, config.invites, config.random_games, store.origin)
    chatter = None
    if config.chat.enabled:
        chat = config.chat
        lines = ChatLines(chat.greeting, chat.closing_won, chat.closing_lost, chat.closing_drawn)
        chatter = Chatter(
            store, client.send_chat, lambda game_id: _messages(client, game_id), lines, dry_run=client.read_only
        )
    turns = TurnPlayer(
        client, store, lexicons.get, strategy=strategy, settings=settings, clock=clock,
        strength=chooser, chatter=chatter, game_over=game_over,
    )  # fmt: skip
    bot = Bot(
        client,
        store,
        turns,
        invites=config.invites,
        random_games=config.random_games,
        has_lexicon=has_lexicon,
        pass_seconds=config.schedule.poll_seconds,
        # wall time (the store's clock): the waits are kept in the state file, for the next run too
        reads=ReadSchedule(store.clock, per_pass=config.schedule.max_games_per_pass, store=store),
    )
    return Wiring(bot, client, store, lexicons)


def _messages(client: WordfeudClient, game_id: int) -> list[tuple[str, int, float]]:
    """A game's chat as (text, sender, sent) triples."""
    return [(m.message, m.sender, m.sent) for m in client.chat(game_id).messages]
