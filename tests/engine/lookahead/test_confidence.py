"""The confidence stop: candidates compared in pairs over shared draws (``engine.lookahead.confidence``)."""

from __future__ import annotations

import math
import random

from engine.lookahead.confidence import WIN_TIEBREAK, PairedStop, metric


def fed(rows: list[list[float]], weights: list[float] | None = None, *, tolerance: float = 0.0) -> PairedStop:
    """A ``PairedStop`` given every candidate's metric in each row (one row an iteration)."""
    stop = PairedStop(len(rows[0]), z=2.0, tolerance=tolerance)
    for number, row in enumerate(rows):
        stop.add(list(enumerate(row)), 1.0 if weights is None else weights[number])
    return stop


def test_a_candidate_always_a_point_behind_is_dropped_though_the_luck_hides_it_alone() -> None:
    rng = random.Random(1)
    luck = [rng.gauss(0.0, 40.0) for _ in range(30)]
    stop = fed([[x, x - 1.0] for x in luck])
    assert stop.leader([0, 1]) == 0
    mean, error = stop.difference(1, 0)
    assert math.isclose(mean, -1.0) and error < 1e-6
    assert stop.dropped([0, 1]) == [1]
    # each mean alone has a standard error near 40 / sqrt(30): far too wide to tell a point apart
    alone = math.sqrt(sum((x - sum(luck) / 30) ** 2 for x in luck) / 29 / 30)
    assert alone > 5.0


def test_a_candidate_as_good_on_average_stays_until_the_tolerance_says_it_does_not_matter() -> None:
    rng = random.Random(2)
    rows = []
    for _ in range(200):
        x = rng.gauss(0.0, 30.0)
        rows.append([x, x + rng.choice((-3.0, 3.0))])  # equal on average, three points apart each time
    assert fed(rows).dropped([0, 1]) == []
    assert fed(rows, tolerance=2.0).dropped([0, 1]) != []  # within two points at 2 standard errors


def test_identical_candidates_keep_the_first_in_static_order() -> None:
    rows = [[float(v), float(v), float(v) - 5.0] for v in range(10)]
    stop = fed(rows, tolerance=0.5)
    assert stop.leader([0, 1, 2]) == 0
    assert stop.dropped([0, 1, 2]) == [1, 2]
    assert fed(rows, tolerance=0.0).dropped([0, 1, 2]) == [1, 2]  # a tie cannot beat the leader either


def test_weights_count_each_iteration_with_its_draw_s_weight() -> None:
    rows = [[10.0, 0.0], [0.0, 20.0], [10.0, 0.0]]
    stop = fed(rows, [1.0, 3.0, 1.0])
    assert math.isclose(stop.mean(0), 4.0) and math.isclose(stop.mean(1), 12.0)
    assert stop.leader([0, 1]) == 1
    mean, error = stop.difference(0, 1)
    assert math.isclose(mean, -8.0) and math.isfinite(error) and error > 0


def test_before_two_iterations_nothing_is_dropped() -> None:
    stop = fed([[5.0, -5.0]])
    assert stop.difference(1, 0) == (-math.inf, math.inf)
    assert stop.dropped([0, 1]) == []


def test_by_wins_equal_win_shares_go_by_value() -> None:
    assert metric(12.0, 1.0, by_wins=True) == 1.0 + 12.0 * WIN_TIEBREAK
    assert metric(12.0, 1.0, by_wins=False) == 12.0
    assert metric(30.0, 0.5, by_wins=True) < metric(-30.0, 1.0, by_wins=True)


def test_dropped_is_the_rule_on_each_difference() -> None:
    """``dropped`` works the differences out in one pass; it drops exactly those ``difference`` condemns."""
    rng = random.Random(29)
    for case in range(200):
        count = rng.randint(2, 7)
        stop = PairedStop(count, z=rng.choice([0.0, 1.0, 3.0]), tolerance=rng.choice([0.0, 0.5, 2.0]))
        shift = [rng.uniform(-3, 3) for _ in range(count)]
        for _ in range(rng.randint(0, 30)):
            luck = rng.gauss(0, 10)
            values = [(i, luck + shift[i] + rng.gauss(0, 1 + case % 3)) for i in range(count)]
            stop.add(values, rng.choice([1.0, 0.5, 3.0]))
        alive = sorted(rng.sample(range(count), rng.randint(1, count)))
        if len(alive) < 2:
            assert stop.dropped(alive) == []
            continue
        leader = stop.leader(alive)
        expected = []
        for index in alive:
            if index != leader:
                mean, error = stop.difference(index, leader)
                if mean + stop.z * error <= stop.tolerance:
                    expected.append(index)
        assert stop.dropped(alive) == expected, case
