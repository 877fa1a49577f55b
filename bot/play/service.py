"""One pass of the bot over its account: invites, random games, and every changed game.

``Bot.run_pass`` is what ``wordfeud-bot once`` runs a single time and the daemon runs on every
tick: read ``user/status/``; accept or reject invites by the configured filters; ask for random
opponents to keep the configured number of games going; then play each game whose ``updated``
stamp moved since the last pass (or where it was our turn and the turn is not done). A game whose
read failed waits (growing waits) before it is read again, and a pass reads at most
``schedule.max_games_per_pass`` games (``bot.play.reads``): a status listing thousands of games costs a
bounded number of requests per pass.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.api.client import WordfeudClient
from bot.api.models import Game, Invite, Status
from bot.errors import ApiError, ApiStatusError, BotError, DamagedStateError, LoginRefusedError
from bot.play.reads import ReadSchedule
from bot.play.turn import Outcome, TurnPlayer, TurnReport
from bot.settings.config import InvitesConfig, RandomGamesConfig
from bot.store.store import DecisionStatus, Store
from engine.errors import EngineError

log = logging.getLogger(__name__)

#: The most malformed status entries named in the log in one pass (the others are counted).
SKIPPED_LOGGED = 10


@dataclass
class PassReport:
    """What one pass did: turns played, invites handled, failures (by game)."""

    turns: list[TurnReport] = field(default_factory=list)
    accepted: list[int] = field(default_factory=list)
    rejected: list[int] = field(default_factory=list)
    requested: int = 0
    #: a dry run's writes not sent (invite answers, random requests; its moves are in ``turns``)
    withheld: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    running: int = 0
    status_read: bool = False  # the account's status was read: the server and the login work

    @property
    def acted(self) -> int:
        """Moves, swaps and passes submitted."""
        return sum(1 for t in self.turns if t.outcome in (Outcome.PLAYED, Outcome.SWAPPED, Outcome.PASSED))

    @property
    def unsettled(self) -> int:
        """Submissions whose outcome is still unknown."""
        return sum(1 for t in self.turns if t.outcome == Outcome.UNKNOWN)


class Bot:
    """The account's player: ``client`` talks to the server, ``turns`` plays a game, ``store`` remembers."""

    def __init__(
        self,
        client: WordfeudClient,
        store: Store,
        turns: TurnPlayer,
        *,
        invites: InvitesConfig | None = None,
        random_games: RandomGamesConfig | None = None,
        has_lexicon: Callable[[int], bool] = lambda ruleset: True,
        pass_seconds: float | None = None,
        reads: ReadSchedule | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.store = store
        self.turns = turns
        self.invites = invites or InvitesConfig()
        self.random_games = random_games or RandomGamesConfig()
        self.has_lexicon = has_lexicon
        #: The time one pass may take (the daemon's poll interval): games waiting share it.
        self.pass_seconds = pass_seconds
        #: Which due games a pass reads: failing ones back off, at most so many per pass.
        self.reads = reads or ReadSchedule(clock)
        self._next_random = 0
        self._pending_random: set[int] = set()  # the ids of our random requests the server still lists
        turns.on_new_game = self._new_game
        self._skipped_before: set[str] = set()  # the status entries skipped in the pass before (logged then)

    def take_over(self, old: Bot) -> None:
        """Carry on from ``old`` (the bot of the configuration before a reload): what it holds in memory
        only, the games waiting for a lost answer above all (``TurnPlayer.take_over``)."""
        self.turns.take_over(old.turns)
        self._next_random = old._next_random
        self._skipped_before = set(old._skipped_before)

    def run_pass(self, stop: threading.Event | None = None) -> PassReport:
        """Do everything due now; ``stop`` set by a signal ends the pass after the current game."""
        report = PassReport()
        try:
            status = self.client.status()
        except LoginRefusedError:
            raise  # the login itself is refused: nothing else can work
        except ApiError as exc:
            report.errors.append(f"user/status/: {exc}")
            log.error("cannot read the account's status: %s", exc)
            return report
        report.status_read = True
        self._pending_random = {request.id for request in status.random_requests}
        running_ids = self._handle_games(status, report, stop)
        report.running = len(running_ids)
        if stop is None or not stop.is_set():
            self._handle_invites(status, report)
            self._top_up(status, report)
        return report

    # -- games ------------------------------------------------------------------------------

    def _handle_games(self, status: Status, report: PassReport, stop: threading.Event | None) -> set[int]:
        """Play every changed game; returns the ids of the account's running games.

        One game's failure (a malformed payload, a refused request, even a bug) is logged in one line
        naming the game and skipped: the other games are played. Only a refused login stops the pass."""
        failed: set[int] = set()
        self._log_skipped(status.skipped, report)
        listed = {entry.id for entry in status.games}
        self.reads.forget_all_but(listed)
        due: list[tuple[int, bool]] = []
        for entry in status.games:
            try:
                seen = self.store.seen(entry.id)
                if seen is None or seen[0] != entry.updated or seen[1] or self._open(entry.id):
                    due.append((entry.id, seen is not None))
            except DamagedStateError:
                raise  # the state file is damaged: no game can be played safely, the pass ends
            except BotError as exc:
                report.errors.append(f"game {entry.id}: {exc}")
                log.error("game %d: %s", entry.id, exc)
                failed.add(entry.id)
        chosen = self.reads.choose(due)
        # the games not read now (waiting after a failure, or over the cap) and not known count as running
        failed |= {game_id for game_id, known in due if not known} - set(chosen)
        # the games read share the pass (most of the poll interval), so that each is played within it
        share = None if self.pass_seconds is None or not chosen else max(0.1, 0.8 * self.pass_seconds / len(chosen))
        for game_id in chosen:
            if stop is not None and stop.is_set():
                log.info("stopping: the remaining games wait for the next run")
                break
            try:
                report.turns.append(self.turns.play(game_id, share))
                self.reads.succeeded(game_id)
            except (LoginRefusedError, DamagedStateError):
                raise  # nothing else can work: a refused login, or a state file whose pages are damaged
            except (BotError, EngineError) as exc:
                self._failed(report, game_id, _naming_game(game_id, str(exc)))
                failed.add(game_id)
            except Exception as exc:  # a bug: this game waits, the others are played
                problem = f"game {game_id}: unexpected {type(exc).__name__}: {exc}"
                if self._failed(report, game_id, problem, log_it=False):
                    log.exception("game %d: unexpected %s (a bug; skipped)", game_id, type(exc).__name__)
                failed.add(game_id)
        return (self.store.running_ids() & listed) | failed

    def _log_skipped(self, skipped: list[str], report: PassReport) -> None:
        """Report every malformed status entry; log those not skipped in the pass before, at most
        ``SKIPPED_LOGGED`` of them in one line each and the rest as a count (a status full of broken
        entries costs a few log lines once, not thousands every pass)."""
        report.errors.extend(f"user/status/: {problem}" for problem in skipped)
        new = [problem for problem in skipped if problem not in self._skipped_before]
        self._skipped_before = set(skipped)
        for problem in new[:SKIPPED_LOGGED]:
            log.error("user/status/: skipped %s", problem)
        if len(new) > SKIPPED_LOGGED:
            log.error("user/status/: skipped %d more malformed entries (not listed here)", len(new) - SKIPPED_LOGGED)

    def _failed(self, report: PassReport, game_id: int, problem: str, *, log_it: bool = True) -> bool:
        """Note a game's failure in the report and the read schedule; log it (one line) when it is the
        game's first failure in a row. Returns whether it is worth logging."""
        report.errors.append(problem)
        wait, news = self.reads.failed(game_id)
        if news and log_it:
            log.error("%s", problem)
        log.debug("game %d: next read in %.0f s at the earliest", game_id, wait)
        return news

    def _open(self, game_id: int) -> bool:
        """A decision of this game is pending, or the game waits for a lost answer."""
        return bool(self.store.decisions(game_id, DecisionStatus.PENDING)) or game_id in self.turns.quarantined

    # -- invites and random opponents -------------------------------------------------------

    def _new_game(self, game: Game) -> None:
        """A game the bot sees for the first time: one that a random request of ours started (its ruleset,
        the request no longer pending) is marked so, to play at ``random_games.level``. Games accepted
        from invitations are marked when accepted; any other game (already on the account, or started
        from the app) plays at ``play.level``."""
        if self.store.origin(game.id) is not None:
            return
        if self.store.claim_random_request(game.ruleset, self._pending_random):
            self.store.mark_random(game.id)
            log.info("game %d: started by a random request of the bot (ruleset %d)", game.id, game.ruleset)

    def invite_verdict(self, invite: Invite, running: int) -> str | None:
        """Why an invite is refused (None: accept it); ``"full"`` means wait for a free slot."""
        rules = self.invites
        name = invite.inviter.lower()
        if name in {n.lower() for n in rules.block}:
            return f"{invite.inviter} is blocked"
        if not rules.accept:
            return "invites are switched off (invites.accept = false)"
        if rules.allow and name not in {n.lower() for n in rules.allow}:
            return f"{invite.inviter} is not in invites.allow"
        if invite.ruleset not in rules.rulesets:
            return f"ruleset {invite.ruleset} is not in invites.rulesets"
        board = "random" if invite.is_random_board else "normal"
        if board not in rules.board_types:
            return f"{board} boards are not in invites.board_types"
        if not self.has_lexicon(invite.ruleset):
            return f"no lexicon for ruleset {invite.ruleset} (see: wordfeud-bot dict list)"
        if running >= rules.max_games:
            return "full"
        return None

    def _handle_invites(self, status: Status, report: PassReport) -> None:
        running = report.running
        for invite in status.invites_received:
            verdict = self.invite_verdict(invite, running)
            if self.client.read_only and verdict != "full":
                said = "accept" if verdict is None else f"reject ({verdict})"
                report.withheld.append(f"invite {invite.id}: {said}")
                log.info("dry run: would %s invite %d from %s (not sent)", said, invite.id, invite.inviter)
                running += verdict is None
                continue
            try:
                if verdict is None:
                    game_id = self.client.accept_invite(invite.id)
                    self.store.mark_invited(game_id)
                    report.accepted.append(invite.id)
                    running += 1
                    log.info(
                        "accepted invite %d from %s (ruleset %d): game %d",
                        invite.id,
                        invite.inviter,
                        invite.ruleset,
                        game_id,
                    )
                elif verdict == "full":
                    log.info(
                        "invite %d from %s waits: %d games running (invites.max_games)",
                        invite.id,
                        invite.inviter,
                        running,
                    )
                else:
                    self.client.reject_invite(invite.id)
                    report.rejected.append(invite.id)
                    log.info("rejected invite %d from %s: %s", invite.id, invite.inviter, verdict)
            except ApiError as exc:
                report.errors.append(f"invite {invite.id}: {exc}")
                log.error("invite %d: %s", invite.id, exc)
        report.running = running

    def _top_up(self, status: Status, report: PassReport) -> None:
        want = min(self.random_games.keep, self.invites.max_games)
        have = report.running + len(status.random_requests)
        rulesets = self.random_games.rulesets
        while have < want:
            ruleset = rulesets[self._next_random % len(rulesets)]
            self._next_random += 1
            if self.client.read_only:
                board = self.random_games.board_type
                report.withheld.append(f"random request: ruleset {ruleset}, {board} board")
                log.info("dry run: would ask for a random opponent (ruleset %d, %s board; not sent)", ruleset, board)
                have += 1
                continue
            try:
                answer = self.client.random_request(ruleset, self.random_games.board_type)
            except ApiStatusError as exc:
                log.warning("random opponent request refused: %s", exc)
                return
            except ApiError as exc:
                report.errors.append(f"random_request: {exc}")
                return
            self.store.add_random_request(ruleset, _request_id(answer))
            report.requested += 1
            have += 1
            log.info("asked for a random opponent (ruleset %d, %s board)", ruleset, self.random_games.board_type)


def _request_id(answer: dict[str, object]) -> int | None:
    """The id of the request in a ``random_request/create/`` answer, if it has one."""
    request = answer.get("request")
    found = request.get("id") if isinstance(request, dict) else None
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def _naming_game(game_id: int, problem: str) -> str:
    """The problem as one line that starts by naming the game (most messages already do)."""
    if problem.startswith((f"game {game_id}:", f"game/{game_id}/")):
        return problem
    return f"game {game_id}: {problem}"
