"""The sandbox's accounts, sessions and games, kept in memory, with an injected clock.

Games are engine games (``engine.game.Game``) plus what the API shows around them: ids, the two
users, timestamps, the board id.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.rules.layout import BoardLayout
from engine.rules.ruleset import Ruleset

NORMAL, RANDOM = "normal", "random"
#: A session lives 14 days, as the real server's cookie says.
SESSION_SECONDS = 14 * 24 * 3600
SALT = "JarJarBinks9"

Clock = Callable[[], float]


def password_hash(password: str) -> str:
    """The API's password field: hex SHA-1 of the password plus the fixed salt.

    >>> password_hash("xxxxxx")
    'a20678fa097887db966a0220601edf7550028daa'
    """
    return hashlib.sha1((password + SALT).encode("utf-8")).hexdigest()


@dataclass
class User:
    """An account: the password is kept only as the API's hash."""

    id: int
    username: str
    email: str
    password_hash: str


@dataclass
class SandboxGame:
    """An engine game and what the API shows around it."""

    id: int
    players: tuple[int, int]  # user ids by position
    game: Game
    board_id: int
    created: float
    updated: float
    seed: int = 0  # the game's bag: with the history, it rebuilds the game (see sandbox.store)
    chat: list[dict[str, object]] = field(default_factory=list)


@dataclass(frozen=True)
class Invite:
    """An invitation to a game, waiting for the invitee."""

    id: int
    inviter: int
    invitee: int
    ruleset: int
    board_type: str
    created: float


@dataclass(frozen=True)
class RandomRequest:
    """A request to be paired with a random opponent."""

    id: int
    user: int
    ruleset: int
    board_type: str
    created: float


@dataclass(frozen=True)
class Submission:
    """A game action that reached the game logic: who, at which turn (history length), what, outcome
    (``success`` or the error type)."""

    game_id: int
    user_id: int
    turn: int
    kind: str
    body: str
    outcome: str


def duplicates(submissions: Iterable[Submission]) -> list[Submission]:
    """Actions a careful client never sends: a placement sent again after the same one was carried
    out, and any action that arrived when it was not the sender's turn (a stale view)."""
    applied: set[tuple[int, int, str]] = set()
    bad = []
    for sub in submissions:
        key = (sub.game_id, sub.user_id, sub.body)
        if sub.outcome in ("not_your_turn", "game_over") or (sub.kind == "move" and key in applied):
            bad.append(sub)
        if sub.outcome == "success" and sub.kind == "move":
            applied.add(key)
    return bad


def random_layout(rng: random.Random) -> BoardLayout:
    """A random premium layout like the real server's (irregular; about 24 DL, 20 TL, 12 DW, 8 TW;
    plain start square)."""
    squares = [(r, c) for r in range(15) for c in range(15) if (r, c) != (7, 7)]
    rng.shuffle(squares)
    grid = [[0] * 15 for _ in range(15)]
    position = 0
    for code, count in ((1, 24), (2, 20), (3, 12), (4, 8)):
        for r, c in squares[position : position + count]:
            grid[r][c] = code
        position += count
    return BoardLayout.from_api_grid(grid)


#: The first game id of a State made without one (the tests' sandboxes): above 2**31, as the real server's.
FIRST_GAME_ID = 2_226_982_257
FIRST_BOARD_ID = 1089


def fresh_first_id(now: float, rng: random.Random) -> int:
    """A first id for a sandbox started at ``now`` (seconds since the epoch) that no earlier start used:
    the time in milliseconds times 1000, plus up to 999 at random (two starts in the same millisecond).
    A later start begins at least 1000 ids per millisecond later, so its ids never meet an earlier run's
    unless that run handed out a million ids per second between them; the ids stay below 2**53 (exact in
    JavaScript, far below SQLite's 2**63 and the 19 digits the API accepts) until the year 2255."""
    return int(now * 1000) * 1000 + rng.randrange(1000)


class State:
    """Everything the sandbox knows; methods raise nothing HTTP-shaped (``api`` translates).

    Game and random-board ids start at ``first_game_id`` and ``first_board_id``: fixed by default (tests),
    ``fresh_first_id`` for a server started from the command line, so that a bot's state file, which
    keys games and cached boards by id, never sees one id for two games across restarts."""

    def __init__(
        self,
        lexicons: Callable[[int], Dawg],
        clock: Clock,
        seed: int = 0,
        *,
        first_game_id: int = FIRST_GAME_ID,
        first_board_id: int = FIRST_BOARD_ID,
    ) -> None:
        self.lexicons = lexicons
        self.clock = clock
        self.rng = random.Random(seed)
        self.users: dict[int, User] = {}
        self.sessions: dict[str, tuple[int, float]] = {}  # session id -> (user id, expiry)
        self.games: dict[int, SandboxGame] = {}
        #: Users the sandbox plays for itself (greedy): a bot playing against one gets replies.
        self.house: set[int] = set()
        self.boards: dict[int, BoardLayout] = {}  # random layouts by board id (0 is the standard one)
        self.invites: dict[int, Invite] = {}
        self.random_requests: dict[int, RandomRequest] = {}
        self.notifications: dict[int, list[dict[str, object]]] = {}
        #: Every game action that reached the game logic, for tests that check none is sent twice.
        self.submissions: list[Submission] = []
        self._next_board = first_board_id
        self._next_invite = 987_654
        self._next_request = 55_001
        self._next_user = 1_000_001
        self._next_game = first_game_id

    def add_user(self, username: str, email: str, password: str) -> User:
        """Create an account; raises ValueError if the name or email is taken."""
        if any(u.username.lower() == username.lower() or u.email.lower() == email.lower() for u in self.users.values()):
            raise ValueError(f"username {username!r} or email {email!r} is taken")
        user = User(self._next_user, username, email, password_hash(password))
        self._next_user += 1
        self.users[user.id] = user
        return user

    def open_session(self, user: User) -> str:
        """A new session id (32 lower-case letters and digits) for the user."""
        alphabet = string.ascii_lowercase + string.digits
        sid = "".join(secrets.choice(alphabet) for _ in range(32))
        self.sessions[sid] = (user.id, self.clock() + SESSION_SECONDS)
        return sid

    def session_user(self, sid: str | None) -> User | None:
        """The user of a live session, or None (unknown or expired)."""
        if sid is None or sid not in self.sessions:
            return None
        user_id, expires = self.sessions[sid]
        if self.clock() >= expires:
            del self.sessions[sid]
            return None
        return self.users.get(user_id)

    def expire_sessions(self) -> None:
        """Forget every session (for testing re-login)."""
        self.sessions.clear()

    def new_game(self, first: User, second: User, ruleset_id: int, board_type: str = NORMAL) -> SandboxGame:
        """Start a game between two users (the first moves first), on the standard board or a
        random one; both players are told by a ``new_game`` notification."""
        rules = Ruleset.for_id(ruleset_id)
        board_id = 0
        if board_type == RANDOM:
            board_id = self._next_board
            self._next_board += 1
            self.boards[board_id] = random_layout(self.rng)
            rules = rules.with_layout(self.boards[board_id])
        seed = self.rng.randrange(2**32)
        game = Game(rules, self.lexicons(ruleset_id), random.Random(seed))
        now = self.clock()
        sandbox_game = SandboxGame(self._next_game, (first.id, second.id), game, board_id, now, now, seed)
        self._next_game += 1
        self.games[sandbox_game.id] = sandbox_game
        for me, other in ((first, second), (second, first)):
            self.notify(
                me.id, {"type": "new_game", "game_id": sandbox_game.id, "user_id": other.id, "username": other.username}
            )
        self.play_house_turns(sandbox_game)
        return sandbox_game

    def counters(self) -> dict[str, int]:
        """The next ids to hand out (saved with the state)."""
        return {
            "user": self._next_user,
            "game": self._next_game,
            "board": self._next_board,
            "invite": self._next_invite,
            "request": self._next_request,
        }

    def restore_counters(self, counters: dict[str, int]) -> None:
        """Continue numbering where a saved state stopped."""
        self._next_user = counters["user"]
        self._next_game = counters["game"]
        self._next_board = counters["board"]
        self._next_invite = counters["invite"]
        self._next_request = counters["request"]

    def next_id(self, kind: str) -> int:
        """A fresh id for an ``invite`` or a random ``request``."""
        if kind == "invite":
            self._next_invite += 1
            return self._next_invite
        self._next_request += 1
        return self._next_request

    def notify(self, user_id: int, entry: dict[str, object]) -> None:
        """Queue a notification entry for a user (``user/notifications/`` hands them out once)."""
        self.notifications.setdefault(user_id, []).append({**entry, "created": self.clock()})

    def log_submission(self, game_id: int, user_id: int, turn: int, kind: str, data: object, outcome: str) -> None:
        """Keep a game action for ``duplicate_submissions``."""
        self.submissions.append(Submission(game_id, user_id, turn, kind, json.dumps(data, sort_keys=True), outcome))

    def duplicate_submissions(self) -> list[Submission]:
        """Actions a careful client never sends (see ``duplicates``)."""
        return duplicates(self.submissions)

    def play_house_turns(self, sandbox_game: SandboxGame) -> None:
        """While it is a house player's turn, play its move: the best-scoring placement, else a
        swap of the whole rack, else a pass."""
        game = sandbox_game.game
        while not game.is_over and sandbox_game.players[game.current] in self.house:
            moves = generate(game.board, game.rack, game.lexicon, game.rules)
            if moves:
                game.place(max(moves, key=lambda m: (m.score or 0, sorted(m.tiles))))
            elif len(game.bag) >= game.rules.swap_min_bag:
                game.swap(game.rack.bag_tiles())
            else:
                game.pass_turn()
            sandbox_game.updated = self.clock()
