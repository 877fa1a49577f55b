"""The strength level of each game: per opponent, for accepted invitations, for random opponents and by
default; the config refuses an unknown level naming the key; a sandbox game at a level plays only the
level's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.api.models import Game
from bot.errors import ConfigError
from bot.play.strength import StrengthChooser
from bot.settings.config import BotConfig, parse_config
from bot.store.store import DecisionStatus, Store
from cli.demo import run_demo
from dictionaries.registry import LexiconRegistry
from engine.players.levels import common_words, level_named
from engine.rules.ruleset import Ruleset
from tests.bot.helpers import game_json


def _game(game_id: int, opponent: str) -> Game:
    players = game_json()["players"]
    players[1]["username"] = opponent
    return Game.model_validate(game_json(id=game_id, players=players))


def _config(text: dict[str, object]) -> BotConfig:
    return parse_config(text)


def test_the_level_of_a_game_comes_from_the_opponent_the_invitation_or_the_default() -> None:
    config = _config(
        {
            "play": {"level": "strong"},
            "invites": {"level": "casual", "levels": {"Alice": "beginner"}},
            "random_games": {"level": "club"},
        }
    )
    invited = {1, 2}
    chooser = StrengthChooser(config.play, config.invites, config.random_games, invited.__contains__)
    assert chooser.level_of(_game(1, "alice"), 7) == "beginner"  # by name, case ignored
    assert chooser.level_of(_game(2, "bob"), 7) == "casual"  # an accepted invitation
    assert chooser.level_of(_game(3, "carol"), 7) == "club"  # a random opponent
    casual = chooser.strategy_for(_game(2, "bob"), 7)
    assert casual is not None and casual.name == "level:casual"
    assert chooser.strategy_for(_game(2, "bob"), 7) is casual
    plain = _config({"play": {"strategy": "equity"}})
    chooser = StrengthChooser(plain.play, plain.invites, plain.random_games, invited.__contains__)
    assert chooser.level_of(_game(1, "alice"), 7) == "full"
    assert chooser.strategy_for(_game(1, "alice"), 7) is None  # full strength: the player's play.strategy


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"play": {"level": "godlike"}}, "play.level"),
        ({"invites": {"level": "nope"}}, "invites.level"),
        ({"invites": {"levels": {"alice": "nope"}}}, "invites.levels"),
        ({"random_games": {"level": "nope"}}, "random_games.level"),
    ],
)
def test_an_unknown_level_is_a_config_error_naming_the_key(data: dict[str, object], key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(data)
    assert key in str(caught.value) and "beginner" in str(caught.value)


def test_the_store_remembers_which_games_came_from_invitations(tmp_path: Path) -> None:
    store = Store(tmp_path / "state.sqlite3")
    store.mark_invited(5)
    store.mark_invited(5)
    assert store.invited(5) and not store.invited(6)
    store.close()
    again = Store(tmp_path / "state.sqlite3")
    assert again.invited(5)
    again.close()


def test_a_sandbox_game_at_the_beginner_level_plays_only_everyday_words(tmp_path: Path) -> None:
    run_demo(5, 4, registry=LexiconRegistry([]), out=lambda line: None, store_dir=tmp_path, strategy="level:beginner")
    store = Store(tmp_path / "demo.sqlite3")
    try:
        (row,) = store.games()
        decisions = [d for d in store.decisions(row.game_id, DecisionStatus.APPLIED) if d.kind == "move"]
    finally:
        store.close()
    words = common_words(Ruleset.for_id(5), level_named("beginner").vocabulary)
    assert len(decisions) >= 5
    for decision in decisions:
        formed = decision.payload["words"]
        assert formed and all(word.upper() in words for word in formed), formed
