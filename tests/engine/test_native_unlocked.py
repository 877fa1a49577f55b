"""The C kernels' long calls run without the interpreter's lock (``engine/csrc/module.c``): while one runs in a
thread, another thread runs Python (a daemon's status page, its signal handlers).

Each test proves it without a sleep or a time: a probe thread calls ``Lexicon.patch`` in a loop while the
kernel runs. A search that reads a lexicon without the lock holds it (``lexicon_hold``), and patch refuses
with RuntimeError while it is held; the hold is taken and given back with the lock, so the probe can meet
it only when it ran while the kernel had let the lock go. A kernel that kept the lock for its whole call
would leave the probe only the moments before and after the call, when the lexicon is not held: the probe
would never see the refusal. The probe's patch, when not refused, fails on its empty arrays (ValueError)
and changes nothing."""

from __future__ import annotations

import math
import random
import threading
import time
from array import array
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from engine import native
from engine.board.rack import Rack
from engine.endgame.native import solve_native
from engine.equity import native as leavenative
from engine.equity.strategy import Equity, Situation
from engine.lookahead.playout import NativePlayouts, flat_draws
from engine.lookahead.simulation import SimSettings, Simulator
from offline.bench.endgames import DEFAULT_FILE, Endgame, read
from offline.bench.endgames import english as endgame_english
from tests.engine.playout_cases import english, positions

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")

#: Calls of the kernel at most before the probe must have seen the lexicon held (one is enough when the
#: lock is let go: the probe waits for it and takes it at once).
ATTEMPTS = 20
EMPTY = array("I")
#: A rack whose generation takes milliseconds (two blanks): long enough for the probe to be woken in it.
TWO_BLANKS = "AERST??"
#: Draws a playout call plays: tens of milliseconds of playouts.
DRAWS = 100


def probe(lexicon: Any, done: threading.Event, refused: list[str]) -> None:
    """Patch ``lexicon`` until a patch is refused (its message kept in ``refused``) or ``done`` is set."""
    while not done.is_set():
        try:
            lexicon.patch(EMPTY, EMPTY, EMPTY, 0, EMPTY)
        except RuntimeError as error:
            refused.append(str(error))
            return
        except ValueError:
            continue


def ran_beside(call: Callable[[], object], lexicon: Any) -> list[str]:
    """Run ``call`` (up to ATTEMPTS times) with the probe running beside it: the probe's refusals."""
    done = threading.Event()
    refused: list[str] = []
    thread = threading.Thread(target=probe, args=(lexicon, done, refused))
    thread.start()
    try:
        for _ in range(ATTEMPTS):
            call()
            if refused:
                break
    finally:
        done.set()
        thread.join()
    return refused


@cache
def situation() -> Situation:
    """A position of a seeded game with a full bag's worth of draws ahead (tiles on the board)."""
    found = [s for s in positions(english(), range(100, 101), every=4) if s.bag_count >= 40 and s.board.grid[7][7] >= 0]
    return found[1]


def playout_inputs() -> tuple[NativePlayouts, list[Any], Callable[[], list[Any]]]:
    """The kernel, six candidates and fresh draws: DRAWS of them at each call (a session remembers the replies
    of the draws it played, so the same draws again would take it no time)."""
    s = situation()
    equity = Equity()
    kernel = NativePlayouts.for_situation(s, equity)
    assert kernel is not None
    simulator = Simulator(equity, SimSettings(), rng=random.Random(7))
    candidates = list(equity.best(s, 6))
    return kernel, candidates, lambda: [simulator._deal(s) for _ in range(DRAWS)]


def test_a_playout_batch_lets_the_lock_go_and_gives_the_same_values() -> None:
    kernel, candidates, deal = playout_inputs()
    draws = deal()
    alone = kernel.run(candidates, draws)
    values: list[list[list[float]]] = []
    refused = ran_beside(lambda: values.append(kernel.run(candidates, draws)), native.lexicon(situation().lexicon))
    assert refused and "read by 1 search" in refused[0]
    assert values and all(row == alone for row in values)


def test_a_session_run_lets_the_lock_go_and_a_second_run_meanwhile_is_refused() -> None:
    kernel, candidates, deal = playout_inputs()
    first = deal()
    session = kernel.session(candidates, len(first[0][0]), len(first[0][1]))
    playing = array("i", range(len(candidates)))
    batches = [flat_draws(deal(), session.held, session.bag) for _ in range(2 * ATTEMPTS)]
    # the values of a batch played alone: a fresh session's (a session's values do not depend on its past)
    expected = [kernel.session(candidates, session.held, session.bag).made.run(b, playing) for b in batches]
    done = threading.Event()
    refused: list[str] = []

    def second_run() -> None:
        while not done.is_set():
            try:
                session.made.run(b"not an array of ints", playing)
            except RuntimeError as error:
                refused.append(str(error))
                return
            except TypeError:
                continue

    thread = threading.Thread(target=second_run)
    thread.start()
    results = []
    try:
        for batch in batches[:ATTEMPTS]:
            results.append(session.made.run(batch, playing))
            if refused:
                break
    finally:
        done.set()
        thread.join()
    assert refused == ["the session is running in another thread: one run at a time"]
    assert results == expected[: len(results)]
    later = iter(batches[ATTEMPTS:])
    assert ran_beside(lambda: session.made.run(next(later), playing), native.lexicon(situation().lexicon))


@cache
def endgame() -> tuple[Any, Any, Endgame]:
    rules, lexicon = endgame_english()
    return rules, lexicon, read(DEFAULT_FILE, rules)[0]


@pytest.mark.parametrize(
    "clock", [None, time.monotonic, time.perf_counter, time.process_time], ids=lambda c: getattr(c, "__name__", "none")
)
def test_the_endgame_search_lets_the_lock_go_with_no_clock_or_a_standard_one(clock: Callable[[], float] | None) -> None:
    """With no deadline, or one on time's monotonic, perf_counter or process_time (read in C), the search runs
    without the lock; the node budget ends it, so the result is the same each time."""
    rules, lexicon, e = endgame()
    seconds = math.inf if clock is None else 3600.0

    def solve() -> Any:
        result = solve_native(
            e.board, e.mine, e.theirs, lexicon, rules, seconds=seconds, clock=clock or time.monotonic, max_nodes=60000
        )
        return result.move, result.value, result.depth, result.complete, result.nodes

    alone = solve()
    results: list[Any] = []
    assert ran_beside(lambda: results.append(solve()), native.lexicon(lexicon))
    assert results and all(result == alone for result in results)


def test_an_endgame_on_a_stand_in_clock_keeps_the_lock_to_call_it() -> None:
    """A clock of Python's own (a test's) is called every 64 nodes with the lock: the search keeps it, and
    the probe never runs while the lexicon is held."""
    rules, lexicon, e = endgame()
    ticks = iter(range(10**9))
    result = ran_beside(
        lambda: solve_native(
            e.board, e.mine, e.theirs, lexicon, rules, seconds=1e9, clock=lambda: float(next(ticks)), max_nodes=2000
        ),
        native.lexicon(lexicon),
    )
    assert result == []


@pytest.mark.parametrize("generate", [native.generate, native.generate_flat], ids=["generate", "generate_flat"])
def test_generation_with_a_blank_lets_the_lock_go_and_a_short_rack_keeps_it(generate: Callable[..., Any]) -> None:
    s = situation()
    rules = s.rules
    blank_rack = Rack.from_text(TWO_BLANKS, rules.alphabet)
    short_rack = Rack.from_codes(rules.alphabet, s.rack.letters()[:2], 0)
    lexicon = native.lexicon(s.lexicon)
    alone = generate(s.board, blank_rack, s.lexicon, rules)
    results: list[object] = []
    assert ran_beside(lambda: results.append(generate(s.board, blank_rack, s.lexicon, rules)), lexicon)
    assert results and all(result == alone for result in results)
    assert ran_beside(lambda: generate(s.board, short_rack, s.lexicon, rules), lexicon) == []


def test_top_equity_with_blanks_lets_the_lock_go() -> None:
    s = situation()
    blank_rack = Rack.from_text(TWO_BLANKS, s.rules.alphabet)
    model = Equity().leave_model(s.rules)

    def ranked() -> object:
        return leavenative.top_equity(
            s.board, blank_rack, s.lexicon, s.rules, model, k=10, weight=1.0, swaps=5, swap_cost=3.0
        )

    alone = ranked()
    results: list[object] = []
    assert ran_beside(lambda: results.append(ranked()), native.lexicon(s.lexicon))
    assert results and all(result == alone for result in results)


def test_a_patch_after_the_search_is_taken() -> None:
    """The hold is given back: once the calls are over, the probe's patch fails on its arrays again."""
    kernel, candidates, deal = playout_inputs()
    kernel.run(candidates, deal())
    with pytest.raises(ValueError, match="does not fit the arrays"):
        native.lexicon(situation().lexicon).patch(EMPTY, EMPTY, EMPTY, 0, EMPTY)
