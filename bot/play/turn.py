"""One game's turn: decide, re-check, submit, fall back, record.

The flow: read the game; settle decisions an earlier run left pending; if it is our turn,
generate every placement, rank them, and submit the best. Before each submission the game is
read again (it must not have changed) and the decision is written to the store as pending.
``illegal_word`` records the refused word for the ruleset and tries the next candidate (up to
``max_candidates``); any other refusal (``illegal_tiles``, an unknown type) tries the next
candidate without blaming a word, and a session the server keeps refusing ends the turn for this
pass; when nothing is accepted or no placement exists the bot swaps its rack (bag >= 7) or passes.
A move is never submitted twice: when a submission's outcome is unknown the game is re-read before
anything else, and if it looks unplayed the game is left alone for ``quarantine`` seconds (the
request may still be on its way) and settled on a later pass.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from bot.api.client import WordfeudClient
from bot.api.models import Game
from bot.api.submission import Kind, Submission
from bot.errors import ApiStatusError, AuthError, IllegalWordError, OutcomeUnknownError, ProtocolError
from bot.play.acceptances import LearningBudget, opponent_words, remember, words_of_move
from bot.play.analysis import figures
from bot.play.chat import Chatter
from bot.play.convert import ConversionError, Position, submission, to_position
from bot.play.strength import StrengthChooser
from bot.store.store import OPPONENT, OWN, DecisionStatus, Store
from engine.board.move import Move, Pass, Placement, Swap
from engine.equity.strategy import Greedy, Situation, Strategy, unseen_tiles, whole_rack_swap
from engine.errors import EngineError
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.rules.ruleset import Ruleset

log = logging.getLogger(__name__)
#: Candidates of the last decision kept per game for the status page.
THOUGHTS_KEPT = 5


class Outcome(StrEnum):
    """What happened to a game this pass (the value is what logs and reports show to tools)."""

    PLAYED = "played"
    SWAPPED = "swapped"
    PASSED = "passed"
    WAITING = "waiting"
    CHANGED = "changed"
    UNKNOWN = "unknown"
    OVER = "over"
    DRY = "dry_run"
    #: the server refused a submission because of a word (``illegal_word``): the only refusal that
    #: teaches a word; this and ``REFUSED`` end a turn only when even the pass was refused
    REFUSED_WORD = "refused_word"
    REFUSED = "refused"  # refused for another reason: no word is to blame


#: The outcome of a submission the server applied, by its kind.
_APPLIED = {Kind.MOVE: Outcome.PLAYED, Kind.SWAP: Outcome.SWAPPED, Kind.PASS: Outcome.PASSED}

#: How the log and the demo say what happened (the members themselves are for code).
_SAID = {
    Outcome.DRY: "would play",
    Outcome.UNKNOWN: "sent, outcome not known yet:",
    Outcome.CHANGED: "played nothing, the game changed:",
    Outcome.WAITING: "waits for the opponent",
    Outcome.OVER: "game over",
}


def outcome_text(outcome: Outcome) -> str:
    """An outcome as words for people: ``unknown`` is ``sent, outcome not known yet:``."""
    return _SAID.get(outcome, outcome.value)


def game_over_line(game: Game, user_id: int) -> str:
    """The log line of a game that has ended: the result from the bot's side, the final score, the
    opponent, and who resigned (``end_game`` 2, or 3 on time), who loses whatever the score."""
    me, other = game.me(user_id), game.opponent(user_id)
    last = game.last_move
    resigner = last.user_id if game.end_game in (2, 3) and last is not None and last.move_type == "resign" else None
    if resigner in (me.id, other.id):
        result = "lost" if resigner == me.id else "won"
        who = "the bot" if resigner == me.id else other.username
        how = f"; {who} {'resigned' if game.end_game == 2 else 'ran out of time'}"
    else:
        result = "won" if me.score > other.score else "lost" if me.score < other.score else "drawn"
        how = {2: "; by resignation", 3: "; by resignation on time"}.get(game.end_game, "")
    return (
        f"game {game.id} over: {result} {me.score}-{other.score} against {other.username} "
        f"(ruleset {game.ruleset}, {game.move_count} moves{how})"
    )


def situation_of(position: Position, lexicon: Dawg) -> Situation:
    """What the strategy sees of an API position (the unseen tiles worked out from the board and rack).

    ConversionError when the bag count cannot be right: the unseen tiles are the bag plus the
    opponent's rack, which holds no more than a rack."""
    rules = position.rules
    mine, theirs = position.scores[position.seat], position.scores[1 - position.seat]
    unseen = unseen_tiles(position.board, position.rack, rules)
    theirs_held = len(unseen) - position.bag_count
    if not 0 <= theirs_held <= rules.rack_size:
        raise ConversionError(
            f"game {position.game_id}: field 'bag_count': {position.bag_count} tiles in the bag and "
            f"{len(unseen)} unseen would leave the opponent {theirs_held} tiles (a rack holds {rules.rack_size})"
        )
    return Situation(
        position.board,
        position.rack,
        rules,
        lexicon,
        unseen,
        position.bag_count,
        (mine, theirs),
        position.scoreless,
        position.their_last,
        position.game_id,
    )


@dataclass(frozen=True)
class TurnReport:
    """What the bot did in one game."""

    game_id: int
    outcome: Outcome
    notation: str = ""
    points: int = 0
    refused: tuple[str, ...] = ()
    detail: str = ""


@dataclass(frozen=True)
class TurnSettings:
    """Knobs of the turn logic (from the config's ``[play]`` table)."""

    max_candidates: int = 10
    dry_run: bool = False
    quarantine: float = 60.0  # seconds to leave a game alone after a submission of unknown outcome
    seconds_per_move: float = 2.0  # the most a strategy that looks ahead may think about one move
    budget: LearningBudget = field(default_factory=LearningBudget)  # the most words a game, a day can teach


class TurnPlayer:
    """Plays our turn in games, through ``client``, remembering everything in ``store``."""

    def __init__(
        self,
        client: WordfeudClient,
        store: Store,
        lexicons: Callable[[int], Dawg],
        *,
        strategy: Strategy | None = None,
        settings: TurnSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
        strength: StrengthChooser | None = None,
        chatter: Chatter | None = None,
        game_over: Callable[[Store, int], None] | None = None,
    ) -> None:
        self.client = client
        self.store = store
        self.lexicons = lexicons
        self.strategy: Strategy = strategy or Greedy()
        self.strength = strength  # a game's strength level and its strategy (None: ``strategy`` for all)
        #: called with each game the store had never seen, before anything else is done with it
        self.on_new_game: Callable[[Game], None] | None = None
        self.chatter = chatter  # greets, says goodbye and keeps the opponent's messages (chat.enabled)
        self.game_over = game_over  # told once of each game seen ending, after the game is recorded
        self.settings = settings or TurnSettings()
        self.clock = clock
        self._quarantined: dict[int, float] = {}  # game id -> clock time it may be touched again
        self._over_budget: dict[int, int] = {}  # game id -> the move whose words past the budget were logged
        # loaded once: its cache of lexicons with the accepted words and without the refused ones
        # lives as long as this player
        self.rejected = store.learned()

    def take_over(self, old: TurnPlayer) -> None:
        """Carry on from ``old`` (the player of the configuration before a reload): the games waiting for
        a lost answer stay untouched until their quarantine ends, so a reload never sends a move twice."""
        self._quarantined.update(old._quarantined)
        self._over_budget.update(old._over_budget)

    @property
    def quarantined(self) -> set[int]:
        """Games left alone until a lost answer's outcome shows."""
        return set(self._quarantined)

    @property
    def user_id(self) -> int:
        if self.client.user_id is None:
            self.client.login()
        assert self.client.user_id is not None
        return self.client.user_id

    def play(self, game_id: int, seconds: float | None = None) -> TurnReport:
        """Read a game and, if it is our turn, play it, thinking at most ``seconds`` (and never more
        than ``seconds_per_move``)."""
        until = self._quarantined.get(game_id)
        if until is not None:
            if self.clock() < until:
                detail = "waiting to learn the outcome of the last submission"
                return TurnReport(game_id, Outcome.UNKNOWN, detail=detail)
            del self._quarantined[game_id]
        game = self.client.game(game_id)
        if game.id != game_id:
            raise ProtocolError(f"game/{game_id}/: field 'id': the answer is game {game.id}")
        self._observe(game)
        if not game.is_running:
            return TurnReport(game_id, Outcome.OVER)
        if not game.is_my_turn(self.user_id):
            return TurnReport(game_id, Outcome.WAITING)
        limit = self.settings.seconds_per_move if seconds is None else min(seconds, self.settings.seconds_per_move)
        leveled, level = None, ""
        if self.strength is not None:
            chosen = self.strength.level_of(game, self.user_id)
            self.store.save_level(game.id, chosen.name, chosen.reason)
            leveled, level = self.strength.strategy_at(chosen.name), f", {chosen}"
        return self._decide(game, (leveled or self.strategy).budgeted(limit), level)

    def _quarantine(self, game_id: int) -> None:
        """Leave the game alone for the quarantine; forget the quarantines that are over, so that games
        never looked at again (over, or gone from the account) are not remembered for good."""
        now = self.clock()
        for over in [gid for gid, until in self._quarantined.items() if until <= now]:
            del self._quarantined[over]
        self._quarantined[game_id] = now + self.settings.quarantine

    # -- deciding ---------------------------------------------------------------------------

    def _observe(self, game: Game) -> None:
        """Record the game and settle decisions left pending by an earlier pass or run."""
        was_running = self.store.was_running(game.id)
        if was_running is None and self.on_new_game is not None:
            self.on_new_game(game)
        self.store.record_game(game, self.user_id)
        if was_running and not game.is_running:
            log.info("%s", game_over_line(game, self.user_id))
        if self.chatter is not None:
            self.chatter.observe(game, self.user_id, was_running)
        try:
            self._learn(game, opponent_words(game, self.user_id), OPPONENT)
        except ProtocolError as exc:
            log.warning("game %d: the opponent's last move teaches no word: %s", game.id, exc)
        for decision in self.store.decisions(game.id, DecisionStatus.PENDING):
            sent = decision.submission
            applied = self._was_applied(game, decision.move_count, sent)
            status = DecisionStatus.APPLIED if applied else DecisionStatus.NOT_APPLIED
            self.store.settle(decision.id, status, detail="settled by re-reading the game")
            said = "was made" if applied else "was not made"
            log.info("game %d: the earlier %s %s %s", game.id, decision.kind, decision.notation, said)
            before = self.store.snapshot_at(game.id, decision.move_count)
            if applied and sent.kind is Kind.MOVE and before is not None:
                self._learn_own(Game.model_validate(before), sent)
        if was_running and not game.is_running and self.game_over is not None:
            self.game_over(self.store, game.id)  # last: the final move's decision is settled above

    def _learn(self, game: Game, words: Sequence[str], source: str) -> None:
        """Remember the words the server accepted in this game, as proof: a word the bot's lexicon
        lacked (or had refused) is learned, played from now on, and never refused locally."""
        if not words:
            return
        try:
            lexicon = self.rejected.apply(self.lexicons(game.ruleset), Ruleset.for_id(game.ruleset))
        except EngineError as exc:  # no lexicon for the ruleset: nothing is played in it anyway
            log.debug("game %d: not learning %s: %s", game.id, ", ".join(words), exc)
            return
        done = remember(self.store, self.rejected, lexicon, game, words, source, self.settings.budget)
        who = "the opponent" if source == OPPONENT else "the bot"
        for word in done.learned:
            log.info("ruleset %d: learned %s (played by %s in game %d, accepted)", game.ruleset, word, who, game.id)
        if done.over_budget and self._over_budget.get(game.id) != game.move_count:
            self._over_budget[game.id] = game.move_count  # once per move, not at every read of it
            budget = self.settings.budget
            log.warning(
                "game %d: %d word(s) of move %d not learned: the budget (%d a game, %d a day) is spent",
                game.id,
                len(done.over_budget),
                game.move_count,
                budget.per_game,
                budget.per_day,
            )

    def _learn_own(self, before: Game, sent: Submission) -> None:
        """Learn the words of our placement ``sent`` that the server applied to the game ``before``."""
        try:
            self._learn(before, words_of_move(before, list(sent.tiles)), OWN)
        except (ProtocolError, KeyError, TypeError, ValueError) as exc:
            log.warning("game %d: our accepted move teaches no word: %s", before.id, exc)

    def _remember_thinking(
        self,
        game_id: int,
        situation: Situation,
        strategy: Strategy,
        ranked: list[Move],
        placements: int,
        move_count: int | None = None,
    ) -> None:
        """Keep what the strategy weighed (its top candidates and their figures) for the status page and the replay."""
        weighed = figures(situation, strategy, ranked[:THOUGHTS_KEPT], placements)
        facts = {
            "rack": weighed.rack,
            "bag": weighed.bag_count,
            "strategy": weighed.strategy,
            "note": weighed.note,
            "candidates": [
                {
                    "notation": m.notation, "score": m.score, "equity": m.equity, "sim_value": m.sim_value,
                    "sim_ahead": m.sim_ahead,
                }
                for m in weighed.moves
            ],
        }  # fmt: skip
        self.store.save_thinking(game_id, facts, move_count)

    def _decide(self, game: Game, strategy: Strategy, level: str = "") -> TurnReport:
        """Rank the moves and submit the best one the server takes; ``level`` (``, level casual: play.level``)
        goes into the decision's log line."""
        position = to_position(game, self.user_id, self._board)
        rules = position.rules
        lexicon = self.rejected.apply(self.lexicons(rules.id), rules)
        started = time.perf_counter()
        moves = generate(position.board, position.rack, lexicon, rules)
        situation = situation_of(position, lexicon)
        ranked = strategy.rank(situation, moves)
        self._remember_thinking(game.id, situation, strategy, ranked, len(moves), game.move_count)
        log.debug(
            "game %d: %d moves for rack %s ranked by %s in %.0f ms",
            game.id,
            len(moves),
            position.rack.text(),
            strategy.name,
            (time.perf_counter() - started) * 1000,
        )
        refused: list[str] = []
        tried = 0
        for move in ranked:
            if not isinstance(move, Placement):
                break  # the strategy prefers a swap or a pass to every placement left
            if tried >= self.settings.max_candidates:
                break
            sent = submission(move, position.board, rules)
            if any(word in refused for word in sent.words):
                continue
            tried += 1
            outcome, detail = self._submit(game, sent)
            if outcome is Outcome.REFUSED_WORD:
                refused.extend(self._refused_words(detail, list(sent.words), rules.id))
                continue
            if outcome is Outcome.REFUSED:
                continue  # refused for another reason: no word is to blame
            return self._report(game, position, outcome, sent, refused, detail, level)
        swap = next((m for m in ranked if isinstance(m, Swap)), None)
        if swap is None and not isinstance(ranked[0], Pass):  # every placement was refused: change the rack
            swap = next((m for m in whole_rack_swap(situation) if isinstance(m, Swap)), None)
        if swap is not None and position.bag_count >= rules.swap_min_bag and swap.tiles:
            sent = submission(swap, position.board, rules)
            outcome, detail = self._submit(game, sent)
            if outcome not in (Outcome.REFUSED, Outcome.REFUSED_WORD):
                return self._report(game, position, outcome, sent, refused, detail, level)
        sent = submission(Pass(), position.board, rules)
        outcome, detail = self._submit(game, sent)
        return self._report(game, position, outcome, sent, refused, detail, level)

    def _report(
        self,
        game: Game,
        position: Position,
        outcome: Outcome,
        sent: Submission,
        refused: list[str],
        detail: str,
        level: str = "",
    ) -> TurnReport:
        report = TurnReport(game.id, outcome, sent.notation, sent.points, tuple(refused), detail)
        log.info(
            "game %d vs %s (ruleset %d, move %d, rack %s%s): %s %s for %d points%s%s",
            game.id,
            position.opponent,
            position.rules.id,
            game.move_count + 1,  # the game's move number, as everywhere: both players' moves counted from 1
            position.rack.text(),
            level,
            outcome_text(outcome),
            sent.notation,
            sent.points,
            f"; refused {', '.join(refused)}" if refused else "",
            f" ({detail})" if detail else "",
        )
        return report

    def _board(self, board_id: int) -> list[list[int]]:
        return self.store.board_grid(board_id, self.client.board)

    # -- submitting -------------------------------------------------------------------------

    def _submit(self, game: Game, sent: Submission) -> tuple[Outcome, str]:
        """Re-check the game, record the decision, send it; returns (outcome, detail).

        ``REFUSED_WORD`` (detail: the server's message) is the only outcome that blames a word.
        A session the server refuses even after logging in again raises AuthError (nothing more can
        be sent in this pass); the decision is settled first, as the server did not carry it out."""
        fresh = self.client.game(game.id)
        mine = self.user_id
        if (
            fresh.move_count != game.move_count
            or not fresh.is_my_turn(mine)
            or sorted(fresh.me(mine).rack or []) != sorted(game.me(mine).rack or [])
        ):
            self._observe(fresh)
            played = f"{game.move_count} -> {fresh.move_count} moves played"
            return Outcome.CHANGED, f"the game changed ({played}) before submitting"
        decision = self.store.begin_decision(game.id, game.move_count, sent)
        if self.settings.dry_run or self.client.read_only:
            self.store.settle(decision, DecisionStatus.DRY_RUN, detail="--dry-run: not submitted")
            return Outcome.DRY, "dry run: not submitted"
        try:
            server_points = self.client.submit(game.id, sent)
        except IllegalWordError as exc:
            self.store.settle(decision, DecisionStatus.REFUSED, detail=str(exc))
            return Outcome.REFUSED_WORD, exc.message
        except AuthError as exc:
            self.store.settle(decision, DecisionStatus.REFUSED, detail=str(exc))
            raise
        except ApiStatusError as exc:
            self.store.settle(decision, DecisionStatus.REFUSED, detail=str(exc))
            log.warning("game %d: the server refused %s %s: %s", game.id, sent.kind, sent.notation, exc)
            return (Outcome.CHANGED if exc.type in ("not_your_turn", "game_over") else Outcome.REFUSED), exc.type
        except OutcomeUnknownError as exc:
            log.warning("game %d: %s; reading the game again before anything else", game.id, exc)
            after = self.client.game(game.id)  # if this fails too, the decision stays pending
            if self._was_applied(after, game.move_count, sent):
                self.store.settle(decision, DecisionStatus.APPLIED, detail="applied, though its answer was lost")
                if sent.kind is Kind.MOVE:
                    self._learn_own(game, sent)
                self._observe(after)
                return _APPLIED[sent.kind], "the answer was lost; the game shows the move was made"
            self._quarantine(game.id)
            return Outcome.UNKNOWN, "the answer was lost and the game does not show the move yet; checking later"
        self.store.settle(decision, DecisionStatus.APPLIED, server_points=server_points)
        if sent.kind is Kind.MOVE:
            self._learn_own(game, sent)
        if server_points is not None and server_points != sent.points:
            log.warning(
                "game %d: the server scored %s %d, the engine %d", game.id, sent.notation, server_points, sent.points
            )
        return _APPLIED[sent.kind], ""

    def _was_applied(self, game: Game, move_count: int, sent: Submission) -> bool:
        """Whether a submission made at ``move_count`` shows in the game read afterwards."""
        if game.move_count <= move_count:
            return False
        if sent.kind is Kind.MOVE:
            on_board = {(x, y, letter, blank) for x, y, letter, blank in game.tiles or []}
            return all((x, y, letter, blank) in on_board for x, y, letter, blank in sent.tiles)
        last = game.last_move
        resigned = last is not None and last.move_type == "resign" and last.user_id != self.user_id
        return not (resigned and game.move_count == move_count + 1)

    def _refused_words(self, message: str, words: list[str], ruleset: int) -> list[str]:
        """The words to stop playing after ``illegal_word``: the one the server named, else the
        only word of the move; with several words and no name, none (the next candidate is tried)."""
        named = [w for w in words if message and w == message.strip().upper()]
        chosen = named or (words if len(words) == 1 else [])
        for word in chosen:
            self.rejected.add(ruleset, word)
            if self.store.add_rejected(ruleset, word):
                log.warning("ruleset %d: the server refused %s; it will not be played again", ruleset, word)
        return chosen


__all__ = ["Outcome", "TurnPlayer", "TurnReport", "TurnSettings", "situation_of"]
