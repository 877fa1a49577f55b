"""The strength level of each game: per opponent, for accepted invitations, for random opponents and by
default; the config refuses an unknown level naming the key; a sandbox game at a level plays only the
level's words."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.api.models import Game
from bot.errors import ConfigError
from bot.play.strength import INVITE, RANDOM, GameLevel, StrengthChooser
from bot.settings.config import BotConfig, parse_config
from bot.store.people_store import RANDOM_REQUESTS_KEPT
from bot.store.store import DecisionStatus, Store
from bot.views.status_page import fragment, snapshot
from cli.demo import run_demo
from dictionaries.registry import LexiconRegistry
from engine.players.levels import common_words, level_named
from engine.rules.ruleset import Ruleset
from tests.bot.conftest import Sandbox
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
    origins = {1: INVITE, 2: INVITE, 3: RANDOM}
    chooser = StrengthChooser(config.play, config.invites, config.random_games, origins.get)
    assert chooser.level_of(_game(1, "Alice"), 7) == GameLevel("beginner", "invites.levels for Alice")  # any case
    assert chooser.level_of(_game(2, "bob"), 7) == GameLevel("casual", "invitation from bob, invites.level")
    assert chooser.level_of(_game(3, "carol"), 7) == GameLevel("club", "random request, random_games.level")
    # a game the bot did not start or accept (on the account before it ran, or started from the app)
    assert chooser.level_of(_game(4, "dave"), 7) == GameLevel("strong", "play.level")
    assert str(chooser.level_of(_game(4, "dave"), 7)) == "level strong: play.level"
    casual = chooser.strategy_for(_game(2, "bob"), 7)
    assert casual is not None and casual.name == "level:casual"
    assert chooser.strategy_for(_game(2, "bob"), 7) is casual
    plain = _config({"play": {"strategy": "equity"}})
    chooser = StrengthChooser(plain.play, plain.invites, plain.random_games, origins.get)
    assert chooser.level_of(_game(1, "alice"), 7) == GameLevel("full", "invitation from alice, play.level")
    assert chooser.level_of(_game(3, "carol"), 7) == GameLevel("full", "random request, play.level")
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
    store.mark_random(5)  # a game comes one way: the first origin stays
    store.mark_random(7)
    assert store.invited(5) and not store.invited(6) and not store.invited(7)
    assert (store.origin(5), store.origin(6), store.origin(7)) == (INVITE, None, RANDOM)
    store.close()
    again = Store(tmp_path / "state.sqlite3")
    assert again.invited(5) and again.origin(7) == RANDOM
    again.close()


def test_a_random_request_is_claimed_once_by_a_game_of_its_ruleset_after_the_server_paired_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "state.sqlite3")
    store.add_random_request(5, 41)
    store.add_random_request(4, None)  # an answer without the request's id
    assert not store.claim_random_request(5, {41})  # still pending on the server: not paired yet
    assert not store.claim_random_request(1, set())  # no request of ruleset 1
    assert store.claim_random_request(5, set())
    assert not store.claim_random_request(5, set())  # once
    assert store.claim_random_request(4, {41})
    for number in range(RANDOM_REQUESTS_KEPT + 10):  # kept bounded
        store.add_random_request(5, number)
    assert sum(store.claim_random_request(5, set()) for _ in range(RANDOM_REQUESTS_KEPT + 10)) == RANDOM_REQUESTS_KEPT
    store.close()


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


def test_a_game_already_on_the_account_plays_play_level_and_one_from_a_random_request_the_random_level(
    sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    before = sandbox.game(5)  # on the account before the bot ran: not the bot's random opponent
    wiring = sandbox.wire(
        tmp_path / "state.db", play={"level": "casual"}, random_games={"keep": 2, "level": "beginner"}
    )
    with caplog.at_level(logging.INFO, logger="bot"):
        wiring.bot.run_pass()  # plays that game, then asks for a random opponent (the sandbox's house takes it)
        (random_game,) = [g for game_id, g in sandbox.state.games.items() if game_id != before.id]
        wiring.bot.run_pass()
    assert wiring.store.level(before.id) == ("casual", "play.level")
    assert wiring.store.level(random_game.id) == ("beginner", "random request, random_games.level")
    lines = [r.getMessage() for r in caplog.records]
    assert any(
        line.startswith(f"game {before.id} vs house") and ", level casual: play.level): " in line for line in lines
    )
    assert any(
        line.startswith(f"game {random_game.id} vs house")
        and ", level beginner: random request, random_games.level): " in line
        for line in lines
    ), lines
    health = {"now": 0, "healthy": True, "reason": "", "passes": 0, "started": 0, "last_success": None,
              "last_error": None, "last_error_at": None}  # fmt: skip
    html = fragment(snapshot(wiring.store, health))
    wiring.store.close()
    board = "against house: ruleset 5 (English (international)), standard board"
    assert f'Game {before.id} {board} <span class="level">at level casual (play.level)</span></h3>' in html
    assert f'Game {random_game.id} {board} <span class="level">at level beginner (random request, ' in html
