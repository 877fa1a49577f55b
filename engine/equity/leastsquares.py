"""Ridge least squares over sparse 0/1 features, in pure Python (the leave model's fit).

Rows come aggregated: the active feature indices of a distinct leave, how many samples had it
and the sum of their targets. The intercept is not shrunk; every feature is pulled towards 0 by
``ridge`` pseudo-samples, which is what smooths features seen only a few times.

>>> rows = [([0], 10, 10 * 5.0), ([1], 10, 10 * -2.0), ([], 10, 10 * 1.0)]
>>> intercept, weights = ridge_fit(rows, 2, ridge=0.0)
>>> round(intercept, 6), [round(w, 6) for w in weights]
(1.0, [4.0, -3.0])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from operator import mul


def ridge_fit(
    rows: Iterable[tuple[Sequence[int], float, float]], size: int, *, ridge: float
) -> tuple[float, list[float]]:
    """Minimise sum (y - b - w.x)^2 + ridge |w|^2 over rows ``(active, count, sum_y)``; returns (b, w)."""
    listed = list(rows)
    problem = RidgeProblem([(active, count) for active, count, _ in listed], size, ridge=ridge)
    return problem.fit([total for _, _, total in listed])


class RidgeProblem:
    """The left-hand side of a ridge fit, factored once, for fitting several targets over the same rows
    (the leave fit re-solves with new targets on every bootstrap round)."""

    def __init__(self, rows: Sequence[tuple[Sequence[int], float]], size: int, *, ridge: float) -> None:
        n = size + 1  # index 0 is the intercept
        matrix = [[0.0] * n for _ in range(n)]
        self.rows = [[0, *(i + 1 for i in active)] for active, _ in rows]
        for indices, (_, count) in zip(self.rows, rows, strict=True):
            for i in indices:
                row = matrix[i]
                for j in indices:
                    row[j] += count
        for i in range(1, n):
            matrix[i][i] += ridge
        if matrix[0][0] == 0:
            matrix[0][0] = 1.0  # no rows at all: the intercept is 0
        self.lower = cholesky(matrix)

    def fit(self, totals: Sequence[float]) -> tuple[float, list[float]]:
        """(b, w) for these per-row sums of the target (one per row, in order)."""
        vector = [0.0] * len(self.lower)
        for indices, total in zip(self.rows, totals, strict=True):
            for i in indices:
                vector[i] += total
        solution = solve_factored(self.lower, vector)
        return solution[0], solution[1:]


def solve_positive_definite(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix @ x = vector`` for a symmetric positive definite matrix.

    Raises ValueError when the matrix is not positive definite (a feature with no data and no ridge).
    """
    return solve_factored(cholesky(matrix), vector)


def cholesky(matrix: list[list[float]]) -> list[list[float]]:
    """The lower triangular L with L @ L.T = matrix; ValueError if the matrix is not positive definite."""
    n = len(matrix)
    lower = [[0.0] * n for _ in range(n)]
    for j in range(n):
        lj = lower[j]
        diagonal = matrix[j][j] - sum(map(mul, lj[:j], lj[:j]))
        if diagonal <= 1e-12:
            raise ValueError(f"matrix is not positive definite at row {j}")
        root = math.sqrt(diagonal)
        lj[j] = root
        for i in range(j + 1, n):
            li = lower[i]
            li[j] = (matrix[i][j] - sum(map(mul, li[:j], lj[:j]))) / root
    return lower


def solve_factored(lower: list[list[float]], vector: Sequence[float]) -> list[float]:
    """Solve L @ L.T @ x = vector by forward and back substitution."""
    n = len(vector)
    forward = [0.0] * n
    for i in range(n):
        li = lower[i]
        forward[i] = (vector[i] - sum(map(mul, li[:i], forward[:i]))) / li[i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (forward[i] - sum(lower[k][i] * x[k] for k in range(i + 1, n))) / lower[i][i]
    return x
