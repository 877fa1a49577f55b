"""The sandbox's accounts, sessions and games, kept in memory, with an injected clock.

Games are engine games (``engine.game.Game``) plus what the API shows around them: ids, the two
users, timestamps, the board id.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.dawg import Dawg
from engine.game import BLANK, Game
from engine.movegen import generate
from engine.rules import Ruleset

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
    chat: list[dict[str, object]] = field(default_factory=list)


class State:
    """Everything the sandbox knows; methods raise nothing HTTP-shaped (``api`` translates)."""

    def __init__(self, lexicons: Callable[[int], Dawg], clock: Clock, seed: int = 0) -> None:
        self.lexicons = lexicons
        self.clock = clock
        self.rng = random.Random(seed)
        self.users: dict[int, User] = {}
        self.sessions: dict[str, tuple[int, float]] = {}  # session id -> (user id, expiry)
        self.games: dict[int, SandboxGame] = {}
        #: Users the sandbox plays for itself (greedy): a bot playing against one gets replies.
        self.house: set[int] = set()
        self._next_user = 1_000_001
        self._next_game = 2_226_982_257  # ids above 2**31, as the real server's

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

    def new_game(self, first: User, second: User, ruleset_id: int) -> SandboxGame:
        """Start a game on the standard board between two users; the first user moves first."""
        rules = Ruleset.for_id(ruleset_id)
        seed = self.rng.randrange(2**32)
        game = Game(rules, self.lexicons(ruleset_id), random.Random(seed))
        now = self.clock()
        sandbox_game = SandboxGame(self._next_game, (first.id, second.id), game, 0, now, now)
        self._next_game += 1
        self.games[sandbox_game.id] = sandbox_game
        self.play_house_turns(sandbox_game)
        return sandbox_game

    def play_house_turns(self, sandbox_game: SandboxGame) -> None:
        """While it is a house player's turn, play its move: the best-scoring placement, else a
        swap of the whole rack, else a pass."""
        game = sandbox_game.game
        while not game.is_over and sandbox_game.players[game.current] in self.house:
            moves = generate(game.board, game.rack, game.lexicon, game.rules)
            if moves:
                game.place(max(moves, key=lambda m: (m.score or 0, sorted(m.tiles))))
            elif len(game.bag) >= game.rules.swap_min_bag:
                game.swap(game.rack.letters() + [BLANK] * game.rack.blanks)
            else:
                game.pass_turn()
            sandbox_game.updated = self.clock()
