"""The state kept for playing people: what each decision weighed (for the status page), the chat
events said and the opponent's messages, how each game came (an invitation, the bot's random request), the
random requests whose games have not appeared yet, and the strength level each game plays at and why.
A part of ``bot.store.store.Store``, which owns the database connection and its transactions."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

#: The opponent's chat messages kept per game (the newest).
CHAT_KEPT = 20
#: The bot's requests for random opponents remembered until their games appear (the newest).
RANDOM_REQUESTS_KEPT = 100


class PeopleRecords:
    """The methods; ``_db``, ``_transaction`` and ``clock`` are the store's."""

    _db: sqlite3.Connection
    clock: Callable[[], float]

    def _transaction(self) -> AbstractContextManager[None]:  # pragma: no cover - the store's
        raise NotImplementedError

    def save_thinking(self, game_id: int, facts: dict[str, Any], move_count: int | None = None) -> None:
        """Keep what the last decision of a game weighed (one row a game, replaced by the next decision)
        and, with ``move_count`` (the moves made before the decision), what the decision at that move
        weighed, for the replay (``weighed``; the latest decision at a move count replaces an earlier one)."""
        text = json.dumps(facts)
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO thinking VALUES (?, ?, ?)", (game_id, self.clock(), text))
            if move_count is not None:
                key = f"weighed:{game_id}:{move_count:06d}"
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, text))

    def weighed(self, game_id: int) -> dict[int, dict[str, Any]]:
        """What each decision of a game weighed, by the moves made before it (``save_thinking``); the
        decisions of a state file from before this was kept are missing."""
        rows = self._db.execute(
            "SELECT key, value FROM meta WHERE key >= ? AND key < ?", (f"weighed:{game_id}:", f"weighed:{game_id};")
        ).fetchall()
        found: dict[int, dict[str, Any]] = {}
        for key, value in rows:
            facts = json.loads(value)
            if isinstance(facts, dict):
                found[int(key.rsplit(":", 1)[1])] = facts
        return found

    def thinking(self, game_id: int) -> dict[str, Any] | None:
        """What the last decision of a game weighed, with when (``at``); None before its first decision."""
        row = self._db.execute("SELECT at, facts FROM thinking WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        facts: dict[str, Any] = json.loads(row[1])
        return {**facts, "at": float(row[0])}

    def mark_chat(self, game_id: int, event: str) -> bool:
        """Mark a chat event (greeting, closing) of a game as said; False if it was already."""
        with self._transaction():
            cursor = self._db.execute("INSERT OR IGNORE INTO meta VALUES (?, '1')", (f"chat:{game_id}:{event}",))
        return cursor.rowcount > 0

    def chat_said(self, game_id: int, event: str) -> bool:
        """Whether a chat event of a game was marked as said (``mark_chat``)."""
        key = f"chat:{game_id}:{event}"
        return self._db.execute("SELECT 1 FROM meta WHERE key = ?", (key,)).fetchone() is not None

    def chat_read(self, game_id: int) -> int:
        """How many of a game's chat messages the bot has read."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (f"chatread:{game_id}",)).fetchone()
        return int(row[0]) if row else 0

    def add_chat(self, game_id: int, messages: list[tuple[str, float]], read: int) -> None:
        """Keep the opponent's chat messages of a game (the newest ``CHAT_KEPT``) and how many were read."""
        with self._transaction():
            self._db.executemany(
                "INSERT OR IGNORE INTO chat VALUES (?, ?, ?)", [(game_id, sent, text) for text, sent in messages]
            )
            self._db.execute(
                "DELETE FROM chat WHERE game_id = ? AND rowid NOT IN "
                "(SELECT rowid FROM chat WHERE game_id = ? ORDER BY sent DESC LIMIT ?)",
                (game_id, game_id, CHAT_KEPT),
            )
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"chatread:{game_id}", str(read)))

    def chat(self, game_id: int) -> list[tuple[float, str]]:
        """The opponent's kept chat messages of a game, oldest first: (sent, text)."""
        rows = self._db.execute("SELECT sent, message FROM chat WHERE game_id = ? ORDER BY sent", (game_id,))
        return [(float(sent), str(text)) for sent, text in rows.fetchall()]

    def mark_invited(self, game_id: int) -> None:
        """Remember that a game came from an invitation the bot accepted (its strength level may differ)."""
        self._mark_origin(game_id, "invite")

    def mark_random(self, game_id: int) -> None:
        """Remember that a game was started by the bot's own request for a random opponent."""
        self._mark_origin(game_id, "random")

    def _mark_origin(self, game_id: int, origin: str) -> None:
        with self._transaction():  # the first origin stays: a game comes one way
            self._db.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (f"origin:{game_id}", origin))

    def origin(self, game_id: int) -> str | None:
        """How the game came: ``invite``, ``random``, or None (not through the bot, or before this was kept)."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (f"origin:{game_id}",)).fetchone()
        return str(row[0]) if row else None

    def invited(self, game_id: int) -> bool:
        """Whether the bot accepted the game from an invitation (games from before this was kept: False)."""
        return self.origin(game_id) == "invite"

    def add_random_request(self, ruleset: int, request_id: int | None) -> None:
        """Remember a request for a random opponent the server took (its id, when the answer gave one), so
        that the game it starts is recognised; the newest ``RANDOM_REQUESTS_KEPT`` are kept."""
        with self._transaction():
            row = self._db.execute("SELECT value FROM meta WHERE key = 'randreq:next'").fetchone()
            number = int(row[0]) if row else 1
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('randreq:next', ?)", (str(number + 1),))
            value = json.dumps({"ruleset": ruleset, "id": request_id})
            self._db.execute("INSERT INTO meta VALUES (?, ?)", (f"randreq:{number:012d}", value))
            self._db.execute(
                "DELETE FROM meta WHERE key LIKE 'randreq:0%' AND key <= ?",
                (f"randreq:{number - RANDOM_REQUESTS_KEPT:012d}",),
            )

    def claim_random_request(self, ruleset: int, pending: set[int]) -> bool:
        """Take the oldest remembered random request of ``ruleset`` that is no longer ``pending`` on the
        server (so it was paired): True when there was one (a new game of that ruleset is its game)."""
        rows = self._db.execute("SELECT key, value FROM meta WHERE key LIKE 'randreq:0%' ORDER BY key").fetchall()
        for key, value in rows:
            request = json.loads(value)
            if request["ruleset"] == ruleset and request["id"] not in pending:
                with self._transaction():
                    self._db.execute("DELETE FROM meta WHERE key = ?", (key,))
                return True
        return False

    def save_level(self, game_id: int, level: str, reason: str) -> None:
        """Record the strength level that plays a game and why (``bot.play.strength``)."""
        value = json.dumps({"level": level, "reason": reason})
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"level:{game_id}", value))

    def level(self, game_id: int) -> tuple[str, str] | None:
        """The recorded (level, reason) of a game; None before its first decision."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (f"level:{game_id}",)).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        return str(data["level"]), str(data["reason"])


__all__ = ["CHAT_KEPT", "RANDOM_REQUESTS_KEPT", "PeopleRecords"]
