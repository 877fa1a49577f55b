"""SQLite state for the sandbox, so that games survive a restart.

The whole state is written after every request that changed it, in one transaction. A game is
stored as its seed, board and actions, and rebuilt by replaying them: an engine game is fully
determined by its seed and what the players did.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from engine.game import Game, Resign
from engine.layout import BoardLayout
from engine.move import Direction, Pass, Placement, Swap
from engine.rules import Ruleset
from sandbox.state import Invite, RandomRequest, SandboxGame, State, User


class Store:
    """One SQLite file holding a sandbox's users, games, invites, requests and notifications."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.db = sqlite3.connect(self.path, check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self.db.commit()
        self._saved = ""  # the last document written: reads (often POSTed) need no write

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
        if document == self._saved:
            return
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO kv VALUES ('state', ?)", (document,))
        self._saved = document

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
        return True


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
