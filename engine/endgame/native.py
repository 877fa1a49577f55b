"""The exact endgame in C (``engine/csrc/endgame/negamax.c``), and ``solve_endgame``, which takes it when the
extension is built and the pure-Python reference (``engine.endgame.search.solve``) otherwise.

Both find the exact value with the same game's end rules (negamax, alpha-beta, a transposition table,
iterative deepening); the C one orders its moves by more than their points (tiles and tile points
played) and searches the moves after the first with a null window, so it visits other nodes than the
reference and may pick another move of the same value. It deepens in other steps too (depth 2, then
the whole depth at once; the reference one ply at a time): a budget that runs out returns the deepest
finished iteration's move, or a move the unfinished search proved better than it. A budget in nodes
(``max_nodes``) is a count: the same result on every machine. The time budget is read from the
injected ``clock`` (every 64 nodes, as in the reference); ``seconds=math.inf`` searches without
reading it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from engine import native
from engine.board.board import Board
from engine.board.move import Direction, Move, Pass, Placement
from engine.board.rack import Rack
from engine.endgame import search as endgame
from engine.endgame.search import EndgameResult
from engine.errors import EngineError, PositionError
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

#: log2 of the C transposition table's entries at most (32 bytes each: 2**20 is 32 MB); it starts at a sixteenth of
#: that and grows fourfold as it fills, so that a short search touches a table of its own size (endgame.c, bigmem.c).
TABLE_BITS = 20

#: log2 of the line states the C endgame's line memo keeps (engine/csrc/endgame/linestore.c): 8 MB, and 16.8 MB
#: of moves.
MEMO_BITS = 18


def solve_native(
    board: Board,
    mine: Rack,
    theirs: Rack,
    lexicon: Dawg,
    rules: Ruleset,
    *,
    scoreless: int = 0,
    seconds: float = 1.0,
    clock: Callable[[], float] = time.monotonic,
    max_depth: int = 64,
    max_nodes: int | None = None,
    table_bits: int = TABLE_BITS,
    line_cache: bool = True,
    check_lines: bool = False,
    killers: bool = True,
    out_bound: bool = True,
    line_memo: bool = True,
    memo_bits: int = MEMO_BITS,
) -> EndgameResult:
    """``engine.endgame.search.solve`` in C; raises EngineError when the extension is not built and
    PositionError for racks no game has. The board is read, never changed. ``line_cache=False``
    generates every node's moves on the whole board (the same moves in the same order, slower);
    ``check_lines=True`` compares the cache's moves with a fresh generation at every node and raises
    AssertionError where they differ (for the tests); it also compares every killer move replayed from
    another node with that generation. ``killers=False`` generates the moves of every node the
    remembered best move does not cut off (more work, the same value). ``out_bound=False`` searches every
    move that leaves the other a reply going out (engine/csrc/endgame/outreplies.c; more nodes, the same value).
    ``line_memo=False`` generates again every line the line cache lacks, even one whose state (tiles,
    cross-checks, rack) was generated before (engine/csrc/endgame/linestore.c; the same nodes, slower);
    ``memo_bits``: log2 of the states the memo keeps (4 to 22; 32 bytes each, and twice as many moves of 32 bytes)."""
    if native.NATIVE is None:
        raise EngineError(f"the native endgame is not available: {native.describe()}")
    for rack in (mine, theirs):
        if len(rack) > rules.rack_size or rack.blanks > rules.alphabet.blanks:
            raise PositionError(f"an endgame rack of {len(rack)} tiles ({rack.text()}) cannot occur")
    if scoreless < 0:
        raise PositionError(f"{scoreless} scoreless turns in a row cannot occur")
    # as in the reference, a count at or past the end only means that the next pass ends the game
    scoreless = min(scoreless, rules.scoreless_turns_to_end - 1)
    started = clock()
    timed = math.isfinite(seconds)
    move, value, depth, complete, nodes, _ = native.NATIVE.solve_endgame(
        lexicon=native.lexicon(lexicon), rules=native.rules(rules), grid=board.grid,
        mine=list(mine.counts), mine_blanks=mine.blanks, theirs=list(theirs.counts), theirs_blanks=theirs.blanks,
        scoreless=scoreless, scoreless_to_end=rules.scoreless_turns_to_end, max_depth=max_depth,
        max_nodes=-1 if max_nodes is None else max_nodes, clock=clock if timed else None,
        deadline=started + seconds if timed else 0.0, table_bits=table_bits,
        line_cache=line_cache, check_lines=check_lines, killers=killers, out_bound=out_bound,
        line_memo=line_memo, memo_bits=memo_bits,
    )
    best: Move = Pass() if move is None else Placement(move[0], Direction(move[1]), move[2])
    return EndgameResult(best, value, depth, complete, nodes, clock() - started)


def solve_endgame(
    board: Board,
    mine: Rack,
    theirs: Rack,
    lexicon: Dawg,
    rules: Ruleset,
    *,
    scoreless: int = 0,
    seconds: float = 1.0,
    clock: Callable[[], float] = time.monotonic,
    max_nodes: int | None = None,
) -> EndgameResult:
    """The exact endgame by the active generator: in C when the extension is built, else in Python."""
    if native.NATIVE is not None:
        return solve_native(
            board, mine, theirs, lexicon, rules, scoreless=scoreless, seconds=seconds, clock=clock, max_nodes=max_nodes
        )
    return endgame.solve(
        board, mine, theirs, lexicon, rules, scoreless=scoreless, seconds=seconds, clock=clock, max_nodes=max_nodes
    )


__all__ = ["MEMO_BITS", "TABLE_BITS", "solve_endgame", "solve_native"]
