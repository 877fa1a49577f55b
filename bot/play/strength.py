"""Which strength level plays a game: ``[invites] levels`` names opponents, ``[invites] level`` covers the
games the bot accepted from invitations, ``[random_games] level`` the others (random opponents), and
``play.level`` is the default of them all. The level ``full`` plays ``play.strategy`` (the turn player's
own strategy)."""

from __future__ import annotations

from collections.abc import Callable

from bot.api.models import Game
from bot.settings.config import InvitesConfig, PlayConfig, RandomGamesConfig
from engine.equity.strategy import Strategy
from engine.players.levels import level_named
from engine.players.registry import LEVEL_PREFIX, strategy_named


class StrengthChooser:
    """The strategy of each game by its level (one strategy object per level, built when first needed)."""

    def __init__(
        self,
        play: PlayConfig,
        invites: InvitesConfig,
        random_games: RandomGamesConfig,
        invited: Callable[[int], bool],
    ) -> None:
        self.play = play
        self.invites = invites
        self.random_games = random_games
        self.invited = invited
        self._strategies: dict[str, Strategy] = {}

    def level_of(self, game: Game, user_id: int) -> str:
        """The level name for a game."""
        opponent = (game.opponent(user_id).username or "").lower()
        if opponent in self.invites.levels:
            return self.invites.levels[opponent]
        if self.invited(game.id):
            return self.invites.level or self.play.level
        return self.random_games.level or self.play.level

    def strategy_for(self, game: Game, user_id: int) -> Strategy | None:
        """The strategy that plays the game at its level; None at full strength (``play.strategy``)."""
        level = self.level_of(game, user_id)
        if level_named(level).base == "":
            return None
        if level not in self._strategies:
            self._strategies[level] = strategy_named(LEVEL_PREFIX + level)
        return self._strategies[level]
