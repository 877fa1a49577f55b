"""The test oracle held to a plainer one: every word of the list laid at every square, both ways.

``oracle.py`` walks the board's shapes and drops impossible words before laying them out (fast
enough for 520 positions). A pruning mistake there could hide a generator bug of the same kind, so
here it must list exactly the moves, with the same scores, of a word-first enumeration that prunes
nothing but spans with no square a move could use.
"""

from __future__ import annotations

from itertools import product

from engine.board.board import EMPTY, Board
from engine.board.rack import Rack
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG
from tests.engine.oracle import Key, oracle_moves
from tests.engine.randomgames import random_games

SIZE = 15
POSITIONS = 24
ACROSS, DOWN = (0, 1), (1, 0)


def _occupied(grid: list[list[int]], new: dict[tuple[int, int], int], r: int, c: int) -> bool:
    return 0 <= r < SIZE and 0 <= c < SIZE and (grid[r][c] != EMPTY or (r, c) in new)


def _run(
    grid: list[list[int]], new: dict[tuple[int, int], int], r: int, c: int, step: tuple[int, int]
) -> list[tuple[int, int, int]]:
    """The maximal run of tiles through (r, c) along ``step``: (row, col, tile)."""
    dr, dc = step
    while _occupied(grid, new, r - dr, c - dc):
        r, c = r - dr, c - dc
    run = []
    while _occupied(grid, new, r, c):
        run.append((r, c, new.get((r, c), grid[r][c])))
        r, c = r + dr, c + dc
    return run


def word_first_moves(board: Board, rack: Rack, words: set[str], rules: Ruleset) -> dict[Key, int]:
    """{placed tiles: score} of every word of ``words`` laid at every start square and direction."""
    grid, alphabet = board.grid, rules.alphabet
    letter_mult, word_mult = rules.layout.letter_multipliers(), rules.layout.word_multipliers()
    lexicon = {alphabet.parse_word(w) for w in words}
    counts = list(rack.counts)
    # a square a move may use: the start square on an empty board, else a tile or a square next to one
    usable = (
        {rules.layout.start}
        if board.is_empty()
        else {(r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] != EMPTY or board.has_neighbour(r, c)}
    )
    found: dict[Key, int] = {}
    for word in lexicon:
        for step in (ACROSS, DOWN):
            dr, dc = step
            for r0 in range(SIZE - dr * (len(word) - 1)):
                for c0 in range(SIZE - dc * (len(word) - 1)):
                    squares = [(r0 + i * dr, c0 + i * dc) for i in range(len(word))]
                    if usable.isdisjoint(squares):
                        continue
                    end_r, end_c = squares[-1]
                    if _occupied(grid, {}, r0 - dr, c0 - dc) or _occupied(grid, {}, end_r + dr, end_c + dc):
                        continue  # the word would run on into a tile: that is another word
                    fresh = [
                        (sq, letter) for sq, letter in zip(squares, word, strict=True) if grid[sq[0]][sq[1]] == EMPTY
                    ]
                    if not fresh or len(fresh) > len(rack):
                        continue
                    if any(
                        grid[r][c] != EMPTY and grid[r][c] & 63 != letter
                        for (r, c), letter in zip(squares, word, strict=True)
                    ):
                        continue
                    # each new letter from the rack or from a blank, every way the rack allows
                    choices = [
                        [t for t in (letter, letter | BLANK_FLAG) if t != letter or counts[letter]]
                        for _, letter in fresh
                    ]
                    for tiles in product(*choices):
                        used_blanks = sum(1 for t in tiles if t & BLANK_FLAG)
                        plain = [t for t in tiles if not t & BLANK_FLAG]
                        if used_blanks > rack.blanks or any(plain.count(t) > counts[t] for t in set(plain)):
                            continue
                        new = {sq: t for (sq, _), t in zip(fresh, tiles, strict=True)}
                        made = [_run(grid, new, r0, c0, step)]
                        made += [_run(grid, new, r, c, (dc, dr)) for r, c in new]
                        made = [w for w in made if len(w) > 1]
                        if any(tuple(t & 63 for _, _, t in w) not in lexicon for w in made):
                            continue
                        total = 0
                        for w in made:
                            points, factor = 0, 1
                            for r, c, t in w:
                                value = 0 if t & BLANK_FLAG else alphabet.points[t & 63]
                                if (r, c) in new:
                                    value *= letter_mult[r][c]
                                    factor *= word_mult[r][c]
                                points += value
                            total += points * factor
                        if len(new) == rules.rack_size:
                            total += rules.bingo_bonus
                        key = frozenset((r, c, t) for (r, c), t in new.items())
                        assert found.get(key, total) == total, f"two scores for {sorted(key)}"
                        found[key] = total
    return found


def test_the_oracle_lists_what_laying_every_word_everywhere_lists() -> None:
    compared = with_moves = with_blanks = 0
    for label, rules, words, board, rack, rng in random_games(POSITIONS, first_game=400):
        want = word_first_moves(board, rack, words, rules)
        got = oracle_moves(board, rack, words, rules)
        missing, extra = want.keys() - got.keys(), got.keys() - want.keys()
        assert not missing and not extra, (
            f"{label}: missing {sorted(map(sorted, missing))[:3]} extra {sorted(map(sorted, extra))[:3]}"
        )
        assert got == want, f"{label}: scores differ"
        compared += 1
        with_moves += bool(want)
        with_blanks += rack.blanks > 0
        if want:  # play one of them, chosen from a fixed order, so that the boards fill up
            board.place(sorted(rng.choice(sorted(sorted(key) for key in want))))
    assert compared == POSITIONS and with_moves > POSITIONS // 2 and with_blanks > POSITIONS // 4
