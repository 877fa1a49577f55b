"""What a server or an opponent can teach the bot is bounded: an opponent's move teaches only if it is
a placement a player could make on the board before it (its main and cross words there, nothing else),
one game and one day teach at most their budget, adding a word to the lexicon played with touches a
few nodes whatever the number of words learned before (the C copy is patched, not copied), and the
status page reads a count and the newest words, not the whole table."""

from __future__ import annotations

import logging
import random
from array import array
from typing import Any

import pytest

from bot.api.models import Game
from bot.errors import ConfigError
from bot.play.acceptances import DAY, LearningBudget, opponent_words, remember, words_of_move
from bot.play.convert import ConversionError
from bot.play.turn import Outcome, TurnPlayer, TurnSettings
from bot.settings.config import parse_config
from bot.store.learned import LearnedWords
from bot.store.store import OPPONENT, Store
from bot.views.status_page import snapshot
from engine import native
from engine.board.board import Board
from engine.board.rack import Rack
from engine.lexicon.overlay import LexiconOverlay
from engine.movegen import generate as movegen
from tests.lexicons import EN, english

BOT, RIVAL = 7, 8
JUNK = "QZXJKV"  # letters whose random strings are not English words


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def junk(rng: random.Random, length: int) -> str:
    while True:
        word = "".join(rng.choice(JUNK) for _ in range(length))
        if word not in english():
            return word


def game_json(
    game_id: int, board: list[tuple[int, int, str]], move: list[tuple[int, int, str]], *, to_move: int = 0
) -> Game:
    """A game whose tiles are ``board`` plus ``move`` (row, col, letter; lower case a blank), the move being the
    rival's last; ``to_move``: the position to move (0: the bot)."""
    tiles: list[list[Any]] = [[c, r, letter.upper(), letter.islower()] for r, c, letter in board + move]
    return Game.model_validate(
        {
            "id": game_id,
            "ruleset": 5,
            "current_player": to_move,
            "is_running": True,
            "move_count": 2,
            "updated": 0,
            "bag_count": 50,
            "tiles": tiles,
            "last_move": {
                "move_type": "move",
                "user_id": RIVAL,
                "move": [[c, r, letter.upper(), letter.islower()] for r, c, letter in move],
                "points": 10,
            },
            "players": [
                {"id": BOT, "position": 0, "score": 0, "rack": ["A"]},
                {"id": RIVAL, "position": 1, "score": 10},
            ],
        }
    )


class Moves:
    """Legal placements of junk words, no word made twice: seven tiles in row 7 under seven columns of
    five tiles each, making a 7-letter main word and seven 6-letter cross words, all lacking from the
    lexicon: eight words to learn. The 42 tiles of a board are drawn from the English bag, so that the
    board is one a game could reach (one with more of a letter than the bag teaches nothing)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.used: set[str] = set()
        alphabet = EN.alphabet
        self.bag = [s for s, count in zip(alphabet.symbols, alphabet.counts, strict=True) for _ in range(count)]

    def eight_words(self, game_id: int, *, to_move: int = 0) -> Game:
        while True:
            tiles = self.rng.sample(self.bag, 42)
            crosses = ["".join(tiles[6 * i : 6 * i + 6]) for i in range(7)]
            words = [*crosses, "".join(word[-1] for word in crosses)]
            if len(set(words)) == 8 and not any(word in self.used or word in english() for word in words):
                break
        self.used.update(words)
        above = [(2 + r, 4 + i, word[r]) for i, word in enumerate(crosses) for r in range(5)]
        below = [(7, 4 + i, word[5]) for i, word in enumerate(crosses)]
        return game_json(game_id, above, below, to_move=to_move)


# -- the move must be one a player could make ---------------------------------------------------


def test_a_15_tile_move_across_a_board_of_random_letters_teaches_nothing() -> None:
    rng = random.Random(27)
    board = [(r, c, rng.choice(JUNK)) for r in (6, 8) for c in range(15)]
    move = [(7, c, rng.choice(JUNK)) for c in range(15)]  # 16 junk words of 15 and 3 letters
    with pytest.raises(ConversionError, match="15 tiles placed, a rack holds 7"):
        opponent_words(game_json(1, board, move), BOT)


@pytest.mark.parametrize(
    ("board", "move", "problem"),
    [
        ([], [(7, 7, "Q"), (8, 8, "Z")], "not in one line"),
        ([], [(7, 6, "Q"), (7, 8, "Z")], "gap"),
        ([], [(3, 3, "Q"), (3, 4, "Z")], "start square"),
        ([], [(7, 7, "Q")], "at least two letters"),
        ([(7, 7, "A"), (7, 8, "T")], [(1, 1, "Q"), (1, 2, "Z")], "does not touch"),
    ],
)
def test_a_move_no_player_could_make_teaches_nothing(
    board: list[tuple[int, int, str]], move: list[tuple[int, int, str]], problem: str
) -> None:
    with pytest.raises(ConversionError, match=problem):
        opponent_words(game_json(1, board, move), BOT)


def test_the_words_learned_are_exactly_the_move_s_main_and_cross_words() -> None:
    game = game_json(1, [(6, 4, "Q"), (6, 5, "Z")], [(7, 4, "X"), (7, 5, "J")])
    assert opponent_words(game, BOT) == ["XJ", "QX", "ZJ"]


# -- the board must be one the ruleset's bag can fill ----------------------------------------------------


@pytest.mark.parametrize(
    ("board", "move", "problem"),
    [
        ([(7, 7, "Q"), (7, 8, "Z")], [(8, 7, "Q"), (8, 8, "X")], "the board holds 2 Q tiles where the bag"),
        ([(7, 7, "a"), (7, 8, "b")], [(8, 7, "c"), (8, 8, "D")], "the board holds 3 blanks where the bag"),
        ([(7, 4 + i, "Z") for i in range(7)], [(8, 7, "A"), (8, 8, "X")], "the board holds 7 Z tiles where the bag"),
    ],
    ids=["two-Q", "three-blanks", "seven-Z"],
)
def test_a_board_the_bag_cannot_fill_teaches_nothing(
    board: list[tuple[int, int, str]], move: list[tuple[int, int, str]], problem: str
) -> None:
    """A legal placement on a board with more of a letter (or more blanks) than the English bag (1 Q, 1 Z,
    2 blanks): refused, naming the letter and the counts."""
    with pytest.raises(ConversionError, match=f"game 1: field 'tiles': {problem} of ruleset 5 .en. holds"):
        opponent_words(game_json(1, board, move), BOT)


def test_a_board_of_the_bag_s_counts_teaches_its_words() -> None:
    """At the bag's counts (2 blanks, the one Q and Z) a position teaches: the blanks count as blanks,
    whatever letter they stand for."""
    game = game_json(1, [(7, 7, "Q"), (7, 8, "z")], [(8, 7, "i"), (8, 8, "A")])
    assert opponent_words(game, BOT) == ["IA", "QI", "ZA"]


def test_our_own_move_on_a_board_the_bag_cannot_fill_teaches_nothing() -> None:
    game = game_json(1, [(7, 7, "Q"), (7, 8, "I")], [])
    with pytest.raises(ConversionError, match="the board holds 2 Q tiles"):
        words_of_move(game, [[7, 8, "Q", False], [8, 8, "I", False]])
    assert words_of_move(game, [[7, 8, "A", False], [8, 8, "T", False]]) == ["AT", "QA", "IT"]


def test_the_turn_player_learns_nothing_from_a_board_the_bag_cannot_fill(caplog: pytest.LogCaptureFixture) -> None:
    """A server's board of junk words with 42 tiles of QZXJKV (the bag holds 7 of them) taught up to the day's
    budget before; now nothing, and the log says why in one line, each time the game is read."""
    rng = random.Random(3)
    above = [(2 + r, 4 + c, rng.choice(JUNK)) for c in range(7) for r in range(5)]
    below = [(7, 4 + c, rng.choice(JUNK)) for c in range(7)]
    client = Reads()
    client.answer = game_json(1, above, below, to_move=1)
    store = Store(":memory:", clock=Clock())
    turns = TurnPlayer(client, store, lambda _: english(), settings=TurnSettings())  # type: ignore[arg-type]
    with caplog.at_level(logging.INFO, logger="bot.play.turn"):
        assert turns.play(1).outcome is Outcome.WAITING
    assert store.learned_count() == 0
    said = [r.getMessage() for r in caplog.records if "teaches no word" in r.getMessage()]
    assert len(said) == 1 and "\n" not in said[0], said
    assert "field 'tiles': the board holds" in said[0] and "where the bag of ruleset 5 (en) holds" in said[0]


# -- budgets ----------------------------------------------------------------------------------------


def test_a_game_and_a_day_teach_at_most_their_budget() -> None:
    moves = Moves(5)
    clock = Clock()
    store = Store(":memory:", clock=clock)
    learned = LearnedWords()
    budget = LearningBudget(per_game=5, per_day=12)
    lexicon = learned.apply(english(), EN)

    def read(game: Game) -> tuple[int, int]:
        done = remember(store, learned, lexicon, game, opponent_words(game, BOT), OPPONENT, budget)
        view = learned.apply(english(), EN)
        assert all(word in view for word in done.learned) and not any(word in view for word in done.over_budget)
        return len(done.learned), len(done.over_budget)

    first = moves.eight_words(1)
    assert read(first) == (5, 3)  # the game's budget
    assert read(first) == (0, 3)  # read again (every pass): nothing more
    assert read(moves.eight_words(2)) == (5, 3)
    assert read(moves.eight_words(3)) == (2, 6)  # the day's budget: 12
    late = moves.eight_words(4)
    assert read(late) == (0, 8)
    clock.now += DAY + 1  # a day later the oldest no longer count
    assert read(late) == (5, 3)
    assert store.learned_count() == 17 and store.learned_count(game_id=4) == 5


def test_a_flood_of_games_stays_under_the_budget_for_many_passes() -> None:
    moves = Moves(9)
    clock = Clock()
    store = Store(":memory:", clock=clock)
    learned = LearnedWords()
    budget = LearningBudget()  # the defaults: 20 a game, 200 a day
    lexicon = learned.apply(english(), EN)
    for day in range(3):
        for game_id in range(100):  # 100 games, each a new move of 8 junk words at each of 4 reads a day
            for _ in range(4):
                clock.now += DAY / 400
                game = moves.eight_words(day * 1000 + game_id)
                remember(store, learned, lexicon, game, opponent_words(game, BOT), OPPONENT, budget)
        assert store.learned_count() <= 200 * (day + 1)
        assert store.learned_count(since=clock.now - DAY) <= 200
    assert 400 < len(learned.accepted(5)) == store.learned_count() <= 600


class Reads:
    """A client that answers ``game`` with whatever the test set last (the bot is never to move)."""

    user_id = BOT

    def __init__(self) -> None:
        self.answer: Game | None = None

    def game(self, game_id: int) -> Game:
        assert self.answer is not None and self.answer.id == game_id
        return self.answer


def test_the_turn_player_learns_within_the_budget_and_warns_once_per_move(caplog: pytest.LogCaptureFixture) -> None:
    moves = Moves(11)
    client = Reads()
    store = Store(":memory:", clock=Clock())
    settings = TurnSettings(budget=LearningBudget(per_game=3, per_day=100))
    turns = TurnPlayer(client, store, lambda _: english(), settings=settings)  # type: ignore[arg-type]
    client.answer = moves.eight_words(1, to_move=1)
    with caplog.at_level(logging.INFO, logger="bot.play.turn"):
        for _ in range(5):  # five passes read the same move
            assert turns.play(1).outcome is Outcome.WAITING
    assert store.learned_count(game_id=1) == 3
    assert sum("learned" in r.getMessage() and "accepted" in r.getMessage() for r in caplog.records) == 3
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["game 1: 5 word(s) of move 2 not learned: the budget (3 a game, 100 a day) is spent"]
    rng = random.Random(2)
    flood = game_json(2, [(r, c, rng.choice(JUNK)) for r in (6, 8) for c in range(15)],
                      [(7, c, rng.choice(JUNK)) for c in range(15)], to_move=1)  # fmt: skip
    client.answer = flood
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="bot.play.turn"):
        assert turns.play(2).outcome is Outcome.WAITING
    assert store.learned_count(game_id=2) == 0
    assert "the opponent's last move teaches no word" in caplog.text and "a rack holds 7" in caplog.text


def test_the_budgets_are_config_keys_checked_at_load() -> None:
    play = parse_config({"play": {"learned_words_per_game": 3, "learned_words_per_day": 30}}).play
    assert (play.learned_words_per_game, play.learned_words_per_day) == (3, 30)
    assert parse_config({}).play.learned_words_per_game == 20 and parse_config({}).play.learned_words_per_day == 200
    with pytest.raises(ConfigError, match="learned_words_per_day"):
        parse_config({"play": {"learned_words_per_day": -1}})


# -- the overlay: a word's cost does not grow with the words before it -------------------------------


@pytest.mark.parametrize("before", [10, 3000])
def test_adding_a_word_touches_a_few_nodes_whatever_was_learned_before(before: int) -> None:
    rng = random.Random(before)
    overlay = LexiconOverlay(english())
    overlay.add(EN.alphabet.parse_word(junk(rng, rng.randint(2, 15))) for _ in range(before))
    edges = len(overlay.dawg.child)
    word = junk(rng, 15)
    assert overlay.add([EN.alphabet.parse_word(word)]) == 1
    letters = len(EN.alphabet)
    assert len(overlay.dawg.child) - edges <= 15 * letters  # at most one node copied per letter
    assert word in overlay.dawg


def test_the_patched_c_copy_finds_the_same_moves_as_python_on_the_overlay() -> None:
    if native.NATIVE is None:
        pytest.skip("the C extension is not built")
    overlay = LexiconOverlay(english())
    native.lexicon(overlay.dawg)  # the C copy exists before the words come: it is patched, not remade
    patched = overlay.dawg.native
    words = ["QZ", "ZQX", "XQ", "JQZ", "QQ", "ZZ", "CATQ"]
    overlay.add(EN.alphabet.parse_word(w) for w in words)
    overlay.remove([EN.alphabet.parse_word("AT"), EN.alphabet.parse_word("QZ")])
    assert overlay.dawg.native is patched
    board = Board(EN.alphabet)
    board.place([(7, 6, EN.alphabet.code("C")), (7, 7, EN.alphabet.code("A")), (7, 8, EN.alphabet.code("T"))])
    for rack_text in ("QZXJQAE", "QQZZXJA", "ZQXJAST"):
        rack = Rack.from_text(rack_text, EN.alphabet)
        in_c = {(m.tiles, m.score) for m in native.generate(board, rack, overlay.dawg, EN)}
        in_python = {(m.tiles, m.score) for m in movegen._generate(board, rack, overlay.dawg, EN)}
        assert in_c == in_python
        assert in_c  # and there are moves to compare


def test_a_hostile_patch_is_refused_and_changes_nothing() -> None:
    if native.NATIVE is None:
        pytest.skip("the C extension is not built")
    overlay = LexiconOverlay(english())
    made = native.lexicon(overlay.dawg)
    edges = made.edges
    child, mask, ends = (array("I", a) for a in (overlay.dawg.child, overlay.dawg.mask, overlay.dawg.ends))
    child.append(len(mask) + 99)  # an edge past the arrays
    mask.append(0)
    ends.append(0)
    with pytest.raises(ValueError, match="points outside"):
        made.patch(child, mask, ends, edges, array("I"))
    with pytest.raises(ValueError, match="not below first"):
        made.patch(overlay.dawg.child, overlay.dawg.mask, overlay.dawg.ends, 5, array("I", [edges]))
    with pytest.raises(ValueError, match="does not fit"):
        made.patch(overlay.dawg.child, overlay.dawg.mask, overlay.dawg.ends, edges + 10, array("I"))
    assert made.edges == edges


# -- the status page reads a count and the newest words ----------------------------------------------


def test_the_status_page_reads_a_count_and_the_newest_words_not_the_table() -> None:
    clock = Clock()
    store = Store(":memory:", clock=clock)
    rng = random.Random(1)
    words = sorted({junk(rng, 8) for _ in range(3000)})
    for i, word in enumerate(words):
        clock.now += 1
        store.add_accepted(5, word, i, OPPONENT, new=True)
    statements: list[str] = []
    store._db.set_trace_callback(statements.append)
    facts = snapshot(store, {"now": clock.now})
    store._db.set_trace_callback(None)
    assert facts["learned_counts"] == {"5": len(words)}
    assert facts["learned"]["5"] == words[::-1][:30]
    on_accepted = [s for s in statements if "FROM accepted" in s]
    assert on_accepted and all("COUNT(*)" in s or "LIMIT" in s for s in on_accepted), on_accepted
    plan = store._db.execute(
        "EXPLAIN QUERY PLAN SELECT word FROM accepted WHERE ruleset = 5 AND new = 1 ORDER BY seen DESC, word DESC "
        "LIMIT 30"
    ).fetchall()
    assert "accepted_newest" in " ".join(str(row) for row in plan)  # by the index, not a sort of the table
