"""The SQLite file the bot's state lives in: made readable by its owner only, recognised as the bot's
own before anything is written to it, its schema created (and an older version migrated), its
transactions, and the run lock next to it.

``bot.store.store.Store`` is this file plus what is kept in it (sessions, games, snapshots, decisions, words,
results); the file's identity and upkeep are apart from those queries because they are the same
whatever the tables hold, and they are what keeps another program's database and a second run out.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

from bot.errors import DamagedStateError, LockedError, StoreError, UnusableStateError

#: 2 added the ``accepted`` table (words the server accepted); a version-1 file is migrated on opening.
SCHEMA_VERSION = 2
#: The ``meta`` marker of a state file (the files made before ``APPLICATION_ID`` was set carry only this).
STATE_MARKER = "wordfeud-bot state"
#: ``PRAGMA application_id`` of a state file (``WFBS``): set when the file is made, so that another
#: program's SQLite file is recognised before anything is written to it.
APPLICATION_ID = 0x57464253
#: Problems the integrity checks list at most.
CHECK_PROBLEMS = 20
#: SQLite's primary result codes of a damaged file: SQLITE_CORRUPT and SQLITE_NOTADB.
_DAMAGE_CODES = frozenset({11, 26})
#: Where a backup of the state file is looked for (beside it), to name it when the file is damaged.
BACKUP_SUFFIXES = (".bak", ".backup")
#: The first bytes of every SQLite 3 database file.
_SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    account TEXT PRIMARY KEY, session_id TEXT NOT NULL, user_id INTEGER NOT NULL, saved REAL NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_id INTEGER PRIMARY KEY, ruleset INTEGER NOT NULL, opponent TEXT NOT NULL,
    updated REAL NOT NULL, move_count INTEGER NOT NULL, running INTEGER NOT NULL,
    my_score INTEGER NOT NULL DEFAULT 0, their_score INTEGER NOT NULL DEFAULT 0, first_seen REAL NOT NULL,
    my_turn INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game_id INTEGER NOT NULL, move_count INTEGER NOT NULL,
    taken REAL NOT NULL, game TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS decisions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game_id INTEGER NOT NULL, move_count INTEGER NOT NULL,
    kind TEXT NOT NULL, notation TEXT NOT NULL, payload TEXT NOT NULL, points INTEGER NOT NULL,
    status TEXT NOT NULL, server_points INTEGER, detail TEXT NOT NULL DEFAULT '', at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS boards (board_id INTEGER PRIMARY KEY, grid TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rejected (ruleset INTEGER NOT NULL, word TEXT NOT NULL, PRIMARY KEY (ruleset, word));
CREATE TABLE IF NOT EXISTS accepted (
    ruleset INTEGER NOT NULL, word TEXT NOT NULL, game_id INTEGER NOT NULL, source TEXT NOT NULL,
    seen REAL NOT NULL, new INTEGER NOT NULL, PRIMARY KEY (ruleset, word));
CREATE TABLE IF NOT EXISTS thinking (game_id INTEGER PRIMARY KEY, at REAL NOT NULL, facts TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chat (
    game_id INTEGER NOT NULL, sent REAL NOT NULL, message TEXT NOT NULL, PRIMARY KEY (game_id, sent, message));
CREATE INDEX IF NOT EXISTS snapshots_game ON snapshots (game_id, id);
CREATE INDEX IF NOT EXISTS decisions_game ON decisions (game_id, id);
CREATE TABLE IF NOT EXISTS read_failures (
    game_id INTEGER PRIMARY KEY, failures INTEGER NOT NULL, retry_at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS accepted_game ON accepted (game_id, new);
CREATE INDEX IF NOT EXISTS accepted_learned ON accepted (new, seen);
CREATE INDEX IF NOT EXISTS accepted_newest ON accepted (ruleset, new, seen);
"""


class StateFile:
    """The open state database at ``path`` (``":memory:"`` for tests); raises StoreError when it cannot
    be opened, belongs to another program, or has a schema version this bot does not read, and
    DamagedStateError when SQLite's quick check finds damaged pages (before anything is written).

    ``read_only``: for the commands that only read (``stats``, ``replay``, ``learned``): the file must exist
    and hold the bot's state (an empty file is said to be empty and left as it is); it is opened with
    SQLite's ``mode=ro`` (``immutable=1`` where its directory cannot be written, a read-only mount), nothing
    is created beside it, and it takes no lock. A read that meets a damaged page later is a
    DamagedStateError too (``_Cursor``), never a bare ``sqlite3.DatabaseError``."""

    def __init__(self, path: Path | str, *, read_only: bool = False) -> None:
        self.path = str(path)
        self.read_only = read_only and self.path != ":memory:"
        self._lock_file: IO[str] | None = None
        target = _readable_uri(Path(self.path)) if self.read_only else self.path
        if not self.read_only and self.path != ":memory:":
            _ensure_file(Path(self.path))
        try:
            connection = sqlite3.connect(
                target,
                uri=self.read_only,
                isolation_level=None,
                check_same_thread=False,
                factory=_Connection,
            )
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"state file {self.path}: {exc}") from None
        connection.state_path = self.path
        self._db: sqlite3.Connection = connection
        try:
            if self.read_only:
                self._open_read_only()
                return
            self._db.execute("PRAGMA busy_timeout=5000")
            with self._transaction():
                # what the file is first (another program's is refused whatever its mode), then who may
                # read it, whether its pages are whole, and only then is anything changed, the journal mode included
                new = self._check_identity()
                if self.path != ":memory:":
                    _refuse_shared(Path(self.path))
                    self._check_pages()
                if new:
                    self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._db.execute("PRAGMA journal_mode=WAL" if self.path != ":memory:" else "PRAGMA journal_mode=MEMORY")
            with self._transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._check_meta()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(f"state file {self.path}: {exc}") from None
        except StoreError:
            self._db.close()
            raise

    def _open_read_only(self) -> None:
        """Check a file opened read-only as ``__init__`` checks one it may write: whose it is, who may read
        it, whether its pages are whole; then that it holds a state this bot reads (nothing is migrated)."""
        self._db.execute("PRAGMA busy_timeout=5000")
        if self._check_identity():
            (tables,) = self._db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").fetchone()
            if not tables:
                raise UnusableStateError(
                    f"state file {self.path} is an empty SQLite database: there is nothing to read; "
                    "it was left as it is"
                )
        _refuse_shared(Path(self.path))
        self._check_pages()
        rows = dict(self._db.execute("SELECT key, value FROM meta WHERE key IN ('marker', 'version')").fetchall())
        if rows.get("marker") != STATE_MARKER:
            raise StoreError(f"state file {self.path} is not a wordfeud-bot state database")
        if rows.get("version") != str(SCHEMA_VERSION):
            raise StoreError(
                f"state file {self.path} has schema version {rows.get('version')}; this command reads "
                f"{SCHEMA_VERSION} (a run of once or run brings a version-1 file up to date)"
            )

    def check(self, *, full: bool = False) -> list[str]:
        """The problems SQLite's check finds in the file (none: it is whole): ``PRAGMA quick_check`` (every
        page of every table and index read and checked), or with ``full`` ``PRAGMA integrity_check`` (also
        that every index matches its table). At most ``CHECK_PROBLEMS`` are listed."""
        pragma = "integrity_check" if full else "quick_check"
        try:
            rows = self._db.execute(f"PRAGMA {pragma}({CHECK_PROBLEMS})").fetchall()
        except DamagedStateError as exc:
            return [str(exc.__cause__ or "database disk image is malformed")]
        # one row a problem, or (a page of a b-tree that cannot be read) one row of lines under a heading
        lines = [line for row in rows for line in str(row[0]).splitlines()]
        problems = [line for line in lines if line.strip() and not line.startswith("*** in database")]
        return [] if problems == ["ok"] else problems[:CHECK_PROBLEMS]

    def _check_pages(self) -> None:
        """DamagedStateError naming the file and what to do when the quick check finds damaged pages."""
        problems = self.check()
        if problems:
            found = f"{plural_problems(problems)} found by SQLite's quick check, the first: {problems[0]}"
            raise damaged(self.path, found)

    def close(self) -> None:
        """Close the database (and release the lock if held)."""
        self._release()
        self._db.close()

    # -- the lock ---------------------------------------------------------------------------

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the run lock (a file lock next to the database, released even if the process dies).

        The lock belongs to the resolved file, so the same state reached through a symbolic link or
        another relative path is one lock. Raises LockedError when another run holds it.
        """
        if self.path == ":memory:":
            yield
            return
        if self.read_only:
            raise UnusableStateError(f"state file {self.path} is open read-only: a reading command takes no lock")
        lock_path = os.path.realpath(self.path) + ".lock"
        try:
            descriptor = os.open(lock_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        except OSError as exc:  # a read-only lock file or directory: the operator's to mend, as a read-only state file
            raise UnusableStateError(
                f"lock file {lock_path}: {exc.strerror or exc}: the bot takes its lock there before it writes the "
                "state; make the file and its directory writable by this user, or give another --state"
            ) from None
        handle = os.fdopen(descriptor, "a", encoding="utf-8")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise LockedError(f"another run of the bot holds the lock {lock_path}") from None
        self._lock_file = handle
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        if self._lock_file is not None:
            fcntl.flock(self._lock_file.fileno(), fcntl.LOCK_UN)
            self._lock_file.close()
            self._lock_file = None

    # -- plumbing ---------------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except (sqlite3.DatabaseError, OverflowError) as exc:  # OverflowError: an int SQLite cannot hold
            raise StoreError(f"state file {self.path}: {exc}") from None

    def _check_identity(self) -> bool:
        """Refuse another program's SQLite file before writing to it; True when the file is to be marked
        as ours: a new (empty) file, or one of ours made before the id was set.

        A file is ours when its ``application_id`` is ours, or (files made before the id was set) when
        its ``meta`` table holds the marker."""
        (application_id,) = self._db.execute("PRAGMA application_id").fetchone()
        if application_id == APPLICATION_ID:
            return False
        tables = sorted(
            str(row[0])
            for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not str(row[0]).startswith("sqlite_")
        )
        if application_id == 0 and not tables:
            return True
        if application_id == 0 and "meta" in tables:
            try:
                marker = self._db.execute("SELECT value FROM meta WHERE key = 'marker'").fetchone()
            except sqlite3.OperationalError:  # a ``meta`` table of another shape
                marker = None
            if marker is not None and marker[0] == STATE_MARKER:
                return True
        owner = f"application id {application_id:#x}" if application_id else f"tables: {', '.join(tables[:6])}"
        raise StoreError(
            f"state file {self.path} is another program's SQLite database ({owner}), not a wordfeud-bot state "
            "database; it was left as it was. Give the bot a file of its own (--state or store.path)"
        )

    def _check_meta(self) -> None:
        rows = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        if not rows:
            self._db.execute(
                "INSERT INTO meta VALUES ('marker', ?), ('version', ?)", (STATE_MARKER, str(SCHEMA_VERSION))
            )
            return
        if rows.get("marker") != STATE_MARKER:
            raise StoreError(f"state file {self.path} is not a wordfeud-bot state database")
        if rows.get("version") == "1":
            # version 2 only added the ``accepted`` table, which the schema above has just created
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'version'", (str(SCHEMA_VERSION),))
            return
        if rows.get("version") != str(SCHEMA_VERSION):
            raise StoreError(
                f"state file {self.path} has schema version {rows.get('version')}; this bot reads {SCHEMA_VERSION}"
            )


def _ensure_file(path: Path) -> None:
    """Create the file readable by its owner only, or check that an existing one can be read and
    written and is an SQLite file; StoreError naming it and saying why otherwise."""
    if path.is_dir():
        example = path / "state.sqlite3"
        raise StoreError(f"state file {path} is a directory; give the path of a file in it, e.g. {example}")
    blocking = next((above for above in path.parents if above.exists() and not above.is_dir()), None)
    if blocking is not None:
        raise StoreError(f"state file {path}: {blocking} is not a directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
            return
        mode = stat.S_IMODE(path.stat().st_mode)
        if not os.access(path, os.R_OK | os.W_OK):
            raise StoreError(
                f"state file {path}: permission denied: this user cannot read and write it (mode {mode:03o})"
            )
        with open(path, "rb") as file:
            start = file.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f"state file {path}: {exc.strerror or exc}") from None
    if start and start != _SQLITE_HEADER:
        raise StoreError(
            f"state file {path} is not an SQLite database, so not a wordfeud-bot state file; it was left as it "
            "was. Give the bot a file of its own (--state or store.path)"
        )


def _refuse_shared(path: Path) -> None:
    """Refuse a state file others can read: it holds a session id."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError as exc:
        raise StoreError(f"state file {path}: {exc.strerror or exc}") from None
    if mode & 0o077:
        raise StoreError(
            f"state file {path} can be read by other users (mode {mode:o}) and holds a session id; "
            f"run: chmod 600 {path}"
        )


def _readable_uri(path: Path) -> str:
    """The SQLite URI a command that only reads opens ``path`` by, once it is known to be a non-empty
    SQLite file this user can read (StoreError naming it otherwise): ``mode=ro``, so that nothing is
    written; ``immutable=1`` where the directory cannot be written (a read-only mount), where SQLite could
    not make its shared-memory file, unless a write-ahead log with changes lies beside it."""
    if not path.exists():
        raise StoreError(f"no state file {path}: the bot writes it when it plays (see --state and store.path)")
    if path.is_dir():
        example = path / "state.sqlite3"
        raise StoreError(f"state file {path} is a directory; give the path of a file in it, e.g. {example}")
    try:
        with open(path, "rb") as file:
            start = file.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f"state file {path}: {exc.strerror or exc}") from None
    if not start:
        raise UnusableStateError(
            f"state file {path} is empty (0 bytes): there is nothing to read; it was left as it is "
            "(the bot writes it when it plays: once or run)"
        )
    if start != _SQLITE_HEADER:
        raise StoreError(
            f"state file {path} is not an SQLite database, so not a wordfeud-bot state file; it was left as it "
            "was. Give the bot a file of its own (--state or store.path)"
        )
    absolute = path.resolve()
    wal = Path(f"{absolute}-wal")
    changes = wal.exists() and wal.stat().st_size > 0
    options = "mode=ro" if os.access(absolute.parent, os.W_OK) or changes else "immutable=1"
    return f"file:{quote(str(absolute))}?{options}"


def plural_problems(problems: list[str]) -> str:
    """``1 problem``, ``20 problems`` (20 is the most listed: ``20 or more``)."""
    count = len(problems)
    if count >= CHECK_PROBLEMS:
        return f"{count} or more problems"
    return "1 problem" if count == 1 else f"{count} problems"


def is_damage(exc: sqlite3.DatabaseError) -> bool:
    """Whether SQLite's error says the file is damaged (a malformed page, not a database), not busy or full."""
    code = getattr(exc, "sqlite_errorcode", None)
    return (isinstance(code, int) and code & 0xFF in _DAMAGE_CODES) or "malformed" in str(exc)


def backup_of(path: str) -> Path | None:
    """A backup of the state file beside it (``FILE.bak``, ``FILE.backup``), if one is there."""
    return next((Path(path + s) for s in BACKUP_SUFFIXES if Path(path + s).is_file()), None)


def damaged(path: str, detail: str) -> DamagedStateError:
    """The one line a damaged state file gets: the file, what was found, what to do."""
    backup = backup_of(path)
    restore = f"restore the backup {backup} (cp {backup} {path}), or " if backup is not None else ""
    return DamagedStateError(
        f"state file {path} is damaged ({detail}); the bot stops rather than lose decisions: {restore}recover what "
        f"can be read into a new file with: wordfeud-bot state recover --state {path} (or: sqlite3 {path} .recover)"
    )


class _Connection(sqlite3.Connection):
    """A connection whose cursors are ``_Cursor``: a damaged page met by any read or write is a
    DamagedStateError naming the file, wherever the query is (a pass, the status of a turn)."""

    state_path = ""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        return _Cursor(self).execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        return _Cursor(self).executemany(sql, parameters)


class _Cursor(sqlite3.Cursor):
    """A cursor that says a damaged file is damaged (``damaged``) at every step a page is read."""

    def _damage(self, exc: sqlite3.DatabaseError) -> None:
        """Raise the DamagedStateError of a damaged file's error (the caller re-raises any other)."""
        if is_damage(exc):
            path = getattr(self.connection, "state_path", "") or "(the state file)"
            raise damaged(path, f"{exc} while reading it") from exc

    def execute(self, sql: str, parameters: Any = (), /) -> _Cursor:
        try:
            super().execute(sql, parameters)
            return self
        except sqlite3.DatabaseError as exc:
            self._damage(exc)
            raise

    def executemany(self, sql: str, parameters: Any, /) -> _Cursor:
        try:
            super().executemany(sql, parameters)
            return self
        except sqlite3.DatabaseError as exc:
            self._damage(exc)
            raise

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except sqlite3.DatabaseError as exc:
            self._damage(exc)
            raise

    def fetchmany(self, size: int | None = 1) -> list[Any]:
        try:
            return super().fetchmany(size if size is not None else self.arraysize)
        except sqlite3.DatabaseError as exc:
            self._damage(exc)
            raise

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except sqlite3.DatabaseError as exc:
            self._damage(exc)
            raise

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except sqlite3.DatabaseError as exc:
            self._damage(exc)
            raise
