"""The English ruleset and its bundled lexicon, loaded once for every test that plays English."""

from __future__ import annotations

from functools import cache

from dictionaries import bundled_path
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5)


@cache
def english() -> Dawg:
    """The bundled ENABLE lexicon (loaded once per test process)."""
    return Dawg.load(bundled_path("en/enable.dawg"), EN.alphabet)


__all__ = ["EN", "english"]
