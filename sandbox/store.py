"""SQLite state for the sandbox, so that games survive a restart.

The whole state is written after every request that changed it, in one transaction. A game is
stored as its seed, board and actions, and rebuilt by replaying them: an engine game is fully
determined by its seed and what the players did. The game actions clients sent (``State.submissions``)
go to an append-only table in the same transaction, so duplicates can be counted after a crash or
restart, by ``submission_report`` without a server.
"""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from collections import Counter
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

from bot.store.state_file import APPLICATION_ID, STATE_MARKER
from engine.board.move import Direction, Pass, Placement, Swap
from engine.game import Game, Resign
from engine.rules.layout import BoardLayout
from engine.rules.ruleset import Ruleset
from sandbox.state import Invite, RandomRequest, SandboxGame, State, Submission, User, duplicates

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS submissions (seq INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, "
    "user_id INTEGER NOT NULL, turn INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL, outcome TEXT NOT NULL)",
)
_SUBMISSION_COLUMNS = "game_id, user_id, turn, kind, body, outcome"
log = logging.getLogger(__name__)


class StoreFileError(ValueError):
    """The sandbox's file cannot be opened or used (a directory, a missing directory, not SQLite);
    the message names the file and why."""


def _unopenable(path: Path) -> str | None:
    """Why SQLite could not open ``path`` (it says only "unable to open database file"), or None."""
    if path.is_dir():
        return "it is a directory"
    blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        return f"{blocking} is not a directory"
    if not path.parent.is_dir():
        return f"there is no directory {path.parent}"
    return None


_BOT_STATE = (
    "{path}: it is the bot's state file (wordfeud-bot's), not a sandbox's; it was left as it was. Give the "
    "sandbox a file of its own"
)


def _is_bot_state(db: sqlite3.Connection) -> bool:
    """Whether an open SQLite file is a wordfeud-bot state file (its application id, or the marker of the
    files made before the id was set), which the sandbox must never write its tables into."""
    (application_id,) = db.execute("PRAGMA application_id").fetchone()
    if application_id == APPLICATION_ID:
        return True
    try:
        marker = db.execute("SELECT value FROM meta WHERE key = 'marker'").fetchone()
    except sqlite3.OperationalError:  # no ``meta`` table, or one of another shape
        return False
    return marker is not None and marker[0] == STATE_MARKER


class Store:
    """One SQLite file holding a sandbox's users, games, invites, requests, notifications and submissions."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        problem = _unopenable(self.path)
        if problem is not None:
            raise StoreFileError(f"{self.path}: cannot open the sandbox's file: {problem}")
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False)
            if _is_bot_state(self.db):
                self.db.close()
                raise StoreFileError(_BOT_STATE.format(path=self.path))
            with self.db:
                for statement in _SCHEMA:
                    self.db.execute(statement)
        except sqlite3.DatabaseError as exc:  # unreadable, not SQLite, or another program's tables
            raise StoreFileError(f"{self.path}: cannot use it as the sandbox's file: {exc}") from None
        self._saved = ""  # the last document written: reads (often POSTed) need no write
        # How many of the state's submissions the table holds; None until loaded or saved once (a
        # state that was not loaded from this file replaces the submissions it holds).
        self._stored: int | None = None

    def close(self) -> None:
        self.db.close()

    def save(self, state: State) -> None:
        """Write the whole state in one transaction (a crash leaves the previous state), unless it
        is what was written last."""
        data = {
            "users": [[u.id, u.username, u.email, u.password_hash] for u in state.users.values()],
            "house": sorted(state.house),
            "sessions": {sid: list(v) for sid, v in state.sessions.items()},
            "games": [_game_data(g) for g in state.games.values()],
            "boards": {str(k): v.to_api_grid() for k, v in state.boards.items()},
            "invites": [list(vars(i).values()) for i in state.invites.values()],
            "requests": [list(vars(r).values()) for r in state.random_requests.values()],
            "notifications": {str(k): v for k, v in state.notifications.items()},
            "counters": state.counters(),
            "rng": _rng_state(state.rng),
        }
        document = json.dumps(data)
        first = self._stored or 0
        unstorable = [sub for sub in state.submissions[first:] if not _storable(sub)]
        if unstorable:  # never written, never retried: so one bad row cannot fail every later save
            log.error("sandbox store: %d submission(s) with a number SQLite cannot hold are not kept", len(unstorable))
            state.submissions[first:] = [sub for sub in state.submissions[first:] if _storable(sub)]
        new = state.submissions[first:]
        if document == self._saved and not new:
            return
        with self.db:
            if self._stored is None:
                self.db.execute("DELETE FROM submissions")
            if document != self._saved:
                self.db.execute("INSERT OR REPLACE INTO kv VALUES ('state', ?)", (document,))
            self.db.executemany(
                f"INSERT INTO submissions (seq, {_SUBMISSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(first + i, *astuple(sub)) for i, sub in enumerate(new)],
            )
        self._saved = document
        self._stored = len(state.submissions)

    def load_into(self, state: State) -> bool:
        """Fill an empty state from the file; False if the file holds none yet."""
        row = self.db.execute("SELECT value FROM kv WHERE key = 'state'").fetchone()
        if row is None:
            return False
        data: dict[str, Any] = json.loads(row[0])
        for user_id, username, email, password in data["users"]:
            state.users[user_id] = User(user_id, username, email, password)
        state.house = set(data["house"])
        state.sessions = {sid: (v[0], v[1]) for sid, v in data["sessions"].items()}
        state.boards = {int(k): BoardLayout.from_api_grid(v) for k, v in data["boards"].items()}
        for item in data["games"]:
            state.games[item["id"]] = _rebuild(state, item)
        state.invites = {i[0]: Invite(*i) for i in data["invites"]}
        state.random_requests = {r[0]: RandomRequest(*r) for r in data["requests"]}
        state.notifications = {int(k): v for k, v in data["notifications"].items()}
        state.restore_counters(data["counters"])
        state.rng.setstate(_rng_from(data["rng"]))
        rows = self.db.execute(f"SELECT {_SUBMISSION_COLUMNS} FROM submissions ORDER BY seq").fetchall()
        state.submissions = [Submission(*row) for row in rows]
        self._stored = len(rows)
        return True


def _storable(submission: Submission) -> bool:
    """Whether SQLite can hold the submission's numbers (64-bit signed integers)."""
    return all(-(2**63) <= value < 2**63 for value in (submission.game_id, submission.user_id, submission.turn))


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from(data: list[Any]) -> tuple[Any, ...]:
    return (data[0], tuple(data[1]), data[2])


def _game_data(sgame: SandboxGame) -> dict[str, Any]:
    actions: list[list[Any]] = []
    for turn in sgame.game.history:
        action = turn.action
        if isinstance(action, Placement):
            actions.append(["place", [list(t) for t in action.tiles], int(action.direction)])
        elif isinstance(action, Swap):
            actions.append(["swap", list(action.tiles)])
        elif isinstance(action, Pass):
            actions.append(["pass"])
        elif isinstance(action, Resign):
            actions.append(["resign", turn.player])
    game = sgame.game
    return {
        "id": sgame.id,
        "players": list(sgame.players),
        "ruleset": game.rules.id,
        "board_id": sgame.board_id,
        "seed": sgame.seed,
        "swap_counts": game.swap_counts_as_scoreless,
        "created": sgame.created,
        "updated": sgame.updated,
        "chat": sgame.chat,
        "actions": actions,
        "over": game.is_over,  # for submission_report, which rebuilds no game
    }


def _rebuild(state: State, item: dict[str, Any]) -> SandboxGame:
    rules = Ruleset.for_id(item["ruleset"])
    if item["board_id"]:
        rules = rules.with_layout(state.boards[item["board_id"]])
    game = Game(
        rules,
        state.lexicons(item["ruleset"]),
        random.Random(item["seed"]),
        swap_counts_as_scoreless=item["swap_counts"],
    )
    for action in item["actions"]:
        kind = action[0]
        if kind == "place":
            game.place(Placement(tuple(tuple(t) for t in action[1]), Direction(action[2])))
        elif kind == "swap":
            game.swap(action[1])
        elif kind == "pass":
            game.pass_turn()
        else:
            game.resign(action[1])
    players = (item["players"][0], item["players"][1])
    return SandboxGame(
        item["id"], players, game, item["board_id"], item["created"], item["updated"], item["seed"], item["chat"]
    )


@dataclass(frozen=True)
class SubmissionReport:
    """What a sandbox file says about its games and the game actions clients sent."""

    path: Path
    games: int
    running: list[int]  # ids of the games not over
    submissions: int
    outcomes: dict[str, int]  # submissions by outcome: "success" or the error type
    duplicates: list[Submission]

    def lines(self) -> list[str]:
        """The report as printed by ``python -m sandbox --db FILE --check``."""
        outcomes = ", ".join(f"{kind} {count}" for kind, count in sorted(self.outcomes.items()))
        running = f"; running: {', '.join(map(str, self.running))}" if self.running else ""
        lines = [
            f"sandbox file {self.path}",
            f"games: {self.games}, finished {self.games - len(self.running)}{running}",
            f"submissions: {self.submissions}" + (f" ({outcomes})" if outcomes else ""),
            f"duplicate submissions: {len(self.duplicates)}",
        ]
        lines += [
            f"  game {d.game_id} user {d.user_id} turn {d.turn}: {d.kind} {d.body} -> {d.outcome}"
            for d in self.duplicates[:20]
        ]
        if len(self.duplicates) > 20:
            lines.append(f"  ... and {len(self.duplicates) - 20} more")
        return lines


def submission_report(path: str | Path) -> SubmissionReport:
    """Games and submissions of a sandbox file, read without a server or lexicons, while a sandbox may
    be writing it. Raises FileNotFoundError or ValueError naming the file."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no sandbox file {path}")
    # Not read-only: after a sandbox was killed mid-write, reading first rolls its transaction back.
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)
    try:
        if _is_bot_state(db):
            raise ValueError(_BOT_STATE.format(path=path))
        row = db.execute("SELECT value FROM kv WHERE key = 'state'").fetchone()
        rows = db.execute(f"SELECT {_SUBMISSION_COLUMNS} FROM submissions ORDER BY seq").fetchall()
    except sqlite3.DatabaseError as exc:
        raise ValueError(f"{path} is not a sandbox file: {exc}") from None
    finally:
        db.close()
    if row is None:
        raise ValueError(f"{path} holds no sandbox state yet")
    games = json.loads(row[0])["games"]
    submissions = [Submission(*r) for r in rows]
    return SubmissionReport(
        path,
        len(games),
        [g["id"] for g in games if not g.get("over")],
        len(submissions),
        dict(Counter(s.outcome for s in submissions)),
        duplicates(submissions),
    )
