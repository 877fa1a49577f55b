"""Hostile input to the C move generator: a Python exception naming the problem, never a crash.

The cases and the fuzz (``tests/engine/native_cases.py``) run in a fresh interpreter each, so that a
segfault or an abort fails a test (naming the case it was in) instead of killing pytest.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import native
from tests.engine.freshrun import run_module

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")

#: Corrupted lexicons per fuzz seed; each accepted one is searched on three random boards.
FUZZ_ROUNDS = 5000


def run(*arguments: str) -> dict[str, Any]:
    """``python -m tests.engine.native_cases ARGUMENTS`` in a fresh interpreter: its closing JSON line."""
    return run_module("tests.engine.native_cases", *arguments)


def test_every_hostile_input_raises_a_named_error() -> None:
    result = run("cases")
    assert result["cases"] > 100
    assert result["failures"] == []


def test_generate_before_set_types_raises() -> None:
    assert run("before-set-types")["failures"] == []


@pytest.mark.parametrize("seed", [1, 2])
def test_corrupted_lexicons_are_refused_or_searched_safely(seed: int) -> None:
    seen = run("fuzz", "--seed", str(seed), "--rounds", str(FUZZ_ROUNDS))
    assert seen["refused"] + seen["accepted"] == FUZZ_ROUNDS
    # both paths must really be taken: many corruptions refused, many searched, moves found
    assert seen["refused"] > FUZZ_ROUNDS // 5, seen
    assert seen["accepted"] > FUZZ_ROUNDS // 5, seen
    assert seen["searches"] == 3 * seen["accepted"]
    assert seen["moves"] > 10 * seen["searches"], seen
