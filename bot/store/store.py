"""The bot's state in SQLite: sessions, what it last saw of each game, every decision it made,
API snapshots to replay games from, words the server refused, and results.

Each change is one transaction, so a crash at any point leaves either the old or the new state.
A decision is written *before* its submission (status ``pending``) and settled afterwards, so a
run that died in between knows to re-read the game instead of playing again. The file holds a
session id (a credential): it is created readable by its owner only, and refused if others can
read it. ``lock()`` keeps two runs (cron and a daemon, say) from acting at the same time.

This module holds what is kept and how it is read (the queries, and the values they return); the
file itself (its permissions, identity, schema and migration, transactions and lock) is
``bot.store.state_file``'s, and the records of playing people are ``bot.store.people_store``'s.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from bot.api.models import Game
from bot.api.submission import Submission
from bot.store.learned import LearnedWords
from bot.store.people_store import PeopleRecords
from bot.store.rejections import RejectedWords
from bot.store.state_file import APPLICATION_ID, SCHEMA_VERSION, StateFile

#: Snapshots kept of one game at most: two per move count at most, and a game has far fewer moves (100 tiles
#: and at most 6 scoreless turns in a row). A server that raises the move count forever fills no disk.
MAX_SNAPSHOTS_PER_GAME = 1000
#: Games the bot only read (no decision of its own, not an invitation it accepted or a random game it asked
#: for, no chat of its own) remembered at most: the oldest first seen are forgotten beyond it, so that a server
#: listing new games every poll fills no disk (``store.max_unplayed_games``).
MAX_UNPLAYED_GAMES = 1000
#: The rows of the games the bot only read, oldest first seen first (the cap's query).
_UNPLAYED = """SELECT game_id FROM games AS g
    WHERE NOT EXISTS (SELECT 1 FROM decisions AS d WHERE d.game_id = g.game_id)
    AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'origin:' || g.game_id)
    AND NOT EXISTS (SELECT 1 FROM meta WHERE key >= 'chat:' || g.game_id || ':' AND key < 'chat:' || g.game_id || ';')
    ORDER BY first_seen DESC, game_id DESC LIMIT -1 OFFSET ?"""
#: The ``meta`` keys of one game the bot only read (``bot.store.people_store``).
_GAME_META = ("level", "chatread")
#: Fields of a game object that change without the game changing.
_NOT_CONTENT = frozenset({"updated", "chat_count", "read_chat_count"})

log = logging.getLogger(__name__)


class DecisionStatus(StrEnum):
    """A decision's status: written ``pending`` before submitting, then settled (the stored text is the value)."""

    PENDING = "pending"
    APPLIED = "applied"
    REFUSED = "refused"
    NOT_APPLIED = "not_applied"
    DRY_RUN = "dry_run"


@dataclass(frozen=True)
class Decision:
    """One thing the bot decided to do in a game, and what came of it."""

    id: int
    game_id: int
    move_count: int
    kind: str  # move | swap | pass
    notation: str
    payload: dict[str, Any]
    points: int  # what the engine computed
    status: DecisionStatus
    server_points: int | None
    detail: str

    @property
    def submission(self) -> Submission:
        """What was (or was to be) sent, as the turn logic and the client take it."""
        return Submission.from_record(self.kind, self.notation, self.points, self.payload)


#: Who played an accepted word: the opponent (seen in a game read) or the bot (its own accepted move).
OPPONENT, OWN = "opponent", "own"


@dataclass(frozen=True)
class Accepted:
    """A word the server accepted in a ruleset: the first game it was seen in, who played it, when."""

    ruleset: int
    word: str
    game_id: int
    source: str  # OPPONENT | OWN
    seen: float
    new: bool  # the bot's lexicon lacked it (or had refused it) when it was learned


@dataclass(frozen=True)
class Stats:
    """Results over every game the bot has recorded."""

    games: int
    running: int
    wins: int
    losses: int
    draws: int
    average_score: float
    average_opponent_score: float


@dataclass(frozen=True)
class GameRow:
    """What the store knows of one game (for listings and the record): scores are the latest seen."""

    game_id: int
    ruleset: int
    opponent: str
    first_seen: float
    updated: float
    move_count: int
    running: bool
    my_turn: bool
    my_score: int
    their_score: int

    @property
    def result(self) -> str:
        """``running``, ``won``, ``lost`` or ``drawn``."""
        if self.running:
            return "running"
        return "won" if self.my_score > self.their_score else "lost" if self.my_score < self.their_score else "drawn"


class Store(StateFile, PeopleRecords):
    """The state database at ``path`` (``":memory:"`` for tests); ``clock`` stamps the records. Opening,
    closing, the lock and the transactions are ``StateFile``'s."""

    def __init__(
        self,
        path: Path | str,
        clock: Callable[[], float] = time.time,
        *,
        read_only: bool = False,
        max_unplayed_games: int = MAX_UNPLAYED_GAMES,
    ) -> None:
        self.clock = clock
        self.max_unplayed_games = max_unplayed_games
        self._full: set[int] = set()  # games whose snapshot limit was reached (logged once)
        self._forgot_reported = False  # the cap on unplayed games is logged once a run
        super().__init__(path, read_only=read_only)

    # -- sessions ---------------------------------------------------------------------------

    def session(self, account: str) -> tuple[str, int] | None:
        """The saved (session id, user id) of an account, if any."""
        row = self._db.execute("SELECT session_id, user_id FROM sessions WHERE account = ?", (account,)).fetchone()
        return (str(row[0]), int(row[1])) if row else None

    def save_session(self, account: str, session_id: str, user_id: int) -> None:
        """Remember a session so the next run need not log in."""
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?)", (account, session_id, user_id, self.clock())
            )

    # -- games ------------------------------------------------------------------------------

    def seen(self, game_id: int) -> tuple[float, bool] | None:
        """The ``updated`` stamp the bot last saw of a game, and whether it was our turn then."""
        row = self._db.execute("SELECT updated, my_turn FROM games WHERE game_id = ?", (game_id,)).fetchone()
        return (float(row[0]), bool(row[1])) if row else None

    def record_game(self, game: Game, user_id: int) -> None:
        """Store what the bot saw of a game: the version, scores, and a snapshot for replay when it has
        tiles and its content changed (see ``_snapshot``)."""
        me = game.me(user_id)
        other = game.opponent(user_id)
        now = self.clock()
        with self._transaction():
            new = self._db.execute("SELECT 1 FROM games WHERE game_id = ?", (game.id,)).fetchone() is None
            self._db.execute(
                """INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (game_id) DO UPDATE SET updated = excluded.updated, move_count = excluded.move_count,
                   running = excluded.running, my_score = excluded.my_score, their_score = excluded.their_score,
                   my_turn = excluded.my_turn""",
                (
                    game.id,
                    game.ruleset,
                    other.username,
                    game.updated,
                    game.move_count,
                    int(game.is_running),
                    me.score,
                    other.score,
                    now,
                    int(game.is_my_turn(user_id)),
                ),
            )
            if game.tiles is not None:
                self._snapshot(game, now)
            if new:
                self._forget_unplayed()

    def _forget_unplayed(self) -> None:
        """Forget, in the open transaction, the games the bot only read beyond ``max_unplayed_games``, the
        oldest first seen first: their row, snapshots, notes and waits (a game the server lists again is read
        again as a new one). The words learned in them stay: they are the server's word, whatever the game."""
        gone = [int(row[0]) for row in self._db.execute(_UNPLAYED, (self.max_unplayed_games,)).fetchall()]
        if not gone:
            return
        rows = [(game_id,) for game_id in gone]
        for table in ("games", "snapshots", "thinking", "read_failures", "chat"):
            self._db.executemany(f"DELETE FROM {table} WHERE game_id = ?", rows)
        self._db.executemany("DELETE FROM meta WHERE key = ?", [(f"{k}:{g}",) for g in gone for k in _GAME_META])
        self._full.difference_update(gone)
        log.log(
            logging.DEBUG if self._forgot_reported else logging.WARNING,
            "more than %d games the bot has not played are recorded (store.max_unplayed_games): the oldest are "
            "forgotten (this is logged once a run)",
            self.max_unplayed_games,
        )
        self._forgot_reported = True

    def _snapshot(self, game: Game, now: float) -> None:
        """Keep a snapshot of the game, in the open transaction, when its content changed.

        A new ``updated`` stamp (or chat count) alone is no change. A move count keeps its first snapshot
        (what replays show) and its latest: a third change at the same move count replaces the latest.
        So a game has at most two snapshots per move count, and never more than ``MAX_SNAPSHOTS_PER_GAME``."""
        last = self._db.execute(
            "SELECT id, move_count, game FROM snapshots WHERE game_id = ? ORDER BY id DESC LIMIT 1", (game.id,)
        ).fetchone()
        text = game.model_dump_json()
        if last is not None and _content(json.loads(last[2])) == _content(json.loads(text)):
            return
        if last is not None and int(last[1]) == game.move_count:
            (same,) = self._db.execute(
                "SELECT COUNT(*) FROM snapshots WHERE game_id = ? AND move_count = ?", (game.id, game.move_count)
            ).fetchone()
            if same >= 2:
                self._db.execute("UPDATE snapshots SET taken = ?, game = ? WHERE id = ?", (now, text, last[0]))
                return
        (count,) = self._db.execute("SELECT COUNT(*) FROM snapshots WHERE game_id = ?", (game.id,)).fetchone()
        if count >= MAX_SNAPSHOTS_PER_GAME:
            if game.id not in self._full:
                self._full.add(game.id)
                log.warning(
                    "game %d: %d snapshots kept, the most for one game; later positions are not kept for replay",
                    game.id,
                    count,
                )
            return
        self._db.execute(
            "INSERT INTO snapshots (game_id, move_count, taken, game) VALUES (?, ?, ?, ?)",
            (game.id, game.move_count, now, text),
        )

    def snapshot_at(self, game_id: int, move_count: int) -> dict[str, Any] | None:
        """The last recorded API game object of a game at this move count, if any."""
        row = self._db.execute(
            "SELECT game FROM snapshots WHERE game_id = ? AND move_count = ? ORDER BY id DESC LIMIT 1",
            (game_id, move_count),
        ).fetchone()
        return json.loads(row[0]) if row else None

    def snapshots(self, game_id: int) -> list[dict[str, Any]]:
        """The recorded API game objects of a game, oldest first."""
        rows = self._db.execute("SELECT game FROM snapshots WHERE game_id = ? ORDER BY id", (game_id,)).fetchall()
        return [json.loads(row[0]) for row in rows]

    def was_running(self, game_id: int) -> bool | None:
        """Whether the bot last saw the game running (None: it has never seen the game)."""
        row = self._db.execute("SELECT running FROM games WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else bool(row[0])

    def running_ids(self) -> set[int]:
        """The recorded games that are still running."""
        return {int(row[0]) for row in self._db.execute("SELECT game_id FROM games WHERE running = 1")}

    def game_ids(self) -> list[int]:
        """Every game the bot has recorded, newest first."""
        rows = self._db.execute("SELECT game_id FROM games ORDER BY first_seen DESC, game_id DESC").fetchall()
        return [int(row[0]) for row in rows]

    def games(self) -> list[GameRow]:
        """Every recorded game, newest first (as ``game_ids``)."""
        rows = self._db.execute(
            """SELECT game_id, ruleset, opponent, first_seen, updated, move_count, running, my_turn, my_score,
               their_score FROM games ORDER BY first_seen DESC, game_id DESC"""
        ).fetchall()
        return [
            GameRow(int(r[0]), int(r[1]), str(r[2]), float(r[3]), float(r[4]), int(r[5]), bool(r[6]), bool(r[7]),
                    int(r[8]), int(r[9]))
            for r in rows
        ]  # fmt: skip

    def board(self, board_id: int) -> list[list[int]] | None:
        """A saved premium grid (random boards), so replays need no server."""
        row = self._db.execute("SELECT grid FROM boards WHERE board_id = ?", (board_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def save_board(self, board_id: int, grid: list[list[int]]) -> None:
        """Keep a premium grid by id (boards never change)."""
        with self._transaction():
            self._db.execute("INSERT OR IGNORE INTO boards VALUES (?, ?)", (board_id, json.dumps(grid)))

    def board_grid(self, board_id: int, fetch: Callable[[int], list[list[int]]]) -> list[list[int]]:
        """The one board cache: a saved grid, else ``fetch(board_id)`` (the client's ``board``) kept for good."""
        grid = self.board(board_id)
        if grid is None:
            grid = fetch(board_id)
            self.save_board(board_id, grid)
        return grid

    # -- decisions --------------------------------------------------------------------------

    def begin_decision(self, game_id: int, move_count: int, submission: Submission) -> int:
        """Write a decision as ``pending`` before it is submitted; returns its id."""
        s, pending = submission, DecisionStatus.PENDING
        row = (game_id, move_count, s.kind, s.notation, json.dumps(s.body()), s.points, pending, self.clock())
        with self._transaction():
            cursor = self._db.execute(
                """INSERT INTO decisions (game_id, move_count, kind, notation, payload, points, status, at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                row,
            )
        return int(cursor.lastrowid or 0)

    def settle(
        self, decision_id: int, status: DecisionStatus, *, server_points: int | None = None, detail: str = ""
    ) -> None:
        """Record what came of a decision."""
        with self._transaction():
            self._db.execute(
                "UPDATE decisions SET status = ?, server_points = ?, detail = ? WHERE id = ?",
                (status, server_points, detail, decision_id),
            )

    def decisions(self, game_id: int | None = None, status: DecisionStatus | None = None) -> list[Decision]:
        """Decisions, oldest first, optionally of one game and/or one status."""
        query = "SELECT * FROM decisions WHERE (? IS NULL OR game_id = ?) AND (? IS NULL OR status = ?) ORDER BY id"
        rows = self._db.execute(query, (game_id, game_id, status, status)).fetchall()
        return [_decision(r) for r in rows]

    def recent_decisions(self, limit: int) -> list[tuple[Decision, float]]:
        """The latest ``limit`` decisions of all games, newest first, each with when it was made."""
        rows = self._db.execute("SELECT * FROM decisions ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [(_decision(r), float(r[10])) for r in rows]

    # -- refused words ----------------------------------------------------------------------

    def add_rejected(self, ruleset: int, word: str) -> bool:
        """Remember a word the server refused; False if it was known, or once accepted (that is proof)."""
        with self._transaction():
            text = word.upper()
            if self._db.execute("SELECT 1 FROM accepted WHERE ruleset = ? AND word = ?", (ruleset, text)).fetchone():
                return False
            cursor = self._db.execute("INSERT OR IGNORE INTO rejected VALUES (?, ?)", (ruleset, text))
        return cursor.rowcount > 0

    # -- accepted words ---------------------------------------------------------------------

    def add_accepted(self, ruleset: int, word: str, game_id: int, source: str, *, new: bool) -> bool:
        """Remember a word the server accepted (and forget any refusal of it); False if it was known.

        ``new``: the bot's lexicon lacked the word, so it was learned (the others are kept as proof)."""
        text = word.upper()
        with self._transaction():
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO accepted VALUES (?, ?, ?, ?, ?, ?)",
                (ruleset, text, game_id, source, self.clock(), int(new)),
            )
            self._db.execute("DELETE FROM rejected WHERE ruleset = ? AND word = ?", (ruleset, text))
        return cursor.rowcount > 0

    def has_accepted(self, ruleset: int, word: str) -> bool:
        """Whether the server is known to have accepted the word in the ruleset."""
        row = self._db.execute("SELECT 1 FROM accepted WHERE ruleset = ? AND word = ?", (ruleset, word.upper()))
        return row.fetchone() is not None

    def accepted(self, ruleset: int | None = None, *, new_only: bool = False) -> list[Accepted]:
        """The accepted words (of one ruleset, or all; only the learned ones with ``new_only``), by
        ruleset, then in the order they were seen."""
        rows = self._db.execute(
            "SELECT ruleset, word, game_id, source, seen, new FROM accepted WHERE (? IS NULL OR ruleset = ?) "
            "AND (new = 1 OR ? = 0) ORDER BY ruleset, seen, word",
            (ruleset, ruleset, int(new_only)),
        ).fetchall()
        return [Accepted(int(r[0]), str(r[1]), int(r[2]), str(r[3]), float(r[4]), bool(r[5])) for r in rows]

    def learned_count(self, *, game_id: int | None = None, since: float | None = None) -> int:
        """How many words were learned (accepted, and lacking from the lexicon then): in one game, or
        since a time, or in all. A count by index, without reading the words."""
        values: tuple[float, ...]
        if game_id is not None:
            query, values = "SELECT COUNT(*) FROM accepted WHERE game_id = ? AND new = 1", (game_id,)
        elif since is not None:
            query, values = "SELECT COUNT(*) FROM accepted WHERE new = 1 AND seen >= ?", (since,)
        else:
            query, values = "SELECT COUNT(*) FROM accepted WHERE new = 1", ()
        return int(self._db.execute(query, values).fetchone()[0])

    def newest_learned(self, limit: int) -> dict[int, tuple[int, list[str]]]:
        """Per ruleset: how many words were learned, and the newest ``limit`` of them (newest first);
        two indexed queries per ruleset, whatever the number of words."""
        counts = self._db.execute("SELECT ruleset, COUNT(*) FROM accepted WHERE new = 1 GROUP BY ruleset").fetchall()
        result: dict[int, tuple[int, list[str]]] = {}
        for ruleset, count in counts:
            rows = self._db.execute(
                "SELECT word FROM accepted WHERE ruleset = ? AND new = 1 ORDER BY seen DESC, word DESC LIMIT ?",
                (ruleset, limit),
            ).fetchall()
            result[int(ruleset)] = (int(count), [str(row[0]) for row in rows])
        return result

    def learned(self) -> LearnedWords:
        """Refused and accepted words, per ruleset: what the bot's lexicons are corrected with."""
        accepted: dict[int, list[str]] = {}
        for entry in self.accepted():
            accepted.setdefault(entry.ruleset, []).append(entry.word)
        refused: dict[int, list[str]] = {}
        for ruleset, word in self._db.execute("SELECT ruleset, word FROM rejected ORDER BY ruleset, word"):
            refused.setdefault(int(ruleset), []).append(str(word))
        return LearnedWords(refused, accepted)

    def rejected(self) -> RejectedWords:
        """All refused words, per ruleset."""
        words: dict[int, list[str]] = {}
        for ruleset, word in self._db.execute("SELECT ruleset, word FROM rejected ORDER BY ruleset, word"):
            words.setdefault(int(ruleset), []).append(str(word))
        return RejectedWords(words)

    # -- games whose reads fail ----------------------------------------------------------------

    def read_failures(self) -> dict[int, tuple[int, float]]:
        """Games whose reads failed: game id -> (failures in a row, clock time of the next try)."""
        rows = self._db.execute("SELECT game_id, failures, retry_at FROM read_failures").fetchall()
        return {int(r[0]): (int(r[1]), float(r[2])) for r in rows}

    def save_read_failure(self, game_id: int, failures: int, retry_at: float) -> None:
        """Remember that a game's read failed ``failures`` times in a row, and when to try it again."""
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO read_failures VALUES (?, ?, ?)", (game_id, failures, retry_at))

    def forget_read_failures(self, game_ids: list[int]) -> None:
        """Forget these games' failures (read since, or no longer listed)."""
        if game_ids:
            with self._transaction():
                self._db.executemany("DELETE FROM read_failures WHERE game_id = ?", [(g,) for g in game_ids])

    # -- statistics -------------------------------------------------------------------------

    def stats(self) -> Stats:
        """Games, wins, losses, draws and average scores over finished games."""
        rows = self._db.execute("SELECT running, my_score, their_score FROM games").fetchall()
        finished = [(int(m), int(t)) for running, m, t in rows if not running]
        count = len(finished) or 1
        return Stats(
            games=len(rows),
            running=len(rows) - len(finished),
            wins=sum(1 for m, t in finished if m > t),
            losses=sum(1 for m, t in finished if m < t),
            draws=sum(1 for m, t in finished if m == t),
            average_score=sum(m for m, _ in finished) / count,
            average_opponent_score=sum(t for _, t in finished) / count,
        )


def _content(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without what changes with no change of the game: its stamp and its chat counts."""
    return {key: value for key, value in snapshot.items() if key not in _NOT_CONTENT}


def _decision(row: Any) -> Decision:
    """A ``decisions`` row (every column, in table order, ``at`` last) as a Decision."""
    r = row
    status = DecisionStatus(r[7])
    return Decision(int(r[0]), int(r[1]), int(r[2]), r[3], r[4], json.loads(r[5]), int(r[6]), status, r[8], r[9])


__all__ = [  # the state file's identity is re-exported: callers and tests read it here
    "APPLICATION_ID",
    "MAX_SNAPSHOTS_PER_GAME",
    "MAX_UNPLAYED_GAMES",
    "OPPONENT",
    "OWN",
    "SCHEMA_VERSION",
    "Accepted",
    "Decision",
    "DecisionStatus",
    "GameRow",
    "Stats",
    "Store",
]
