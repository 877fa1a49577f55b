"""The reply search's anchor bounds in the C playouts (``engine/csrc/reply/anchorbound.c``, ``lexicon/anagrams.c``).

A span of a line that takes the whole rack (a rack of 7 tiles without a blank) is left out of an anchor's
bound when no word of the lexicon has the letters of the rack and of the board tiles in that span's word
(``anagrams.c``: the lexicon's words as multisets). The replies must stay the reference's: here the
opponent holds racks that play all 7 tiles only through a board tile (an 8-letter word less one of its
letters that lies on the board, where no 7-letter word has the rack's letters), so that a bound that left
the board tile's letter out of the span's letters would drop the bingo's span and miss the bingo.
"""

from __future__ import annotations

import random
from array import array
from collections import Counter
from functools import cache

import pytest

from engine import native
from engine.board.move import Move, Placement
from engine.board.rack import Rack
from engine.equity import native as leavenative
from engine.equity.leavetable import LearnedLeave
from engine.equity.strategy import Equity, Situation
from engine.lexicon.overlay import LexiconOverlay
from engine.lookahead.playout import NativePlayouts
from engine.lookahead.simulation import SimSettings, Simulator
from engine.movegen.generate import generate
from engine.rules.tiles import BLANK
from tests.engine.native_cases import SIZE, empty_grid, module
from tests.engine.playout_cases import EN, english, fanned_out, positions

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")


@cache
def situations() -> list[Situation]:
    """Middle-game positions of seeded games (the bag with more than 7 tiles)."""
    return [s for s in positions(english(), range(340, 344), every=5) if s.bag_count > 7]


@cache
def words_by_length() -> dict[int, list[tuple[int, ...]]]:
    found: dict[int, list[tuple[int, ...]]] = {7: [], 8: []}
    for word in english().words():
        if len(word) in found:
            found[len(word)].append(word)
    return found


def through_board_racks(situation: Situation, rng: random.Random, wanted: int) -> list[tuple[int, ...]]:
    """Up to ``wanted`` racks of 7 unseen tiles (no blank) that have no 7-letter anagram and can play all
    their tiles on the board: an 8-letter word less one of its letters that lies on the board."""
    sevens = {tuple(sorted(word)) for word in words_by_length()[7]}
    on_board = {tile & 63 for _, _, tile in situation.board.tiles() if not tile & 64}
    pool = Counter(situation.unseen)
    eights = list(words_by_length()[8])
    rng.shuffle(eights)
    racks: list[tuple[int, ...]] = []
    tried = 0
    for word in eights:
        if len(racks) == wanted or tried == 300:
            break
        for letter in sorted(set(word) & on_board):
            rack = list(word)
            rack.remove(letter)
            key = tuple(sorted(rack))
            if key in sevens or Counter(key) - pool or key in racks:
                continue
            tried += 1
            moves = generate(
                situation.board, Rack.from_codes(situation.rules.alphabet, key), english(), situation.rules
            )
            if any(isinstance(m, Placement) and len(m.tiles) == 7 for m in moves):
                racks.append(key)
                break
    return racks


def same_values_and_whole_rack(
    situation: Situation,
    kernel: NativePlayouts,
    simulator: Simulator,
    candidates: list[Move],
    theirs: Rack,
    bag: list[int],
) -> bool:
    """Asserts the kernel's playouts of ``candidates`` against the rack ``theirs`` are the reference's; returns
    whether the opponent's best static reply on the position itself plays the whole rack (such a bingo)."""
    model = simulator.static.leave_model(situation.rules)
    row = kernel.run(candidates, [(theirs, list(bag), 1.0)])[0]
    expected = [simulator._play_out(situation, move, theirs, list(bag), model) for move in candidates]
    assert row == expected, (theirs.text(), candidates)
    their_view = Situation(situation.board, theirs, situation.rules, english(), situation.unseen, situation.bag_count)
    best = simulator.static.best(their_view, 1)[0]
    return isinstance(best, Placement) and len(best.tiles) == situation.rules.rack_size


def one_blank_draw(situation: Situation, letters: list[int], rng: random.Random) -> tuple[Rack, list[int]]:
    """The opponent's rack of ``letters`` and a blank, and the other unseen tiles shuffled as the bag."""
    bag = list((Counter(situation.unseen) - Counter([*letters, BLANK])).elements())
    rng.shuffle(bag)
    return Rack.from_codes(situation.rules.alphabet, letters, blanks=1), bag


def test_replies_that_play_the_whole_rack_through_a_board_tile_are_the_references() -> None:
    racks_tried = whole_rack_replies = 0
    for index, situation in enumerate(situations()):
        rng = random.Random(7100 + index)
        racks = through_board_racks(situation, rng, 4)
        if not racks:
            continue
        equity = Equity()
        kernel = NativePlayouts.for_situation(situation, equity)
        assert kernel is not None
        simulator = Simulator(equity, SimSettings(), rng=random.Random(index))
        candidates = equity.best(situation, 3)
        alphabet = situation.rules.alphabet
        for rack in racks:
            bag = list((Counter(situation.unseen) - Counter(rack)).elements())
            rng.shuffle(bag)
            theirs = Rack.from_codes(alphabet, rack)
            whole_rack_replies += same_values_and_whole_rack(situation, kernel, simulator, candidates, theirs, bag)
            racks_tried += 1
    assert racks_tried >= 10 and whole_rack_replies >= 5, (racks_tried, whole_rack_replies)


def test_replies_of_a_rack_with_a_blank_are_the_references() -> None:
    """The same racks with a blank for one of their tiles (the span is kept when a word has its letters
    with any one letter more): the blank can stand for the tile it replaced, so the bingo stays."""
    racks_tried = whole_rack_replies = 0
    for index, situation in enumerate(situations()):
        if BLANK not in situation.unseen:
            continue
        rng = random.Random(7100 + index)
        racks = through_board_racks(situation, rng, 4)
        equity = Equity()
        kernel = NativePlayouts.for_situation(situation, equity)
        assert kernel is not None
        simulator = Simulator(equity, SimSettings(), rng=random.Random(index))
        candidates = equity.best(situation, 3)
        for rack in racks:
            for blanked in sorted(set(rack)):
                letters = list(rack)
                letters.remove(blanked)
                theirs, bag = one_blank_draw(situation, letters, rng)
                whole_rack_replies += same_values_and_whole_rack(situation, kernel, simulator, candidates, theirs, bag)
                racks_tried += 1
    assert racks_tried >= 20 and whole_rack_replies >= 10, (racks_tried, whole_rack_replies)


def test_a_lexicon_of_too_many_paths_plays_out_without_the_set() -> None:
    """25^15 paths and no word: the set's walk stops at its limit of edges (a hostile lexicon would
    otherwise walk for ever) and the playouts give the values of a lexicon without a word or an edge."""
    c = module()
    native.set_types()
    model = Equity().leave_model(EN)
    assert isinstance(model, LearnedLeave)
    counts = [0] * 26
    for letter in "CATSXIE":
        counts[EN.alphabet.code(letter)] += 1
    a, t = EN.alphabet.code("A"), EN.alphabet.code("T")

    def values(lexicon: object) -> list[float]:
        result = c.playouts(
            lexicon=lexicon,
            rules=native.rules(EN),
            leave=leavenative.leave_table(model),
            grid=empty_grid(),
            counts=counts,
            blanks=0,
            candidates=array("i", [0, 2, 4, 7, 7, a, 7, 8, t, 2, 0, 0]),
            ncandidates=2,
            draws=array("i", [a] * 7 + list(range(20))),
            held=7,
            bag=20,
            swap_cost=0.0,
            swap_min_bag=7,
            endgame_width=12,
        )
        out = array("d")
        out.frombytes(result)
        return list(out)

    paths = values(c.Lexicon(*fanned_out(words_from=SIZE + 1), 26))
    assert len(paths) == 2 and paths == values(c.Lexicon(array("I"), array("I", [0]), array("I", [0]), 26))


def open_row_end(situation: Situation) -> tuple[int, int, int] | None:
    """A board tile (row, col, letter) with 7 empty squares left of it that no tile touches from above,
    below or the left, and nothing right of it: room for a word of 7 new tiles ending on it."""
    board = situation.board
    for row, col, tile in sorted(board.tiles()):
        if tile & 64 or col < 7 or (col < 14 and board[row, col + 1] != -1):
            continue
        squares = [(row, c) for c in range(col - 7, col)]
        near = [(r, c) for r in (row - 1, row + 1) if 0 <= r < 15 for c in range(col - 7, col)]
        if col >= 8:
            near.append((row, col - 8))
        if all(board[sq] == -1 for sq in squares + near):
            return row, col, tile & 63
    return None


def test_the_multisets_are_made_again_after_a_word_is_added() -> None:
    """The lexicon's multisets are dropped when a word is added in place (``Lexicon.patch``) and made
    again at the next playouts, with the new word's; the playouts then find the reply that plays all 7
    tiles into it (7 tiles ending on a board tile) and give the reference's values."""
    for index, situation in enumerate(situations()):
        end = open_row_end(situation)
        pool = Counter(situation.unseen)
        pool.pop(BLANK, None)
        rack = tuple(sorted(pool.elements()))[:7]
        if end is None or len(rack) < 7:
            continue
        overlay = LexiconOverlay(english())
        lexicon = overlay.dawg
        here = Situation(
            situation.board, situation.rack, situation.rules, lexicon, situation.unseen, situation.bag_count
        )
        equity = Equity()
        kernel = NativePlayouts.for_situation(here, equity)
        assert kernel is not None
        candidates = equity.best(here, 2)
        bag = list((Counter(situation.unseen) - Counter(rack)).elements())
        random.Random(index).shuffle(bag)
        theirs = Rack.from_codes(situation.rules.alphabet, rack)
        kernel.run(candidates, [(theirs, list(bag), 1.0)])
        before = native.lexicon(lexicon).multisets
        word = (*rack, end[2])
        if overlay.add([word]) != 1:
            continue
        assert before is not None and native.lexicon(lexicon).multisets is None
        simulator = Simulator(equity, SimSettings(), rng=random.Random(index))
        model = equity.leave_model(here.rules)
        row = kernel.run(candidates, [(theirs, list(bag), 1.0)])[0]
        assert native.lexicon(lexicon).multisets == before + 1  # the word's letters are no other's
        expected = [simulator._play_out(here, move, theirs, list(bag), model) for move in candidates]
        assert row == expected, (index, word)
        their_view = Situation(here.board, theirs, here.rules, lexicon, here.unseen, here.bag_count)
        best = equity.best(their_view, 1)[0]
        assert isinstance(best, Placement) and len(best.tiles) == 7, best  # the new word is the reply
        return
    pytest.fail("no position with room for the new word")


def test_one_blank_racks_whose_bingos_are_searched_apart_are_the_references() -> None:
    """Full racks with one blank (``engine/csrc/reply/wholerack.c``): their second search takes the spans that
    play the whole rack out of the anchors' bounds and searches them apart, letter by letter for the blank
    (only the letters every square's cross word leaves it, and a word has with the span's letters). Random
    racks of six unseen tiles and the blank; the replies must be the reference's, bingos among them."""
    racks_tried = whole_rack_replies = 0
    for index, situation in enumerate(situations()):
        if BLANK not in situation.unseen:
            continue
        rng = random.Random(7300 + index)
        equity = Equity()
        kernel = NativePlayouts.for_situation(situation, equity)
        assert kernel is not None
        simulator = Simulator(equity, SimSettings(), rng=random.Random(index))
        candidates = equity.best(situation, 3)
        letters_unseen = [tile for tile in situation.unseen if tile != BLANK]
        for _ in range(12):
            theirs, bag = one_blank_draw(situation, rng.sample(letters_unseen, 6), rng)
            whole_rack_replies += same_values_and_whole_rack(situation, kernel, simulator, candidates, theirs, bag)
            racks_tried += 1
    assert racks_tried >= 100 and whole_rack_replies >= 40, (racks_tried, whole_rack_replies)


def test_one_blank_moves_that_keep_a_dear_tile_are_the_references() -> None:
    """The second search of a full one-blank rack also searches apart its spans of all tiles but one through
    a board tile, for each real tile kept, under the value of keeping that tile: a leave model that makes
    an E worth much and the blank little puts such moves (the blank played, the E kept) first, so that a
    bound with another tile's value (or none) would miss them."""
    tried = six_tile_replies = 0
    for index, situation in enumerate(situations()):
        if BLANK not in situation.unseen or not situation.unseen.count(4) > 1:
            continue
        model = Equity().leave_model(situation.rules)
        assert isinstance(model, LearnedLeave)
        weights = list(model.weights)
        weights[model.features.names.index("E")] = 40.0
        weights[model.features.names.index("?")] = -30.0
        equity = Equity(LearnedLeave(model.ruleset, model.features, tuple(weights), model.baseline))
        rng = random.Random(7500 + index)
        kernel = NativePlayouts.for_situation(situation, equity)
        assert kernel is not None
        simulator = Simulator(equity, SimSettings(), rng=random.Random(index))
        candidates = equity.best(situation, 3)
        others = [tile for tile in situation.unseen if tile != BLANK]
        others.remove(4)
        for _ in range(16):
            theirs, bag = one_blank_draw(situation, [4, *rng.sample(others, 5)], rng)
            same_values_and_whole_rack(situation, kernel, simulator, candidates, theirs, bag)
            view = Situation(situation.board, theirs, situation.rules, english(), situation.unseen, situation.bag_count)
            best = simulator.static.best(view, 1)[0]
            six_tile_replies += (
                isinstance(best, Placement) and len(best.tiles) == 6 and any(tile & 64 for _, _, tile in best.tiles)
            )
            tried += 1
    assert tried >= 100 and six_tile_replies >= 10, (tried, six_tile_replies)
