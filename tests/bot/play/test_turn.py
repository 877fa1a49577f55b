"""The turn logic against the sandbox over real HTTP: best move, refused words, fallbacks, lost answers."""

from __future__ import annotations

from pathlib import Path

from bot.play.convert import placement_words, submission
from bot.play.turn import Outcome, TurnSettings
from bot.store.store import DecisionStatus
from engine.board.board import EMPTY
from engine.board.move import Placement
from engine.equity.strategy import Equity, Situation
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.rules.tiles import board_tile
from tests.bot.conftest import Sandbox, Ticker
from tests.lexicons import EN, english


def best(moves: list[Placement]) -> Placement:
    return min(moves, key=lambda m: (-(m.score or 0), m.tiles))


def bot_turns(sandbox: Sandbox, game_id: int) -> list[int]:
    game = sandbox.state.games[game_id]
    seat = game.players.index(sandbox.me.id)
    return [t.points for t in game.game.history if t.player == seat]


def test_plays_the_best_move_and_records_it(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    game = sgame.game
    expected = best(generate(game.board, game.rack, english(), game.rules))
    wiring = sandbox.wire(tmp_path / "state.db", play={"strategy": "greedy"})
    report = wiring.bot.turns.play(sgame.id)
    assert (report.outcome, report.points) == (Outcome.PLAYED, expected.score)
    assert game.history[0].action.tiles == expected.tiles  # type: ignore[union-attr]
    [decision] = wiring.store.decisions(sgame.id)
    applied = (DecisionStatus.APPLIED, expected.score, expected.score)
    assert (decision.status, decision.points, decision.server_points) == applied
    assert sandbox.state.duplicate_submissions() == []
    # the house answered; it is our turn again and the next play goes on from there
    assert wiring.bot.turns.play(sgame.id).outcome == Outcome.PLAYED
    assert len(bot_turns(sandbox, sgame.id)) == 2


def test_a_refused_word_is_recorded_and_the_next_candidate_played(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    game = sgame.game
    top = best(generate(game.board, game.rack, english(), game.rules))
    word = placement_words(top, game.board)[0]
    game.lexicon = english().without([EN.alphabet.parse_word(word)])  # the server's list lacks it
    wiring = sandbox.wire(tmp_path / "state.db", play={"strategy": "greedy"})
    report = wiring.bot.turns.play(sgame.id)
    assert report.outcome == Outcome.PLAYED and report.refused == (word,)
    assert word not in game.history[0].words
    assert wiring.store.rejected().words(5) == {word}
    statuses = [d.status for d in wiring.store.decisions(sgame.id)]
    assert statuses[0] == DecisionStatus.REFUSED and statuses[-1] == DecisionStatus.APPLIED
    # a new run (new objects, same store) never tries the word again
    again = sandbox.wire(tmp_path / "state.db")
    assert word not in {w for m in generate(game.board, game.rack, again.store.rejected().apply(english(), EN), EN)
                        for w in placement_words(m, game.board)}


def test_no_move_means_swap_then_pass_when_the_bag_is_low(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    wiring = sandbox.wire(tmp_path / "state.db")
    nothing = Dawg.build([EN.alphabet.parse_word("QQQ")], EN.alphabet)
    wiring.bot.turns.lexicons = lambda ruleset: nothing
    report = wiring.bot.turns.play(sgame.id)
    assert report.outcome == Outcome.SWAPPED
    assert type(sgame.game.history[0].action).__name__ == "Swap"
    assert 1 <= len(sgame.game.history[0].action.tiles) <= 7  # type: ignore[union-attr]  # equity keeps its best tiles
    # fewer than 7 tiles left: swapping is not allowed (the others go on the board, out of the way,
    # so that the tiles still add up: the bot refuses a bag count that cannot be right)
    drawn, sgame.game.bag[3:] = sgame.game.bag[3:], []
    free = ((r, c) for r in range(15) for c in range(15) if sgame.game.board[r, c] == EMPTY and abs(r - 7) > 2)
    squares = zip(free, drawn, strict=False)
    sgame.game.board.place([(r, c, board_tile(tile)) for (r, c), tile in squares])
    assert wiring.bot.turns.play(sgame.id).outcome == Outcome.PASSED
    assert sandbox.state.duplicate_submissions() == []


def test_an_answer_lost_after_the_move_was_made_is_not_played_again(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    wiring = sandbox.wire(tmp_path / "state.db")
    turns = wiring.bot.turns
    original = turns.client.move

    def move_then_hang_up(*args, **kwargs):
        sandbox.server.faults.inject("apply_then_fail")  # the server makes the move, then hangs up
        return original(*args, **kwargs)

    turns.client.move = move_then_hang_up  # type: ignore[method-assign]
    report = turns.play(sgame.id)
    assert report.outcome == Outcome.PLAYED, report
    assert len(bot_turns(sandbox, sgame.id)) == 1
    [decision] = wiring.store.decisions(sgame.id)
    assert decision.status == DecisionStatus.APPLIED and "lost" in decision.detail
    assert [s.kind for s in sandbox.state.submissions] == ["move"]
    assert sandbox.state.duplicate_submissions() == []


def test_a_dropped_submission_waits_then_is_settled_and_played_once(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    ticker = Ticker()
    wiring = sandbox.wire(tmp_path / "state.db", ticker, schedule={"quarantine_seconds": 30})
    wiring.client.login()
    turns = wiring.bot.turns
    original = turns.client.move

    def dropped_move(*args, **kwargs):
        sandbox.server.faults.inject("drop")  # the connection closes before the server reads the move
        turns.client.move = original  # type: ignore[method-assign]
        return original(*args, **kwargs)

    turns.client.move = dropped_move  # type: ignore[method-assign]
    assert turns.play(sgame.id).outcome == Outcome.UNKNOWN
    assert sgame.game.history == []
    assert turns.play(sgame.id).outcome == Outcome.UNKNOWN  # still inside the quarantine: not touched
    ticker.now += 31
    assert turns.play(sgame.id).outcome == Outcome.PLAYED
    statuses = [d.status for d in wiring.store.decisions(sgame.id)]
    assert statuses == [DecisionStatus.NOT_APPLIED, DecisionStatus.APPLIED]
    assert len(bot_turns(sandbox, sgame.id)) == 1 and sandbox.state.duplicate_submissions() == []


def test_a_decision_left_pending_by_a_crash_is_settled_not_replayed(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    first = sandbox.wire(tmp_path / "state.db")
    first.client.login()
    game = first.client.game(sgame.id)
    move = best(generate(sgame.game.board, sgame.game.rack, english(), EN))
    sent = submission(move, sgame.game.board, EN)
    first.store.begin_decision(sgame.id, game.move_count, sent)
    first.client.submit(sgame.id, sent)
    first.store.close()  # ... and the run dies before settling
    second = sandbox.wire(tmp_path / "state.db")
    report = second.bot.turns.play(sgame.id)
    decisions = second.store.decisions(sgame.id)
    assert decisions[0].status == DecisionStatus.APPLIED and "re-reading" in decisions[0].detail
    assert report.outcome == Outcome.PLAYED and decisions[1].move_count == game.move_count + 2
    assert second.store.decisions(status=DecisionStatus.PENDING) == []
    assert sandbox.state.duplicate_submissions() == []


def test_dry_run_decides_but_never_submits(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    wiring = sandbox.wire(tmp_path / "state.db", play={"dry_run": True})
    report = wiring.bot.turns.play(sgame.id)
    assert report.outcome == Outcome.DRY and report.points > 0
    assert sgame.game.history == [] and sandbox.state.submissions == []
    assert [d.status for d in wiring.store.decisions(sgame.id)] == [DecisionStatus.DRY_RUN]


def test_a_game_that_changes_before_submitting_is_left_alone(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    wiring = sandbox.wire(tmp_path / "state.db")
    turns = wiring.bot.turns
    original = turns.client.game
    reads = []

    def resign_after_first_read(game_id: int):
        result = original(game_id)
        reads.append(result)
        if len(reads) == 1:
            sgame.game.resign(1)  # the house gives up while the bot is thinking
        return result

    turns.client.game = resign_after_first_read  # type: ignore[method-assign]
    report = turns.play(sgame.id)
    assert report.outcome == Outcome.CHANGED
    assert sandbox.state.submissions == []


def test_settings_bound_the_candidates(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    sgame.game.lexicon = Dawg.build([EN.alphabet.parse_word("QQQ")], EN.alphabet)  # the server refuses everything
    wiring = sandbox.wire(tmp_path / "state.db", play={"max_candidates": 3})
    assert wiring.bot.turns.settings == TurnSettings(max_candidates=3, dry_run=False, quarantine=60.0)
    report = wiring.bot.turns.play(sgame.id)
    moves = [s for s in sandbox.state.submissions if s.kind == "move"]
    assert len(moves) <= 3 and report.outcome == Outcome.SWAPPED


def test_the_default_strategy_is_equity_and_its_choice_is_played(sandbox: Sandbox, tmp_path: Path) -> None:
    sgame = sandbox.game()
    game = sgame.game
    wiring = sandbox.wire(tmp_path / "state.db")
    assert wiring.bot.turns.strategy.name == "equity"
    position_rack = game.rack
    moves = generate(game.board, position_rack, english(), game.rules)
    situation = Situation(game.board, position_rack, EN, english(), tuple(game.unseen(0)), len(game.bag), (0, 0))
    expected = Equity().rank(situation, moves)[0]
    report = wiring.bot.turns.play(sgame.id)
    if isinstance(expected, Placement):
        assert report.outcome == Outcome.PLAYED and game.history[0].action.tiles == expected.tiles  # type: ignore[union-attr]
    else:
        assert report.outcome in (Outcome.SWAPPED, Outcome.PASSED)
