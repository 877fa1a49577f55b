"""Learned acceptances: words the server accepted (the opponent's and the bot's own) are persisted
and added to the lexicon the bot plays with, and override an earlier local refusal.

The sandbox here plays ENABLE plus a few words ENABLE lacks (ZA, QI, ...); the bot has plain ENABLE.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.api.credentials import Credentials
from bot.api.models import Game
from bot.play.acceptances import opponent_words
from bot.play.app import Wiring, build
from bot.play.turn import Outcome
from bot.settings.config import parse_config
from bot.store.learned import LearnedWords
from bot.store.store import OPPONENT, OWN, Store
from bot.views.replay import replay
from cli.main import main
from engine.board.move import parse_move
from engine.board.rack import Rack
from engine.game import Game as EngineGame
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.movegen.score import word_texts
from sandbox.server import SandboxServer
from sandbox.state import SandboxGame, State, User
from tests.bot.conftest import SteppingClock, Ticker
from tests.lexicons import EN, english

EXTRA = ["ZA", "QI", "KI", "OI", "FE", "ZO"]


@dataclass
class Table:
    """A sandbox whose lexicon is ENABLE + EXTRA, with the bot and a friend the test moves for."""

    server: SandboxServer
    state: State
    bot: User
    friend: User

    def wire(self, store: Store) -> Wiring:
        config = parse_config({"api": {"base_url": self.server.base_url}, "play": {"strategy": "greedy"}})
        credentials = Credentials.from_password("email", self.bot.email, "bot-pw")
        return build(config, credentials, store=store, sleep=lambda s: None, clock=Ticker())


@pytest.fixture
def table() -> Iterator[Table]:
    larger = english().with_words([EN.alphabet.parse_word(w) for w in EXTRA])
    state = State(lambda ruleset_id: larger, SteppingClock(), seed=3)
    bot = state.add_user("bot", "bot@example.org", "bot-pw")
    friend = state.add_user("friend", "friend@example.org", "friend-pw")
    with SandboxServer(state) as server:
        yield Table(server, state, bot, friend)


def give(game: EngineGame, player: int, letters: str) -> None:
    """Make a player's rack exactly these letters, trading tiles with the bag (totals stay right)."""
    pool = game.bag + game.racks[player].bag_tiles()
    wanted = [EN.alphabet.code(letter) for letter in letters]
    for code in wanted:
        pool.remove(code)
    game.bag[:] = pool
    game.racks[player] = Rack.from_codes(EN.alphabet, wanted)


def friend_plays(table: Table, sgame: SandboxGame, notation: str) -> None:
    game = sgame.game
    game.place(parse_move(notation, game.board))
    sgame.updated = table.state.clock()


def test_a_word_the_opponent_played_is_learned_and_played_later(table: Table, tmp_path: Path) -> None:
    store = Store(tmp_path / "state.db")
    assert store.add_rejected(5, "ZA")  # an earlier (mistaken) local refusal
    wiring = table.wire(store)
    # game 1: the friend opens with ZA, a word only the server's list has
    first = table.state.new_game(table.friend, table.bot, 5)
    give(first.game, 0, "ZAEEIOU")
    friend_plays(table, first, "8G ZA")
    assert wiring.bot.turns.play(first.id).outcome == Outcome.PLAYED
    [learned] = store.accepted(5, new_only=True)
    assert (learned.word, learned.game_id, learned.source, learned.new) == ("ZA", first.id, OPPONENT, True)
    assert store.rejected().words(5) == set()  # the acceptance un-refused it
    # the bot's own accepted move is kept as proof (its words were in its lexicon already)
    own = [a for a in store.accepted(5) if a.source == OWN]
    assert own and all(not a.new for a in own)
    assert {a.word for a in own} == set(first.game.history[1].words)
    # game 2, a new run on the same state: with Z and A the best move is ZA, which plain ENABLE lacks
    second = table.state.new_game(table.bot, table.friend, 5)
    give(second.game, 0, "ZAIIUUV")
    plain_best = max(generate(second.game.board, second.game.rack, english(), EN), key=lambda m: m.score or 0)
    assert "ZA" not in word_texts(second.game.board, plain_best)
    again = table.wire(Store(tmp_path / "state.db"))
    report = again.bot.turns.play(second.id)
    assert report.outcome == Outcome.PLAYED and report.refused == ()
    assert second.game.history[0].words[0] == "ZA"  # played, and the server accepted it
    assert table.state.duplicate_submissions() == []
    # replay sees the same lexicon: what the bot would play now is the move it played
    lines = replay(again.store, second.id, again.lexicons.get)
    assert any("would play now" in line.text and "ZA" in line.text.split("would play now")[1] for line in lines)
    again.store.close()
    store.close()


def test_the_learned_command_shows_exports_and_rescans(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.db"
    store = Store(state)
    wiring = table.wire(store)
    game = table.state.new_game(table.friend, table.bot, 5)
    give(game.game, 0, "QIEEAOU")
    friend_plays(table, game, "8G QI")
    wiring.bot.turns.play(game.id)
    store.close()
    assert main(["learned", "--state", str(state)]) == 0
    out = capsys.readouterr().out
    assert "1 words learned" in out and f"ruleset  5  QI              opponent game {game.id}" in out
    assert main(["learned", "--state", str(state), "--all"]) == 0
    assert len(capsys.readouterr().out.splitlines()) > 2  # the bot's own words are listed too
    export = tmp_path / "learned-en.txt"
    assert main(["learned", "--state", str(state), "--export", str(export)]) == 2  # which ruleset?
    assert main(["learned", "--state", str(state), "--ruleset", "5", "--export", str(export)]) == 0
    assert export.read_text(encoding="utf-8") == "QI\n"
    assert f"dict build en YOUR-LIST --add {export}" in capsys.readouterr().out
    # a state file from before learning: the recorded games teach the same words again
    raw = sqlite3.connect(state)
    raw.execute("DELETE FROM accepted")
    raw.commit()
    raw.close()
    assert main(["learned", "--state", str(state), "--rescan"]) == 0
    out = capsys.readouterr().out
    assert "1 moves of ours read, 1 words learned" in out and "QI" in out


def test_a_later_refusal_of_an_accepted_word_is_not_recorded(table: Table, tmp_path: Path) -> None:
    store = Store(tmp_path / "state.db")
    store.add_accepted(5, "QI", 1, OPPONENT, new=True)
    assert not store.add_rejected(5, "QI") and store.rejected().words(5) == set()
    learned = store.learned()
    assert not learned.add(5, "QI") and "QI" in learned.apply(english(), EN)


def test_opponent_words_are_the_main_word_and_the_cross_words() -> None:
    game = Game.model_validate(
        {
            "id": 9,
            "ruleset": 5,
            "current_player": 0,
            "is_running": True,
            "move_count": 2,
            "updated": 0,
            "bag_count": 80,
            "tiles": [[7, 7, "H", False], [8, 7, "I", False], [7, 8, "A", True], [8, 8, "T", False]],
            "last_move": {"move_type": "move", "user_id": 8, "move": [[7, 8, "A", True], [8, 8, "T", False]]},
            "players": [{"id": 7, "position": 0, "score": 5, "rack": ["Q"]}, {"id": 8, "position": 1, "score": 9}],
        }
    )
    assert opponent_words(game, 7) == ["AT", "HA", "IT"]
    assert opponent_words(game, 8) == []  # our own move is not the opponent's


def test_the_lexicon_view_is_made_once_and_changed_in_place() -> None:
    base = english()
    learned = LearnedWords({5: ["AA"]}, {5: ["ZA"]})
    view = learned.apply(base, EN)
    assert "ZA" in view and "AA" not in view and learned.apply(base, EN) is view
    assert learned.accept(5, "CAT", in_lexicon=True) and learned.apply(base, EN) is view  # known: no new copy
    assert "QZQZ" not in view and learned.accept(5, "QZQZ") and learned.apply(base, EN) is view and "QZQZ" in view
    assert learned.add(5, "QZQZ") is False and learned.add(5, "CATS") and "CATS" not in view and "CAT" in view
    assert learned.accept(5, "AA", in_lexicon=True) and "AA" in learned.apply(base, EN)  # a refused one comes back


def test_random_learning_keeps_the_view_equal_to_the_word_sets() -> None:
    """Accepting and refusing in a random order: the view is (base + accepted) - (refused - accepted)."""
    rng = random.Random(5)
    pool = ["ZA", "QI", "KI", "OI", "FE", "CAT", "DOG", "AA", "XI", "ZO"]
    base_words = ["CAT", "DOG", "AA", "XI", "HELLO"]
    base = Dawg.build([EN.alphabet.parse_word(w) for w in base_words], EN.alphabet)
    learned = LearnedWords()
    accepted: set[str] = set()
    refused: set[str] = set()
    for _ in range(200):
        word = rng.choice(pool)
        if rng.random() < 0.5:
            learned.accept(5, word, in_lexicon=word in learned.apply(base, EN))
            accepted.add(word)
            refused.discard(word)
        elif word not in accepted:
            learned.add(5, word)
            refused.add(word)
        view = learned.apply(base, EN)
        expected = (set(base_words) | accepted) - refused
        assert {EN.alphabet.format_word(w) for w in view.words()} == expected
