"""Which move generator runs: the C extension ``engine._native`` when it was built, else pure Python.

The extension is built from ``engine/csrc/`` when the package is installed (``setup.py``; it is
optional, so an installation without a C compiler still works, slower). ``WORDFEUD_BOT_GENERATOR``
chooses: ``python`` forces the pure-Python generator (``engine/movegen/generate.py``, the readable reference),
``native`` makes a missing extension an error, anything else (or nothing) takes the extension when
it is there. ``GENERATOR`` says which one is active and ``describe()`` why, for logs and
``wordfeud-bot --version``. An extension built from other sources than those beside it (``engine.sourcedigest``)
counts as not built: C older than its Python would give other results.

The C side gets the lexicon's arrays once per ``Dawg`` (checked and copied there) and the ruleset's
numbers once per ``Ruleset``; the board and rack are read on every call. Callers go through
``engine.movegen.generate`` (``generate``, ``generate_flat``) and ``engine.equity.native`` (the equity kernel), which
check the position first; the functions here assume that was done.
"""

from __future__ import annotations

import logging
import os
from array import array
from functools import cache, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from engine.board.move import Direction, Placement
from engine.board.rack import Rack
from engine.errors import EngineError
from engine.sourcedigest import SOURCES, source_digest

if TYPE_CHECKING:
    from engine.board.board import Board
    from engine.rules.ruleset import Ruleset


class Dawg(Protocol):
    """What the C side reads of a lexicon (``engine.lexicon.dawg.Dawg``, which imports this module): its
    arrays, its alphabet, and the slot for the C copy."""

    child: Any
    mask: Any
    ends: Any
    alphabet: Any
    native: object | None

#: (equity, placement) and (equity, tiles given back) as ``top_equity`` returns them.
VARIABLE = "WORDFEUD_BOT_GENERATOR"
log = logging.getLogger(__name__)


def _load() -> tuple[ModuleType | None, str]:
    wanted = os.environ.get(VARIABLE, "").strip().lower()
    if wanted == "python":
        return None, f"pure Python ({VARIABLE}=python)"
    try:
        from engine import _native  # noqa: PLC0415 - optional, built at install
    except ImportError as exc:
        if wanted == "native":
            raise EngineError(
                f"{VARIABLE}=native, but the C extension engine._native is not built ({exc}); "
                "reinstall with a C compiler (pip install -e .) or unset the variable"
            ) from None
        return None, "pure Python (the C extension engine._native is not built: no C compiler at install?)"
    built, current = getattr(_native, "SOURCE_DIGEST", None), source_digest()
    if current is not None and built != current:
        stale = (
            f"the C extension engine._native was built from other sources than {SOURCES} holds "
            f"(digest {built}, the sources' {current}: a rebuild that failed?)"
        )
        if wanted == "native":
            raise EngineError(f"{VARIABLE}=native, but {stale}; rebuild it (pip install -e .) or unset the variable")
        return None, f"pure Python ({stale}; rebuild it with pip install -e .)"
    return _native, "native (C extension engine._native)"


NATIVE, _DESCRIPTION = _load()
#: ``"native"`` or ``"python"``: the generator ``engine.movegen.generate.generate`` uses.
GENERATOR = "native" if NATIVE is not None else "python"


def describe() -> str:
    """One line saying which generator is active and why."""
    return f"move generator: {_DESCRIPTION}"


@cache
def announce() -> None:
    """Log once which generator is active (the services call this at start)."""
    log.info("%s", describe())


def extension() -> Any:
    """The loaded extension with its types set; EngineError where it is not available."""
    if NATIVE is None:
        raise EngineError(f"the native move generator is not available: {describe()}")
    set_types()
    return NATIVE


@cache
def set_types() -> None:
    """Hand the C side the objects it builds moves from, once: Placement, the directions, and one
    (row, col, tile) tuple per square and tile code, shared by every move."""
    assert NATIVE is not None
    squares = tuple((r, c, t) for r in range(15) for c in range(15) for t in range(128))
    NATIVE.set_types(Placement, Direction.ACROSS, Direction.DOWN, squares)


def generate(board: Board, rack: Rack, dawg: Dawg, ruleset: Ruleset) -> list[Placement]:
    """``engine.movegen.generate.generate`` in C: the same moves with the same scores."""
    moves: list[Placement] = extension().generate(lexicon(dawg), rules(ruleset), board.grid, rack.counts, rack.blanks)
    return moves


def generate_flat(board: Board, rack: Rack, dawg: Dawg, ruleset: Ruleset) -> array[int]:
    """``engine.movegen.generate.generate_flat`` in C."""
    flat = array("i")
    flat.frombytes(extension().generate_flat(lexicon(dawg), rules(ruleset), board.grid, rack.counts, rack.blanks))
    return flat


def lexicon(dawg: Dawg) -> Any:
    """The C side's copy of a lexicon's arrays, made (and checked) once per ``Dawg``."""
    made = dawg.native
    if made is None:
        assert NATIVE is not None
        made = NATIVE.Lexicon(_u32(dawg.child), _u32(dawg.mask), _u32(dawg.ends), len(dawg.alphabet))
        dawg.native = made
    return made


def patch(dawg: Dawg, first: int, changed: list[int]) -> None:
    """Bring the C side's copy of a lexicon changed in place (``engine.lexicon.overlay``) up to date: its
    entries from ``first`` on and at the ``changed`` indices (each below ``first``)."""
    assert dawg.native is not None
    dawg.native.patch(_u32(dawg.child), _u32(dawg.mask), _u32(dawg.ends), first, array("I", changed))  # type: ignore[attr-defined]


def _u32(values: Any) -> array[int]:
    """The values as ``array('I')``: a lexicon's own array as it is (the C side copies it), else a copy."""
    return values if isinstance(values, array) and values.typecode == "I" else array("I", values)


#: Rulesets whose C copy is kept: one per ruleset and board, and every random board is another, so a
#: long-lived bot keeps only the most recently used.
RULES_CACHED = 64


@lru_cache(maxsize=RULES_CACHED)
def rules(ruleset: Ruleset) -> Any:
    """The C side's copy of a ruleset's numbers: letter points, the premium layout, the start square
    (the last ``RULES_CACHED`` kept)."""
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


__all__ = [
    "GENERATOR",
    "NATIVE",
    "VARIABLE",
    "announce",
    "describe",
    "extension",
    "generate",
    "generate_flat",
    "lexicon",
    "rules",
    "set_types",
]
