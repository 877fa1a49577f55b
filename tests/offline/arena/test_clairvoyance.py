"""The seeing players (``see:rack:SIM``, ``see:kept:SIM``): what they are shown, what they deal, where they refuse."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import ClassVar

import pytest

from engine.board.move import Move
from engine.board.rack import Rack
from engine.equity.strategy import Equity, Greedy, Situation
from engine.game import Game
from engine.lookahead.simulation import Simulator
from engine.players.arena import play_game
from offline.arena.clairvoyance import Clairvoyant, SeenTiles, seeing_strategy
from offline.arena.match import run_arena
from offline.errors import ClairvoyanceError
from tests.lexicons import EN, english

SIM = "sim:candidates=3,iterations=24,seconds=0"


def game_after(turns: int, seed: int = 3) -> Game:
    """A game of ``equity`` against itself after ``turns`` moves."""
    game = Game(EN, english(), random.Random(seed))
    player = Equity()
    for _ in range(turns):
        game.play(player.best(Situation.of(game), 1)[0])
    return game


def shown(sight: str, game: Game) -> Clairvoyant:
    seer = seeing_strategy(f"see:{sight}:{SIM}")
    seer.watch(game)
    return seer


def test_a_seen_rack_is_dealt_every_time_and_only_the_bag_order_varies() -> None:
    game = game_after(3)
    situation = Situation.of(game)
    source = shown("rack", game).rack_source(situation, Equity())
    assert isinstance(source, SeenTiles)
    rng = random.Random(1)
    deals = [source.deal(rng) for _ in range(5)]
    theirs = game.racks[1 - game.current]
    assert all(rack == theirs and weight == 1.0 for rack, _, weight in deals)
    assert all(Counter(bag) == Counter(game.bag) for _, bag, _ in deals)
    assert len({tuple(bag) for _, bag, _ in deals}) > 1


def test_the_kept_tiles_are_the_rack_less_what_its_last_move_drew() -> None:
    game = game_after(3)
    last = game.history[-1]
    theirs = game.racks[last.player]
    kept = Counter(theirs.bag_tiles()) - Counter(last.drawn)
    assert last.drawn and sum(kept.values()) == len(theirs) - len(last.drawn)
    situation = Situation.of(game)
    source = shown("kept", game).rack_source(situation, Equity())
    assert isinstance(source, SeenTiles)
    rng = random.Random(2)
    deals = [source.deal(rng) for _ in range(20)]
    for rack, bag, weight in deals:
        tiles = Counter(rack.bag_tiles())
        assert len(rack) == len(theirs) and not kept - tiles and weight == 1.0
        assert tiles + Counter(bag) == Counter(situation.unseen)
    assert len({rack.text() for rack, _, _ in deals}) > 1  # the drawn part is a random draw


def test_before_the_opponents_first_move_nothing_is_known_to_be_kept() -> None:
    game = game_after(0)
    source = shown("kept", game).rack_source(Situation.of(game), Equity())
    assert isinstance(source, SeenTiles) and source.seen == [] and source.drawn == EN.rack_size


class Counting(SeenTiles):
    """A seen rack that counts its deals; ``enumerable`` as the test sets it."""

    enumerable: ClassVar[bool] = False
    deals = 0

    def deal(self, rng: random.Random) -> tuple[Rack, list[int], float]:
        Counting.deals += 1
        return super().deal(rng)


class Enumerable(Counting):
    enumerable: ClassVar[bool] = True


def pre_endgame() -> Game:
    """A game with 1 to 6 tiles in the bag."""
    game = Game(EN, english(), random.Random(11))
    player = Equity()
    while len(game.bag) > 6:
        game.play(player.best(Situation.of(game), 1)[0])
    assert 1 <= len(game.bag) <= 6
    return game


@pytest.mark.parametrize(("source", "dealt"), [(Counting, True), (Enumerable, False)])
def test_a_seen_rack_replaces_the_pre_endgames_enumeration_of_racks(source: type[Counting], dealt: bool) -> None:
    game = pre_endgame()
    situation = Situation.of(game)
    seer = shown("rack", game)
    candidates: list[Move] = seer.static.best(situation, 3)
    Counting.deals = 0
    settings = dataclasses.replace(seer.settings, max_iterations=3000)  # room for every rack they can hold
    simulator = Simulator(
        Equity(), settings, rng=random.Random(5), inference=source(situation, game.racks[1 - game.current])
    )
    result = simulator.simulate(situation, candidates)
    # the kernel deals a batch of draws at a time, and the stop may come within one
    assert result.iterations > 0 and (Counting.deals >= result.iterations if dealt else Counting.deals == 0)


class Recorder(Greedy):
    """Greedy, and a note of each game it is shown: whose turn and how many turns were played."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[int, int]] = []

    def watch(self, game: Game) -> None:
        self.seen.append((game.current, len(game.history)))


@pytest.mark.parametrize("seat", [0, 1])
def test_the_arena_shows_a_watcher_the_game_before_each_of_its_moves(seat: int) -> None:
    recorder = Recorder()
    record = play_game((recorder, Greedy()), EN, english(), seed=8, seat_of_a=seat)
    assert len(recorder.seen) == record.moves[seat]
    assert all(current == seat for current, _ in recorder.seen)
    assert [turns for _, turns in recorder.seen] == sorted({turns for _, turns in recorder.seen})


@pytest.mark.parametrize("sight", ["rack", "kept"])
def test_a_seeing_player_plays_whole_legal_games_in_the_arena(sight: str) -> None:
    records = run_arena(f"see:{sight}:{SIM}", "equity", pairs=1, ruleset=5, seed=6, workers=1)
    assert len(records) == 2 and all(sum(r.moves) > 10 and max(r.scores) > 100 for r in records)


@pytest.mark.parametrize(
    ("name", "clock", "error"),
    [
        ("see:eyes:sim", "wall", r"see:eyes:sim: expected see:SIGHT:SPEC with SIGHT one of rack, kept, not 'eyes'"),
        ("see:rack:equity", "wall", r"see:rack:equity: SPEC must be a sim strategy .* not 'equity'"),
        ("see:kept:sim:bogus=1", "wall", r"see:kept:sim:bogus=1: sim option 'bogus' is not one of"),
        ("see:rack:sim", "cpu", r"see:rack:sim: a seeing player plays on the wall clock only"),
    ],
)
def test_a_bad_seeing_name_is_refused_naming_it(name: str, clock: str, error: str) -> None:
    with pytest.raises(ClairvoyanceError, match=error):
        run_arena(name, "equity", pairs=1, ruleset=5, seed=1, workers=1, clock=clock)


def test_a_seeing_player_not_shown_the_game_refuses_to_move() -> None:
    seer = seeing_strategy(f"see:rack:{SIM}")
    with pytest.raises(ClairvoyanceError, match=r"was asked to move without being shown the game"):
        seer.best(Situation.of(game_after(2)), 1)


def test_a_time_budget_keeps_what_it_sees() -> None:
    game = game_after(2)
    seer = shown("kept", game)
    budgeted = seer.budgeted(0.5)
    assert isinstance(budgeted, Clairvoyant) and budgeted.sight == "kept" and budgeted.settings.seconds == 0.5
    assert isinstance(budgeted.rack_source(Situation.of(game), Equity()), SeenTiles)
