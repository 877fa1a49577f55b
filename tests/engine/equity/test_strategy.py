"""Leave values, swap and end-game decisions on constructed positions, and the arena's bookkeeping."""

from __future__ import annotations

import random

import pytest

from engine.board.board import Board
from engine.board.move import Direction, Pass, Placement, Swap, parse_move
from engine.board.rack import Rack
from engine.equity.leave import HandLeave
from engine.equity.strategy import Equity, Greedy, Situation, unseen_tiles
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.players.arena import GameRecord, play_pair, summarize
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK

EN = Ruleset.for_id(5)
NB = Ruleset.for_id(1)
WORDS = ["QI", "QAT", "AT", "TA", "TAE", "EAT", "ETA", "TEA", "SEAT", "EATS", "TEAS", "ZA", "ZAS", "AE", "ES"]


def lexicon(words: list[str] = WORDS) -> Dawg:
    return Dawg.build(sorted({EN.alphabet.parse_word(w) for w in words}), EN.alphabet)


def leave(text: str, rules: Ruleset = EN) -> float:
    return HandLeave.for_ruleset(rules).value(Rack.from_text(text, rules.alphabet))


def test_leave_values_know_the_basics() -> None:
    assert leave("") == 0.0
    assert leave("?") > leave("S") > leave("E") > leave("V")  # blank, then S-like, then plain, then clunky
    assert leave("QU") > leave("QI")  # Q without U is bad
    assert leave("EST") > leave("EEE")  # duplicates and too many vowels are bad
    assert leave("AEINRST"[:3]) > leave("BCD")  # consonant-only leaves are bad too
    assert leave("RST") > leave("RSTZ")  # a 10-point Z costs more than it adds
    assert leave("ES", NB) > leave("CW", NB)  # hard letters come from each language's data
    for rules in Ruleset.all():
        HandLeave.for_ruleset(rules)  # every alphabet has an entry


def situation(rack: str, bag: int, board: Board | None = None, unseen: str = "", words: list[str] = WORDS) -> Situation:
    board = board or Board(EN.alphabet)
    unseen_codes = tuple(BLANK if c == "?" else EN.alphabet.code(c) for c in unseen)
    return Situation(board, Rack.from_text(rack, EN.alphabet), EN, lexicon(words), unseen_codes, bag)


def test_greedy_takes_the_top_score_and_swaps_or_passes_without_a_placement() -> None:
    s = situation("AEQITSZ", 50)
    moves = generate(s.board, s.rack, s.lexicon, EN)
    best = Greedy().rank(s, moves)[0]
    assert isinstance(best, Placement) and best.score == max(m.score or 0 for m in moves)
    stuck = situation("VVWWKKJ", 50)
    assert Greedy().rank(stuck, [])[0] == Swap(tuple(sorted(stuck.rack.letters())))
    assert Greedy().rank(situation("VVWWKKJ", 3), [])[0] == Pass()


def test_equity_keeps_good_tiles_over_a_few_points() -> None:
    s = situation("AEQITSZ", 50)
    moves = generate(s.board, s.rack, s.lexicon, EN)
    greedy = Greedy().rank(s, moves)[0]
    equity = Equity().rank(s, moves)[0]
    assert isinstance(greedy, Placement) and isinstance(equity, Placement)
    kept = s.rack.leave([t for _, _, t in equity.tiles])
    assert "Q" not in kept.text()  # never keep the Q without a U when it can be played
    assert Equity().rank(s, moves) == Equity().rank(s, moves)  # reproducible


def test_equity_swaps_a_hopeless_rack_and_keeps_the_best_tiles() -> None:
    s = situation("?SVVWWQ", 50)
    choice = Equity().rank(s, [])[0]
    assert isinstance(choice, Swap)
    given = sorted(choice.tiles)
    assert BLANK not in given and EN.alphabet.code("S") not in given  # keeps the blank and the S
    assert EN.alphabet.code("Q") in given
    assert not isinstance(Equity().rank(situation("?SVVWWQ", 6), [])[0], Swap)  # bag too small to swap


def test_endgame_prefers_going_out_to_more_points() -> None:
    board = Board(EN.alphabet)
    board.place(parse_move("8G EAT", board).tiles)
    s = situation("SZ", 0, board, unseen="QV")
    z, s_code = EN.alphabet.code("Z"), EN.alphabet.code("S")
    out = Placement(((7, 5, z), (7, 9, s_code)), Direction.ACROSS, 14)  # ZEATS: every tile, 14 points
    big = Placement(((6, 6, s_code),), Direction.DOWN, 20)  # keeps the Z (10 points) for 20 points
    assert Greedy().rank(s, [out, big])[0] == big
    assert Equity().rank(s, [out, big])[0] == out


def test_endgame_avoids_leaving_the_opponent_an_out_play() -> None:
    board = Board(EN.alphabet)
    board.place(parse_move("8G EAT", board).tiles)
    # the opponent holds only an S: after a move that leaves EATS open, it goes out
    s = situation("ZQ", 0, board, unseen="S", words=[*WORDS, "ZEAT"])
    z, q = EN.alphabet.code("Z"), EN.alphabet.code("Q")
    opens = Placement(((6, 8, z),), Direction.DOWN, 12)  # 12 points; EATS still playable at (7, 9)
    blocks = Placement(((7, 9, q),), Direction.ACROSS, 11)  # 11 points; takes the S square
    ranked = Equity().rank(s, [opens, blocks])
    assert ranked[0] == blocks


def test_endgame_dumps_high_tiles_when_it_cannot_go_out() -> None:
    board = Board(EN.alphabet)
    board.place(parse_move("8G EAT", board).tiles)
    s = situation("ZV", 0, board, unseen="QX", words=[*WORDS, "ZEA"])
    moves = generate(s.board, s.rack, s.lexicon, EN)
    assert moves and all(len(m.tiles) == 1 for m in moves)
    choice = Equity().rank(s, moves)[0]
    assert isinstance(choice, Placement) and choice.tiles[0][2] == EN.alphabet.code("Z")


def test_unknown_strategy_names_the_known_ones() -> None:
    known = r"known: equity, equity\+endgame, equity-hand, equity-learned, greedy, sim, or equity:FILE"
    with pytest.raises(ValueError, match=known):
        strategy_named("genius")


def test_mirrored_pairs_and_the_summary() -> None:
    words = ["AA", "AB", "AD", "BA", "DA", "BAD", "DAB", "TA", "AT", "EAT", "TEA", "ETA", "ATE", "TEE", "TEAS"]
    lex = lexicon(words)
    first, second = play_pair(Greedy(), Greedy(), EN, lex, seed=3)
    assert first.margin == -second.margin  # equal players: the same game twice, so exactly even
    summary = summarize([first, second])
    assert summary.games == 2 and summary.wins + summary.draws + summary.losses == 2
    if first.margin:
        assert summary.wins == summary.losses == 1 and summary.win_rate == 0.5
    assert summary.low <= summary.win_rate <= summary.high


def test_summary_counts_from_the_side_of_a() -> None:
    def record(seed: int, seat: int, scores: tuple[int, int]) -> GameRecord:
        return GameRecord(seed, seat, scores, (1, 0), (0, 2), (10, 10), (0.1, 0.2))

    records = [record(1, 0, (300, 200)), record(1, 1, (250, 260)), record(2, 0, (200, 200)), record(2, 1, (300, 100))]
    summary = summarize(records)
    assert (summary.wins, summary.draws, summary.losses) == (2, 1, 1)
    assert summary.win_rate == pytest.approx(2.5 / 4)
    assert summary.mean_a == pytest.approx((300 + 260 + 200 + 100) / 4)
    assert summary.margin == pytest.approx((100 + 10 + 0 - 200) / 4)
    assert summary.bingos_a == pytest.approx(0.5) and summary.swaps_a == pytest.approx(1.0)
    assert summary.ms_per_move_a == pytest.approx(1000 * 0.6 / 40)


def test_unseen_tiles_from_the_players_view_match_the_game() -> None:
    words = ["AA", "AB", "AD", "BA", "DA", "BAD", "DAB", "TA", "AT", "EAT", "TEA", "ETA", "ATE", "TEE", "TEAS"]
    game = Game(EN, lexicon(words), random.Random(5))
    for _ in range(8):
        assert unseen_tiles(game.board, game.rack, EN) == tuple(game.unseen(game.current))
        moves = generate(game.board, game.rack, game.lexicon, EN)
        if moves:
            game.place(max(moves, key=lambda m: (m.score or 0, m.tiles)))
        else:
            game.pass_turn()
        if game.is_over:
            break
    assert len(game.board) > 0  # the comparison covered positions with tiles on the board


def test_a_situation_of_a_game_is_its_movers_view_with_the_last_placement_for_inference() -> None:
    words = ["AA", "AB", "AD", "BA", "DA", "BAD", "DAB", "TA", "AT", "EAT", "TEA", "ETA", "ATE", "TEE", "TEAS"]
    game = Game(EN, lexicon(words), random.Random(1))  # its first rack can place a word
    assert Situation.of(game).last_play is None  # the first move has nothing to infer from
    placed = max(generate(game.board, game.rack, game.lexicon, EN), key=lambda m: (m.score or 0, m.tiles))
    game.place(placed)
    seen = Situation.of(game)
    assert seen.last_play == placed and seen.rack == game.rack and seen.bag_count == len(game.bag)
    assert seen.scores == (0, placed.score) and seen.unseen == tuple(game.unseen(game.current))
    game.pass_turn()
    seen = Situation.of(game)
    assert seen.last_play is None and seen.scores == (placed.score, 0) and seen.scoreless == 1
