"""The account the bot logs in with: how (email, username or id), who, and the password hash.

The API never sees the plain password, only ``sha1(password + "JarJarBinks9")`` in hex, which is
itself a replayable credential: it is kept out of ``repr``, logs and files.

>>> creds = Credentials.from_password("email", "me@example.org", "xxxxxx")
>>> creds.password_hash
'a20678fa097887db966a0220601edf7550028daa'
>>> creds
Credentials(method='email', login='me@example.org', password_hash=<hidden>)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

#: Ways to log in, as the API's paths name them.
METHODS = ("email", "username", "id")
_SALT = "JarJarBinks9"


def hash_password(password: str) -> str:
    """The API's password field: lower-case hex SHA-1 of the UTF-8 password plus the fixed salt."""
    return hashlib.sha1((password + _SALT).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Credentials:
    """A login: ``method`` is one of ``email``, ``username``, ``id``; ``login`` the matching value."""

    method: str
    login: str
    password_hash: str = field(repr=False)

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"login method {self.method!r} is not one of {', '.join(METHODS)}")
        if self.method == "id" and not self.login.isdigit():
            raise ValueError(f"a login by id needs a numeric user id, got {self.login!r}")
        digest = self.password_hash
        if len(digest) != 40 or any(c not in "0123456789abcdefABCDEF" for c in digest):
            raise ValueError("a password hash must be 40 hexadecimal characters")

    @classmethod
    def from_password(cls, method: str, login: str, password: str) -> Credentials:
        """Credentials from a plain password (hashed at once; the plain text is not kept)."""
        return cls(method, login, hash_password(password))

    def __repr__(self) -> str:
        return f"Credentials(method={self.method!r}, login={self.login!r}, password_hash=<hidden>)"

    def secrets(self) -> tuple[str, ...]:
        """Values that must never appear in logs or files."""
        return (self.password_hash, self.password_hash.lower())
