"""A slow, independent move generator for the tests: every geometric placement, every word of
the right length from a plain Python set, every way to take its letters from the rack.

Shares nothing with engine.movegen.generate or engine.lexicon.dawg; its scoring is written out again here.
"""

from __future__ import annotations

from itertools import product

from engine.board.board import EMPTY, Board
from engine.board.rack import Rack
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG

SIZE = 15
Key = frozenset[tuple[int, int, int]]


def _filled(grid: list[list[int]], new: dict[tuple[int, int], int], r: int, c: int) -> bool:
    return 0 <= r < SIZE and 0 <= c < SIZE and (grid[r][c] != EMPTY or (r, c) in new)


def _word(
    grid: list[list[int]], new: dict[tuple[int, int], int], r: int, c: int, dr: int, dc: int
) -> list[tuple[int, int, int, bool]]:
    while _filled(grid, new, r - dr, c - dc):
        r, c = r - dr, c - dc
    out = []
    while _filled(grid, new, r, c):
        if (r, c) in new:
            out.append((r, c, new[(r, c)], True))
        else:
            out.append((r, c, grid[r][c], False))
        r, c = r + dr, c + dc
    return out


def oracle_moves(board: Board, rack: Rack, words: set[str], rules: Ruleset) -> dict[Key, int]:
    """All legal placements as {frozenset of (row, col, tile): score}."""
    alphabet = rules.alphabet
    grid = board.grid
    lm = rules.layout.letter_multipliers()
    wm = rules.layout.word_multipliers()
    pts = alphabet.points
    by_len: dict[int, list[tuple[int, ...]]] = {}
    for w in words:
        codes = alphabet.parse_word(w)
        by_len.setdefault(len(codes), []).append(codes)
    word_set = {alphabet.parse_word(w) for w in words}
    # the words of each length with a given letter at a given position, to match a shape's fixed letters
    having: dict[tuple[int, int, int], set[int]] = {}
    for length, candidates in by_len.items():
        for index, cand in enumerate(candidates):
            for i, letter in enumerate(cand):
                having.setdefault((length, i, letter), set()).add(index)
    # the empty squares next to a tile: a move on a board with tiles must cover one
    touching = {
        (r, c)
        for r in range(SIZE)
        for c in range(SIZE)
        if grid[r][c] == EMPTY and any(_filled(grid, {}, r + a, c + b) for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0)))
    }
    rack_counts = list(rack.counts)
    nrack = len(rack)
    empty = board.is_empty()
    result: dict[Key, int] = {}

    def word_score(word: list[tuple[int, int, int, bool]]) -> int:
        base, factor = 0, 1
        for r, c, t, is_new in word:
            v = 0 if t & BLANK_FLAG else pts[t & 63]
            if is_new:
                v *= lm[r][c]
                factor *= wm[r][c]
            base += v
        return base * factor

    for dr, dc in ((0, 1), (1, 0)):
        for r0 in range(SIZE):
            for c0 in range(SIZE):
                if grid[r0][c0] != EMPTY:
                    continue
                # squares for 1..nrack new tiles starting at (r0, c0), skipping occupied squares
                slots: list[tuple[int, int]] = []
                r, c = r0, c0
                while len(slots) < nrack and r < SIZE and c < SIZE:
                    if grid[r][c] == EMPTY:
                        slots.append((r, c))
                    r, c = r + dr, c + dc
                for n in range(1, len(slots) + 1):
                    squares = slots[:n]
                    if empty:
                        if rules.layout.start not in squares:
                            continue
                    elif touching.isdisjoint(squares):
                        continue
                    # the main word's shape: which positions are new, which letters are fixed
                    marker = {sq: 0 for sq in squares}
                    shape = _word(grid, marker, r0, c0, dr, dc)
                    if len(shape) < 2:
                        continue
                    first_new = next(i for i, s in enumerate(shape) if s[3])
                    if (shape[first_new][0], shape[first_new][1]) != (r0, c0):
                        continue
                    candidates = by_len.get(len(shape), [])
                    fixed = [having.get((len(shape), i, s[2] & 63), set()) for i, s in enumerate(shape) if not s[3]]
                    matching = set.intersection(*fixed) if fixed else range(len(candidates))
                    for index in sorted(matching):
                        cand = candidates[index]
                        new_letters = [cand[i] for i, s in enumerate(shape) if s[3]]
                        new_squares = [(s[0], s[1]) for s in shape if s[3]]
                        # the rack must hold the letters, a blank standing for each one it lacks
                        held, lacking = rack_counts.copy(), 0
                        for lt in new_letters:
                            if held[lt]:
                                held[lt] -= 1
                            else:
                                lacking += 1
                        if lacking > rack.blanks:
                            continue
                        # every cross word must be a word (whichever of its tiles are blanks)
                        letters = dict(zip(new_squares, new_letters, strict=True))
                        crosses = [_word(grid, letters, r, c, dc, dr) for r, c in new_squares]
                        if any(len(w) > 1 and tuple(t & 63 for _, _, t, _ in w) not in word_set for w in crosses):
                            continue
                        options = []
                        for lt in new_letters:
                            opts = []
                            if rack_counts[lt]:
                                opts.append(lt)
                            if rack.blanks:
                                opts.append(lt | BLANK_FLAG)
                            options.append(opts)
                        for choice in product(*options):
                            need = [0] * len(rack_counts)
                            nblank = 0
                            for t in choice:
                                if t & BLANK_FLAG:
                                    nblank += 1
                                else:
                                    need[t] += 1
                            if nblank > rack.blanks or any(need[t] > rack_counts[t] for t in choice if t < BLANK_FLAG):
                                continue
                            new = dict(zip(new_squares, choice, strict=True))
                            words_made = [_word(grid, new, r0, c0, dr, dc)]
                            for r, c in new_squares:
                                cross = _word(grid, new, r, c, dc, dr)
                                if len(cross) > 1:
                                    words_made.append(cross)
                            total = sum(word_score(w) for w in words_made)
                            if len(new_squares) == rules.rack_size:
                                total += rules.bingo_bonus
                            key = frozenset((r, c, t) for (r, c), t in new.items())
                            if key in result and result[key] != total:
                                raise AssertionError(f"oracle scored {key} twice differently")
                            result[key] = total
    return result
