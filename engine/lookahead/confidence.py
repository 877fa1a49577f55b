"""The confidence stop: when a simulation may stop, its candidates compared in pairs over the draws they share.

Every candidate still in the running plays every iteration on the same draws (common random numbers),
so the difference between two candidates' values in one iteration varies far less than either value:
the luck of the draw cancels. ``PairedStop`` keeps the weighted sums of each candidate's metric, of the
products of every two candidates' metrics and of the weights, from which the mean difference between any
candidate and the leader, and its standard error, follow at any time without keeping the iterations.

A candidate is dropped once it cannot beat the leader by more than ``tolerance`` at ``z`` standard
errors of the difference (a candidate that plays out exactly like the leader is dropped too: nothing
could tell them apart). When one candidate is left, the leader is clear and the simulation stops.

The metric is the candidate's value in points, or, where the simulation ranks by wins, the win (1, a half
for a tie, 0) plus ``WIN_TIEBREAK`` a point of value, so that equal win shares go by value.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

#: By wins, a point of value counts as this share of a win (a tie-break between equal win shares).
WIN_TIEBREAK = 0.001


def metric(value: float, won: float, by_wins: bool) -> float:
    """What the candidates are compared by in one iteration."""
    return won + WIN_TIEBREAK * value if by_wins else value


class PairedStop:
    """The running sums of ``count`` candidates' metrics, for paired comparisons with the leader."""

    def __init__(self, count: int, *, z: float, tolerance: float) -> None:
        self.z = z
        self.tolerance = tolerance
        self.iterations = 0
        self.weight = 0.0
        self.weight_squares = 0.0
        self.sums = [0.0] * count
        #: ``products[i][j]`` for i <= j: the weighted sum of candidate i's metric times candidate j's
        self.products = [[0.0] * count for _ in range(count)]

    def add(self, metrics: Sequence[tuple[int, float]], weight: float) -> None:
        """One iteration: ``(candidate, metric)`` of every candidate in the running, by candidate index
        (ascending), and the weight of the iteration's draw."""
        self.iterations += 1
        self.weight += weight
        self.weight_squares += weight * weight
        sums = self.sums
        products = self.products
        for position, (index, value) in enumerate(metrics):
            weighted = weight * value
            sums[index] += weighted
            row = products[index]
            for other, other_value in metrics[position:]:
                row[other] += weighted * other_value

    def mean(self, index: int) -> float:
        return self.sums[index] / self.weight if self.weight else -math.inf

    def leader(self, alive: Sequence[int]) -> int:
        """The candidate with the best mean metric (the first, in static order, of equal ones)."""
        return max(alive, key=lambda index: (self.mean(index), -index))

    def difference(self, index: int, leader: int) -> tuple[float, float]:
        """The mean of candidate ``index``'s metric minus the leader's, and its standard error (infinite
        before two iterations)."""
        return next(self._differences([index], leader))

    def _differences(self, indices: Sequence[int], leader: int) -> Iterator[tuple[float, float]]:
        """``difference(index, leader)`` for each of ``indices``, the terms of the leader worked out once."""
        if self.iterations < 2 or not self.weight:
            for _ in indices:
                yield -math.inf, math.inf
            return
        weight, sums, products, iterations = self.weight, self.sums, self.products, self.iterations
        lead, lead_square = sums[leader], products[leader][leader]
        effective = max(weight * weight / self.weight_squares, 1.0)
        for index in indices:
            mean = (sums[index] - lead) / weight
            cross = products[index][leader] if index < leader else products[leader][index]
            second = (products[index][index] + lead_square - 2 * cross) / weight
            variance = max(0.0, second - mean * mean) * iterations / (iterations - 1)
            yield mean, math.sqrt(variance / effective)

    def dropped(self, alive: Sequence[int]) -> list[int]:
        """The candidates of ``alive`` that cannot beat the leader by more than the tolerance."""
        if len(alive) < 2:
            return []
        leader = self.leader(alive)
        others = [index for index in alive if index != leader]
        differences = zip(others, self._differences(others, leader), strict=True)
        return [index for index, (mean, error) in differences if mean + self.z * error <= self.tolerance]


__all__ = ["WIN_TIEBREAK", "PairedStop", "metric"]
