"""Which of the games due are read in a pass: failing games back off, and a pass reads a bounded number.

A game whose read (or play) failed waits before it is tried again: ``first_wait`` seconds after the
first failure, twice as long after each further one in a row, never more than ``longest_wait``; a
success forgets the failures. Of the games due and not waiting, at most ``per_pass`` are read in one
pass: the games the bot knows (has read before) first, then unknown ones; within each, the games
that failed fewer times in a row first, then the least recently read (never read before any read
one). So the games left over are the first of the next pass, no flood of unknown games can keep a
known game from its turn, and failing games cannot crowd out the others. What is kept is in
memory, one entry per game the account's status lists (games no longer listed are forgotten); with a
``store`` the failures are kept in the state file too, so that runs of ``once`` (cron) back off as well
(the clock is then wall time: ``Store.clock``).

Logging is bounded too: a game's failure is logged when it first fails, not at its retries (until a
read of it succeeds, or it leaves the status); the pass cap is logged (a warning) the first time it
leaves games for the next pass, and later only at DEBUG level.

>>> clock = iter([0.0, 0.0, 10.0, 61.0]).__next__
>>> reads = ReadSchedule(clock, per_pass=2)
>>> reads.choose([(5, True), (6, True), (7, False)])
[5, 6]
>>> reads.failed(5)
(60.0, True)
>>> reads.choose([(5, True), (6, True), (7, False)])  # 5 waits until 60 s
[6, 7]
>>> reads.choose([(5, True), (6, True), (7, False)])  # 5 may be tried again, after 6 (never failed)
[6, 5]
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.store.store import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Failure:
    count: int  # failures in a row
    retry_at: float  # clock time of the next try


class ReadSchedule:
    """Chooses the games a pass reads (``choose``) and remembers failures (``failed``, ``succeeded``)."""

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        per_pass: int = 50,
        first_wait: float = 60.0,
        longest_wait: float = 3600.0,
        store: Store | None = None,
    ) -> None:
        if per_pass < 1:
            raise ValueError(f"per_pass must be at least 1, got {per_pass}")
        self.clock = clock
        self.per_pass = per_pass
        self.first_wait = first_wait
        self.longest_wait = longest_wait
        self.store = store
        saved = store.read_failures() if store is not None else {}
        self._failures: dict[int, _Failure] = {game_id: _Failure(*entry) for game_id, entry in saved.items()}
        self._last_read: dict[int, float] = {}
        self._cap_reported = False  # the cap's warning is logged once

    def choose(self, due: Sequence[tuple[int, bool]]) -> list[int]:
        """The games to read now, of ``due`` (game id, whether the bot knows the game), in order."""
        now = self.clock()
        ready = [(game_id, known) for game_id, known in due if not self._waiting(game_id, now)]
        ready.sort(key=lambda e: (not e[1], self._failed_times(e[0]), self._last_read.get(e[0], -math.inf)))
        chosen = [game_id for game_id, _ in ready[: self.per_pass]]
        if len(ready) > len(chosen):
            log.log(
                logging.DEBUG if self._cap_reported else logging.WARNING,
                "%d games are due and at most %d are read in a pass (schedule.max_games_per_pass): the rest "
                "are read in the next passes (this is logged once)",
                len(ready),
                self.per_pass,
            )
            self._cap_reported = True
        for game_id in chosen:
            self._last_read[game_id] = now
        return chosen

    def failed(self, game_id: int) -> tuple[float, bool]:
        """Note a failed read of a game: returns the wait before its next try, and whether it is the
        game's first failure in a row (the one worth logging)."""
        before = self._failures.get(game_id)
        count = 1 if before is None else before.count + 1
        wait = min(self.longest_wait, self.first_wait * 2 ** min(count - 1, 32))
        self._failures[game_id] = failure = _Failure(count, self.clock() + wait)
        if self.store is not None:
            self.store.save_read_failure(game_id, failure.count, failure.retry_at)
        return wait, before is None

    def succeeded(self, game_id: int) -> None:
        """A game was read: forget its failures."""
        if self._failures.pop(game_id, None) is not None and self.store is not None:
            self.store.forget_read_failures([game_id])

    def forget_all_but(self, listed: set[int]) -> None:
        """Forget the games the account's status no longer lists (what is kept stays bounded)."""
        self._last_read = {g: at for g, at in self._last_read.items() if g in listed}
        gone = [g for g in self._failures if g not in listed]
        for game_id in gone:
            del self._failures[game_id]
        if gone and self.store is not None:
            self.store.forget_read_failures(gone)

    def waiting(self) -> set[int]:
        """The games that wait after a failure (now)."""
        now = self.clock()
        return {game_id for game_id in self._failures if self._waiting(game_id, now)}

    def _failed_times(self, game_id: int) -> int:
        failure = self._failures.get(game_id)
        return 0 if failure is None else failure.count

    def _waiting(self, game_id: int, now: float) -> bool:
        failure = self._failures.get(game_id)
        return failure is not None and now < failure.retry_at


__all__ = ["ReadSchedule"]
