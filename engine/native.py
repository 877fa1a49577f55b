"""Which move generator runs: the C extension ``engine._native`` when it was built, else pure Python.

The extension is built from ``engine/_native.c`` when the package is installed (``setup.py``; it is
optional, so an installation without a C compiler still works, slower). ``WORDFEUD_BOT_GENERATOR``
chooses: ``python`` forces the pure-Python generator (``engine/movegen.py``, the readable reference),
``native`` makes a missing extension an error, anything else (or nothing) takes the extension when
it is there. ``GENERATOR`` says which one is active and ``describe()`` why, for logs and
``wordfeud-bot --version``.

The C side gets the lexicon's arrays once per ``Dawg`` (checked and copied there) and the ruleset's
numbers once per ``Ruleset``; the board and rack are read on every call.
"""

from __future__ import annotations

import logging
import os
from array import array
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.dawg import Dawg
    from engine.rules import Ruleset

VARIABLE = "WORDFEUD_BOT_GENERATOR"
log = logging.getLogger(__name__)


def _load() -> tuple[ModuleType | None, str]:
    wanted = os.environ.get(VARIABLE, "").strip().lower()
    if wanted == "python":
        return None, f"pure Python ({VARIABLE}=python)"
    try:
        from engine import _native  # type: ignore[attr-defined]  # noqa: PLC0415 - optional, built at install
    except ImportError as exc:
        if wanted == "native":
            raise EngineError(
                f"{VARIABLE}=native, but the C extension engine._native is not built ({exc}); "
                "reinstall with a C compiler (pip install -e .) or unset the variable"
            ) from None
        return None, "pure Python (the C extension engine._native is not built: no C compiler at install?)"
    return _native, "native (C extension engine._native)"


NATIVE, _DESCRIPTION = _load()
#: ``"native"`` or ``"python"``: the generator ``engine.movegen.generate`` uses.
GENERATOR = "native" if NATIVE is not None else "python"


def describe() -> str:
    """One line saying which generator is active and why."""
    return f"move generator: {_DESCRIPTION}"


@cache
def announce() -> None:
    """Log once which generator is active (the services call this at start)."""
    log.info("%s", describe())


def lexicon(dawg: Dawg) -> Any:
    """The C side's copy of a lexicon's arrays, made (and checked) once per ``Dawg``."""
    made = dawg.native
    if made is None:
        assert NATIVE is not None
        made = NATIVE.Lexicon(
            array("I", dawg.child), array("I", dawg.mask), array("I", dawg.ends), len(dawg.alphabet)
        )
        dawg.native = made
    return made


@cache
def rules(ruleset: Ruleset) -> Any:
    """The C side's copy of a ruleset's numbers: letter points, the premium layout, the start square."""
    assert NATIVE is not None
    layout = ruleset.layout
    start_row, start_col = layout.start
    return NATIVE.Rules(
        bytes(ruleset.alphabet.points),
        bytes(v for row in layout.letter_multipliers() for v in row),
        bytes(v for row in layout.word_multipliers() for v in row),
        start_row * 15 + start_col,
        ruleset.rack_size,
        ruleset.bingo_bonus,
    )


__all__ = ["GENERATOR", "NATIVE", "VARIABLE", "announce", "describe", "lexicon", "rules"]
