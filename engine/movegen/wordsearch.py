"""The pure-Python search of ``engine.movegen.generate`` over one row: the words walked along the DAWG from
each anchor, with their left parts, their scores and the ways to put the rack's blanks on them.

``movegen`` finds the anchors and cross-checks of a row and calls ``search_row``; ``Search`` holds
what the walk changes as it goes (the rack, the new tiles) and the row's tables, ``RowSquare`` what
it needs about one square.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, starmap
from typing import NamedTuple

from engine.board.board import EMPTY, Square
from engine.board.move import Direction, Placement
from engine.board.rack import Rack
from engine.lexicon.dawg import Dawg
from engine.movegen.crosschecks import WalkedRun
from engine.rules.layout import SIZE
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG

#: Builds a Placement (a NamedTuple) from one ready tuple, skipping its ``__new__``'s argument handling:
#: the search makes one per move found.
_new_placement: Callable[..., Placement] = tuple.__new__


class RowSquare(NamedTuple):
    """What the search needs about one square of the row being searched."""

    allowed: int  # the letters a new tile may be here (its cross-checks), one bit each
    cross: int  # points of the cross word's board tiles, -1 when no cross word goes through it
    letter_mul: int
    word_mul: int
    tiles: tuple[Square, ...]  # the shared (row, col, tile) tuple of every tile on this square
    run: tuple[int, ...] | None  # the board tiles right after it (one bit per letter), or None
    run_points: int  # their points
    next: int  # the next empty square after it (and after its run)
    next_allowed: int  # the letters allowed there (0 past the edge)


class Search:
    """One call's search: the lexicon's arrays, the rack as the search uses it up, the row being searched
    and the moves found so far (``out``); ``extend`` and ``extend_plain`` walk the words."""

    def __init__(self, rack: Rack, lexicon: Dawg, rules: Ruleset) -> None:
        self.out: list[Placement] = []
        self.mask, self.ends, self.child, self.root = lexicon.mask, lexicon.ends, lexicon.child, lexicon.root
        self.pts = rules.alphabet.points
        self.rack_size = rules.rack_size
        self.bingo = rules.bingo_bonus
        # The rack, changed while searching and restored on the way back. A letter the rack has no
        # tile left for goes on a blank: its index among the new tiles is pushed on ``short``.
        self.counts = list(rack.counts)
        self.blanks = rack.blanks
        self.short: list[int] = []
        self.nshort = 0
        self.last_tile = len(rack) - 1  # with this many new tiles down, one is left to place
        self.rmask = 0  # the letters the rack still has a tile of
        for code, n in enumerate(self.counts):
            if n:
                self.rmask |= 1 << code
        self.rack_letters = self.rmask  # ... and the letters of the whole rack
        self.placed: list[Square] = []  # the new tiles of the word being walked
        # The row being searched, set for every row.
        self.direction = Direction.ACROSS
        self.axis = 1
        self.info: list[RowSquare] = []
        self.lm: tuple[int, ...] = ()
        self.wm: tuple[int, ...] = ()
        self.xs: list[int] = []
        self.cwm: list[int] = []  # per square: word multiplier of its cross word (0 if none), racks with blanks only
        self.sq: tuple[tuple[Square, ...], ...] = ()

    def emit(self, total: int, wmul: int) -> None:
        """The rack holds blanks: one move per way to put them on the new tiles, covering ``short``."""
        placed, short, direction, append = self.placed, self.short, self.direction, self.out.append
        for i in short:
            if self.rack_letters >> placed[i][2] & 1:
                # the rack had this letter too, so another new tile shows it and is no blank:
                # which of those tiles are blanks is a choice (rare)
                self.emit_choices(total, wmul)
                return
        tiles = list(placed)
        for i in short:
            tiles[i], loss = self.as_blank(i, wmul)
            total -= loss
        # the usual case: the tiles of ``short`` are blanks, and any blanks left over go on any
        # other new tiles, each way a separate move
        append(_new_placement(Placement, (tuple(tiles), direction, total)))
        free = self.blanks - self.nshort
        if not free:
            return
        sq, pts, lm, cwm, axis = self.sq, self.pts, self.lm, self.cwm, self.axis
        others = []  # (index, blank square-tile, loss): as_blank inlined, it runs for most new tiles
        for i, (_, _, letter) in enumerate(placed):
            if i not in short:
                p = placed[i][axis]
                others.append((i, sq[p][letter | BLANK_FLAG], pts[letter] * lm[p] * (wmul + cwm[p])))
        for i, blank, loss in others:
            tiles[i] = blank
            append(_new_placement(Placement, (tuple(tiles), direction, total - loss)))
            tiles[i] = placed[i]
        if free < 2:
            return
        for a, (i, blank, loss) in enumerate(others):
            tiles[i] = blank
            for j, blank2, loss2 in others[a + 1 :]:
                tiles[j] = blank2
                append(_new_placement(Placement, (tuple(tiles), direction, total - loss - loss2)))
                tiles[j] = placed[j]
            tiles[i] = placed[i]
        for size in range(3, min(free, len(others)) + 1):  # no ruleset has more than two blanks
            for chosen in combinations(others, size):
                value = total
                for i, blank, loss in chosen:
                    tiles[i] = blank
                    value -= loss
                append(_new_placement(Placement, (tuple(tiles), direction, value)))
                for i, _, _ in chosen:
                    tiles[i] = placed[i]

    def emit_choices(self, total: int, wmul: int) -> None:
        """Every set of at most ``blanks`` new tiles whose letters include all those of ``short``."""
        placed = self.placed
        lacked = [placed[i][2] for i in self.short]
        for size in range(self.nshort, min(self.blanks, len(placed)) + 1):
            for chosen in combinations(range(len(placed)), size):
                missing = list(lacked)
                for i in chosen:
                    if placed[i][2] in missing:
                        missing.remove(placed[i][2])
                if missing:
                    continue
                tiles = list(placed)
                value = total
                for i in chosen:
                    tiles[i], loss = self.as_blank(i, wmul)
                    value -= loss
                self.out.append(_new_placement(Placement, (tuple(tiles), self.direction, value)))

    def as_blank(self, i: int, wmul: int) -> tuple[Square, int]:
        """New tile i on a blank: its square-tile, and the points that takes off the move."""
        _, _, letter = tile = self.placed[i]
        p = tile[self.axis]
        return self.sq[p][letter | BLANK_FLAG], self.pts[letter] * self.lm[p] * (wmul + self.cwm[p])

    def extend(self, pos: int, node: int, main: int, wmul: int, cross: int, ntiles: int, can_end: bool) -> None:
        """Walk the words on from the empty square ``pos`` (a rack with blanks).

        ``node`` is the DAWG state of the word up to pos - 1; ``can_end`` is false if the word may not
        end at pos (a one-letter word, or a lone tile the across pass makes)."""
        # the square's fields as locals: this runs for every DAWG node the search reaches
        allowed, cross_pts, letter_mul, word_mul, tiles, run, run_points, next_pos, next_allowed = self.info[pos]
        mask, ends, child, counts, placed = self.mask, self.ends, self.child, self.counts, self.placed
        short, blanks, rmask, nshort = self.short, self.blanks, self.rmask, self.nshort
        nm = mask[node]
        m = nm & allowed
        if nshort >= blanks:
            m &= rmask
        if not m:
            return
        if ntiles >= self.last_tile:
            next_allowed = 0
        e = ends[node] if can_end else 0
        if run is None and not next_allowed:
            # the word cannot go on past pos: only letters that end it here
            m &= e
            if not m:
                return
        wmul2 = wmul * word_mul
        ntiles2 = ntiles + 1
        bonus = self.bingo if ntiles2 == self.rack_size else 0
        pts, found, newp = self.pts, self.out.append, _new_placement
        while m:
            low = m & -m
            m ^= low
            letter = low.bit_length() - 1
            n2 = child[node + (nm & (low - 1)).bit_count()]
            if run is None:
                fin = e & low
            else:
                # follow the board tiles after pos
                fin = 0
                for bit in run:
                    bm = mask[n2]
                    if not bm & bit:
                        n2 = -1
                        break
                    fin = ends[n2] & bit
                    n2 = child[n2 + (bm & (bit - 1)).bit_count()]
                if n2 < 0:
                    continue
                if not can_end:
                    fin = 0
            deeper = mask[n2] & next_allowed
            if not (fin or deeper):
                continue
            tp = pts[letter] * letter_mul
            placed.append(tiles[letter])
            main2 = main + tp + run_points
            cross2 = cross if cross_pts < 0 else cross + (cross_pts + tp) * word_mul
            have = counts[letter]
            if have:
                counts[letter] = have - 1
                rmask2, nshort2 = (rmask ^ low if have == 1 else rmask), nshort
            else:
                short.append(ntiles)
                rmask2, nshort2 = rmask, nshort + 1
            self.rmask, self.nshort = rmask2, nshort2
            if fin:
                if blanks:
                    self.emit(main2 * wmul2 + cross2 + bonus, wmul2)
                else:
                    found(newp(Placement, (tuple(placed), self.direction, main2 * wmul2 + cross2 + bonus)))
            if deeper and (nshort2 < blanks or deeper & rmask2):
                self.extend(next_pos, n2, main2, wmul2, cross2, ntiles2, True)
            if have:
                counts[letter] = have
            else:
                short.pop()
            self.rmask, self.nshort = rmask, nshort
            placed.pop()

    def extend_plain(self, pos: int, node: int, main: int, wmul: int, cross: int, ntiles: int, can_end: bool) -> None:
        """``extend`` for a rack without blanks, most racks: every letter comes from the rack, so the
        blank bookkeeping goes and a letter leads deeper only if the rack still fits the next square.

        Kept as a second copy on purpose: it ran 7.8% fewer instructions on the stress set's no-blank
        racks and 4.4% fewer on the natural set's (callgrind); the oracle tests cover both."""
        allowed, cross_pts, letter_mul, word_mul, tiles, run, run_points, next_pos, next_allowed = self.info[pos]
        mask, ends, child, counts, placed = self.mask, self.ends, self.child, self.counts, self.placed
        rmask = self.rmask
        nm = mask[node]
        m = nm & allowed & rmask
        if not m:
            return
        if ntiles >= self.last_tile:
            next_allowed = 0
        e = ends[node] if can_end else 0
        if run is None and not next_allowed:
            m &= e
            if not m:
                return
        wmul2 = wmul * word_mul
        ntiles2 = ntiles + 1
        bonus = self.bingo if ntiles2 == self.rack_size else 0
        pts, found, newp = self.pts, self.out.append, _new_placement
        while m:
            low = m & -m
            m ^= low
            letter = low.bit_length() - 1
            n2 = child[node + (nm & (low - 1)).bit_count()]
            if run is None:
                fin = e & low
            else:
                fin = 0
                for bit in run:
                    bm = mask[n2]
                    if not bm & bit:
                        n2 = -1
                        break
                    fin = ends[n2] & bit
                    n2 = child[n2 + (bm & (bit - 1)).bit_count()]
                if n2 < 0:
                    continue
                if not can_end:
                    fin = 0
            have = counts[letter]
            deeper = mask[n2] & next_allowed & (rmask if have > 1 else rmask ^ low)
            if not (fin or deeper):
                continue
            tp = pts[letter] * letter_mul
            placed.append(tiles[letter])
            main2 = main + tp + run_points
            cross2 = cross if cross_pts < 0 else cross + (cross_pts + tp) * word_mul
            if fin:
                found(newp(Placement, (tuple(placed), self.direction, main2 * wmul2 + cross2 + bonus)))
            if deeper:
                counts[letter] = have - 1
                if have == 1:
                    self.rmask = rmask ^ low
                self.extend_plain(next_pos, n2, main2, wmul2, cross2, ntiles2, True)
                counts[letter] = have
                self.rmask = rmask
            placed.pop()


def search_row(
    s: Search,
    anchors: list[int],
    line: list[int],
    runs: list[WalkedRun],
    allowed: list[int],
    lefts: list[list[LeftPart]],
    fitting: dict[tuple[int, int, int, int], list[LeftPart]],
    max_left: int,
) -> None:
    """Every move whose word lies in this row (``s`` has its tables) and covers one of its anchors."""
    search = s.extend if s.blanks else s.extend_plain
    down = s.direction is Direction.DOWN
    s.info = []  # built when the first anchor of the row that a rack tile fits needs it
    previous_anchor = -1
    for anchor in anchors:
        if not (allowed[anchor] if s.blanks else allowed[anchor] & s.rmask):
            # no rack tile fits here: no move covers this anchor
            previous_anchor = anchor
            continue
        if not s.info:
            s.info = row_info(runs, allowed, s.xs, s.lm, s.wm, s.sq)
            if s.blanks:
                s.cwm = [w if x >= 0 else 0 for w, x in zip(s.wm, s.xs, strict=True)]
        square = s.info[anchor]
        # a lone tile with a word across is produced by the across pass only
        lone = not down or square.cross < 0
        if anchor > 0 and line[anchor - 1] != EMPTY:
            # the left part is the run of board tiles directly left of the anchor
            for _, end, _, points, node in runs:
                if end == anchor:
                    if node >= 0:
                        search(anchor, node, points, 1, 0, 0, lone)
                    break
        else:
            # no left part, then left parts from the rack over the empty, non-anchor squares
            # (a word may end on its first tile only if board tiles follow it: no one-letter words)
            search(anchor, s.root, 0, 1, 0, 0, lone and square.run is not None)
            room = min(anchor - previous_anchor - 1, max_left)
            _search_left_parts(s, search, anchor, square, room, lefts, fitting)
        previous_anchor = anchor


def _search_left_parts(
    s: Search,
    search: Callable[[int, int, int, int, int, int, bool], None],
    anchor: int,
    square: RowSquare,
    room: int,
    lefts: list[list[LeftPart]],
    fitting: dict[tuple[int, int, int, int], list[LeftPart]],
) -> None:
    """The rack's left parts of 1..``room`` letters on the empty squares before the anchor, each
    extended through it; ``fitting`` keeps the left parts that fit, per shape, for the whole call."""
    full = s.counts, s.short, s.nshort, s.rmask
    # a left part is worth extending only if a letter at the anchor can end the word there or
    # lead on: into the board tiles after it, or into the next square
    if square.run is not None:
        lead_on, ends_here = square.run[0], 0
    else:
        lead_on, ends_here = square.next_allowed, -1
    here = square.allowed
    ends, child, mask, pts, placed = s.ends, s.child, s.mask, s.pts, s.placed
    for k in range(1, room + 1):
        # the left parts that fit depend only on these masks, which many anchors share
        key = (k, here, lead_on, ends_here)
        fits = fitting.get(key)
        if fits is None:
            fits = fitting[key] = [
                left
                for left in lefts[k]
                if (m := left[0] & here)
                and (ends[left[1]] & m & ends_here or _leads_on(m, left[1], child, mask, lead_on))
            ]
        if not fits:
            continue
        base = anchor - k
        lms_k = s.lm[base:anchor]
        word_k = 1
        for p in range(base, anchor):
            word_k *= s.wm[p]
        squares_k = s.sq[base:anchor]
        for _, node, letters, left_counts, left_short, left_rmask in fits:
            # the search goes on with the rack as this left part leaves it
            s.counts, s.short, s.rmask = left_counts, left_short, left_rmask
            s.nshort = len(left_short)
            main = 0
            for i in range(k):
                letter = letters[i]
                main += pts[letter] * lms_k[i]
                placed.append(squares_k[i][letter])
            search(anchor, node, main, word_k, 0, k, True)
            del placed[:]
    s.counts, s.short, s.nshort, s.rmask = full


def _leads_on(m: int, node: int, child: Sequence[int], mask: Sequence[int], wanted: int) -> bool:
    """True if one of the letters ``m`` (edges of ``node``) leads to a node with a ``wanted`` letter."""
    nm = mask[node]
    while m:
        low = m & -m
        m ^= low
        if mask[child[node + (nm & (low - 1)).bit_count()]] & wanted:
            return True
    return False


#: A left part: the letters that may follow it (its node's edges the rack after it can play), its
#: DAWG node, its letters, and the rack after it (counts, indices of the letters on blanks, letter
#: mask).
LeftPart = tuple[int, int, tuple[int, ...], list[int], list[int], int]


def left_parts(
    mask: Sequence[int], child: Sequence[int], root: int, counts: list[int], blanks: int, max_len: int
) -> list[list[LeftPart]]:
    """Every DAWG prefix of 1..max_len letters the rack can spell (blanks as any letter), by length.

    Prefixes after which the rack can play no letter are left out (and so are their extensions).
    """
    lefts: list[list[LeftPart]] = [[] for _ in range(max_len + 1)]
    letters: list[int] = []
    short: list[int] = []
    have = list(counts)
    rack_mask = 0
    for code, n in enumerate(have):
        if n:
            rack_mask |= 1 << code

    def visit(node: int, rmask: int) -> None:
        nm = mask[node]
        m = nm if len(short) < blanks else nm & rmask
        depth = len(letters) + 1
        while m:
            low = m & -m
            m ^= low
            letter = low.bit_length() - 1
            nxt = child[node + (nm & (low - 1)).bit_count()]
            n = have[letter]
            if n:
                have[letter] = n - 1
                rmask2 = rmask ^ low if n == 1 else rmask
            else:
                short.append(depth - 1)
                rmask2 = rmask
            letters.append(letter)
            nexts = mask[nxt] if len(short) < blanks else mask[nxt] & rmask2
            if nexts:
                lefts[depth].append((nexts, nxt, tuple(letters), list(have), list(short), rmask2))
                if depth < max_len:
                    visit(nxt, rmask2)
            letters.pop()
            if n:
                have[letter] = n
            else:
                short.pop()

    visit(root, rack_mask)
    return lefts


def row_info(
    runs: list[WalkedRun],
    cc: list[int],
    xs: list[int],
    lm: tuple[int, ...],
    wm: tuple[int, ...],
    sq: tuple[tuple[Square, ...], ...],
) -> list[RowSquare]:
    """What the search needs about each square of a row, one ``RowSquare`` per square."""
    allowed_next = cc[1:]
    allowed_next.append(0)
    if not runs:
        # no tiles in the row itself (its anchors touch tiles above or below): nothing to follow
        squares = zip(cc, xs, lm, wm, sq, _NO_RUNS, _NO_RUN_POINTS, _NEXT_SQUARES, allowed_next, strict=True)
        return list(starmap(RowSquare, squares))
    follow: list[tuple[int, ...] | None] = list(_NO_RUNS)
    run_pts = list(_NO_RUN_POINTS)
    nexts = list(_NEXT_SQUARES)
    for first, end, letters, points, _ in runs:
        if first:
            # the square before the run: a word through it goes on over these tiles
            follow[first - 1] = tuple([1 << letter for letter in letters])
            run_pts[first - 1] = points
            nexts[first - 1] = end
            allowed_next[first - 1] = cc[end] if end < SIZE else 0
    return list(starmap(RowSquare, zip(cc, xs, lm, wm, sq, follow, run_pts, nexts, allowed_next, strict=True)))


#: A row without tiles: no runs to follow, and each square's next square is the one after it.
_NO_RUNS: tuple[None, ...] = (None,) * SIZE
_NO_RUN_POINTS = (0,) * SIZE
_NEXT_SQUARES = tuple(range(1, SIZE + 1))


__all__ = ["LeftPart", "RowSquare", "Search", "left_parts", "row_info", "search_row"]
