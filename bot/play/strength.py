"""Which strength level plays a game, and why: ``[invites] levels`` names opponents; a game the bot
accepted from an invitation plays ``[invites] level``; a game started by the bot's own random request
(``bot.play.service`` recognises it when it first appears) plays ``[random_games] level``; every other
game, such as one that was on the account before the bot ran, plays ``play.level``, as do the first two
kinds where their key is unset. The level ``full`` plays ``play.strategy`` (the turn player's own strategy).

The level and its reason are recorded per game (``Store.save_level``), logged with each decision and
shown on the status page's game heading.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.api.models import Game
from bot.settings.config import InvitesConfig, PlayConfig, RandomGamesConfig
from engine.equity.strategy import Strategy
from engine.players.levels import level_named
from engine.players.registry import LEVEL_PREFIX, strategy_named

#: How a game came to the account, as the store keeps it (``Store.origin``).
INVITE, RANDOM = "invite", "random"


@dataclass(frozen=True)
class GameLevel:
    """A game's level (``casual``) and why it plays at it (``random request, random_games.level``)."""

    name: str
    reason: str

    def __str__(self) -> str:
        return f"level {self.name}: {self.reason}"


class StrengthChooser:
    """The level and the strategy of each game (one strategy object per level, built when first needed);
    ``origin`` says how a game came (``INVITE``, ``RANDOM``, or None: not known to the bot)."""

    def __init__(
        self,
        play: PlayConfig,
        invites: InvitesConfig,
        random_games: RandomGamesConfig,
        origin: Callable[[int], str | None],
    ) -> None:
        self.play = play
        self.invites = invites
        self.random_games = random_games
        self.origin = origin
        self._strategies: dict[str, Strategy] = {}

    def level_of(self, game: Game, user_id: int) -> GameLevel:
        """The level of a game and the reason for it."""
        name = game.opponent(user_id).username or ""
        if name.lower() in self.invites.levels:
            return GameLevel(self.invites.levels[name.lower()], f"invites.levels for {name}")
        origin = self.origin(game.id)
        if origin == INVITE:
            if self.invites.level:
                return GameLevel(self.invites.level, f"invitation from {name}, invites.level")
            return GameLevel(self.play.level, f"invitation from {name}, play.level")
        if origin == RANDOM:
            if self.random_games.level:
                return GameLevel(self.random_games.level, "random request, random_games.level")
            return GameLevel(self.play.level, "random request, play.level")
        return GameLevel(self.play.level, "play.level")

    def strategy_at(self, level: str) -> Strategy | None:
        """The strategy that plays at a level; None at full strength (``play.strategy``)."""
        if level_named(level).base == "":
            return None
        if level not in self._strategies:
            self._strategies[level] = strategy_named(LEVEL_PREFIX + level)
        return self._strategies[level]

    def strategy_for(self, game: Game, user_id: int) -> Strategy | None:
        """The strategy that plays the game at its level; None at full strength (``play.strategy``)."""
        return self.strategy_at(self.level_of(game, user_id).name)
