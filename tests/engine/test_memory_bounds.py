"""The caches in a long-lived bot's path are bounded: deciding more moves does not keep more memory.

The learned leave model's value cache grew with every ``sim`` decision (the simulation values racks
drawn at random, millions of them), and the C copy of a ruleset and the move generator's tables were
kept for every random board ever seen."""

from __future__ import annotations

import gc
import math
import random
import tracemalloc
from itertools import combinations_with_replacement
from pathlib import Path

from engine import native
from engine.board.move import Placement
from engine.board.rack import Rack
from engine.equity.leavetable import VALUE_CACHE_SIZE, LearnedLeave
from engine.equity.strategy import Equity, Situation
from engine.game import Game
from engine.lookahead.simulation import Sim, SimSettings
from engine.lru import LruCache
from engine.movegen import generate as movegen
from engine.players.registry import strategy_named
from engine.rules.layout import BoardLayout
from tests.lexicons import EN, english


def shipped() -> LearnedLeave:
    table = LearnedLeave.shipped(EN)
    assert table is not None
    return table


def test_the_leave_value_cache_never_exceeds_its_bound() -> None:
    model = shipped()
    model._cache.clear()
    assert model._cache.maxsize == VALUE_CACHE_SIZE
    leaves = combinations_with_replacement(range(len(EN.alphabet.symbols)), 5)
    for n, codes in enumerate(leaves):
        if n == VALUE_CACHE_SIZE + 2_000:
            break
        model.value(Rack.from_bag_tiles(EN.alphabet, list(codes)))
    assert len(model._cache) == VALUE_CACHE_SIZE
    model._cache.clear()


def positions(count: int, seed: int) -> list[Situation]:
    """Positions of one seeded game of static equity, with a full bag of unseen tiles (the sim works)."""
    lexicon = english()
    found: list[Situation] = []
    player = Equity()
    rng = random.Random(seed)
    while len(found) < count:
        game = Game(EN, lexicon, random.Random(rng.randrange(2**32)))
        while not game.is_over and len(game.bag) > 20 and len(found) < count:
            seat = game.current
            unseen = tuple(game.unseen(seat))
            last = game.history[-1].action if game.history else None
            theirs = last if isinstance(last, Placement) else None
            situation = Situation(game.board.copy(), game.rack, EN, lexicon, unseen, len(game.bag), (0, 0), 0, theirs)
            found.append(situation)
            game.play(player.best(situation, 1)[0])
    return found


def traced_after_each(model: LearnedLeave, situations: list[Situation]) -> list[int]:
    """Traced memory after each ``sim`` decision made with ``model`` as the leave model."""
    settings = SimSettings(candidates=4, max_iterations=24, min_iterations=24, seconds=math.inf)
    # the Python reference playouts: the C kernel values leaves in C, past the cache this test is about;
    # 24 iterations: since the horizon values leaves, not racks drawn, 12 asked too few new values to see
    player = Sim(Equity(model), settings, native=False)
    gc.collect()
    tracemalloc.start()
    try:
        traced = []
        for situation in situations:
            player.best(situation, 1)
            gc.collect()
            traced.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    return traced


def test_memory_levels_off_over_repeated_sim_decisions() -> None:
    """Deciding ever new positions with a bounded leave cache: once the cache is full, the memory traced
    after a decision stops growing. The same decisions with an unbounded cache keep growing (the check
    that the measure sees the growth it is there to catch)."""
    situations = positions(24, seed=3)  # the bounded cache is full after 4, the unbounded grows 594 KB over the last 12
    size = 400
    bounded = traced_after_each(shipped().with_cache(LruCache(size)), situations)
    unbounded = traced_after_each(shipped().with_cache(LruCache(10**9)), situations)
    half = len(situations) // 2
    level = max(bounded[:half])
    assert max(bounded[half:]) - level < 150_000, bounded
    assert unbounded[-1] - unbounded[half] > 400_000, unbounded


def test_random_boards_do_not_keep_their_tables_for_good() -> None:
    rng = random.Random(5)
    for _ in range(native.RULES_CACHED + 40):
        codes = [[rng.choice([0, 0, 0, 1, 2, 3, 4]) for _ in range(15)] for _ in range(15)]
        codes[7][7] = 0
        layout = BoardLayout.from_api_grid(codes)
        movegen._layout_tables(layout)
        if native.NATIVE is not None:
            native.rules(EN.with_layout(layout))
    assert movegen._layout_tables.cache_info().currsize <= movegen.LAYOUTS_CACHED
    if native.NATIVE is not None:
        assert native.rules.cache_info().currsize <= native.RULES_CACHED


def test_a_leave_table_file_is_read_once_per_ruleset_whatever_the_board(tmp_path: Path) -> None:
    """``equity:FILE`` on random boards: one model (and one value cache) for the ruleset, not one per board."""
    path = tmp_path / "leaves-5.json"
    path.write_text(shipped().to_json(), encoding="utf-8")
    strategy = strategy_named(f"equity:{path}")
    assert isinstance(strategy, Equity)
    rng = random.Random(9)
    models = set()
    for _ in range(20):
        codes = [[rng.choice([0, 0, 1, 2, 3, 4]) for _ in range(15)] for _ in range(15)]
        models.add(id(strategy.leave_model(EN.with_layout(BoardLayout.from_api_grid(codes)))))
    assert len(models) == 1
