"""Checking a state file and recovering what can be read of a damaged one (``wordfeud-bot state``).

``check`` opens the file read-only and runs SQLite's full ``integrity_check``. ``recover`` reads every
table of a damaged file, the decisions first (what was sent to the server is what must not be lost or
sent twice), row by row in rowid order: where a read meets a damaged page it finds the next rowid that
can be read (doubling steps, then halving back) and goes on from there, so each damaged page costs the
rows on it and a bounded number of queries (and one a rowid, where the gap is narrow: 64 Ki at most), never
the table. The rows go into a new state file beside
the damaged one, made as the bot makes one; the damaged file is only read (SQLite's ``mode=ro``), and
an existing file is never written over. What SQL cannot reach (the rows under a damaged interior page)
SQLite's own ``sqlite3 FILE .recover`` may find by reading the pages one by one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from bot.errors import DamagedStateError, StoreError
from bot.store.state_file import StateFile, is_damage

#: The tables, in the order they are recovered: the decisions above all, then what replays and the
#: next run need (the session, the games and their snapshots, the words learned), then the rest.
TABLES = (
    "decisions", "sessions", "games", "snapshots", "accepted", "rejected", "meta", "thinking", "boards", "chat",
    "read_failures",
)  # fmt: skip
#: A damaged place at most this many rowids wide is also read one rowid at a time (a range read gives up at the
#: first damaged page it meets; a read of one row may go round it).
GAP_PROBED = 65536
#: The smallest and largest rowid SQLite has.
_FIRST, _LAST = -(2**63), 2**63 - 1


@dataclass
class Recovery:
    """What ``recover`` read: rows per table, and in how many places a table could not be read."""

    target: Path
    rows: dict[str, int] = field(default_factory=dict)
    gaps: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """Rows recovered in all."""
        return sum(self.rows.values())


def check(path: Path) -> list[str]:
    """The problems SQLite's full integrity check finds in the state file (none: it is whole). StoreError
    when it is no state file (missing, empty, another program's); the file is opened read-only."""
    try:
        state = StateFile(path, read_only=True)
    except DamagedStateError:  # the quick check at opening failed: say what the full check finds
        return _check_raw(path)
    try:
        return state.check(full=True)
    finally:
        state.close()


def _check_raw(path: Path) -> list[str]:
    db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    try:
        rows = db.execute("PRAGMA integrity_check(20)").fetchall()
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    finally:
        db.close()
    lines = [line for row in rows for line in str(row[0]).splitlines()]
    return [line for line in lines if line.strip() and not line.startswith("*** in database")][:20]


def recover(path: Path, target: Path) -> Recovery:
    """Copy every row that can be read of the state file ``path`` into a new state file ``target``.

    StoreError when ``target`` exists (it is never written over) or ``path`` cannot be opened at all."""
    if target.exists() or target.is_symlink():
        raise StoreError(f"{target} exists: recover writes a new file and never over one; give another --output")
    try:
        source = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"state file {path}: {exc}") from None
    report = Recovery(target)
    made = StateFile(target)  # a new state file: the bot's id, the schema, the marker, mode 600
    try:
        db = made._db
        for table in TABLES:
            columns = _columns(made, table)
            rows = 0
            db.execute("BEGIN IMMEDIATE")
            marks = ", ".join("?" for _ in columns)
            insert = f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            for row in _readable_rows(source, table, columns, report):
                if table == "meta" and row[0] in ("marker", "version"):
                    continue  # the new file's own
                db.execute(insert, row)
                rows += 1
            db.execute("COMMIT")
            report.rows[table] = rows
            report.gaps.setdefault(table, 0)
    finally:
        source.close()
        made.close()
    return report


def _columns(state: StateFile, table: str) -> list[str]:
    return [str(row[1]) for row in state._db.execute(f"PRAGMA table_info({table})").fetchall()]


def _readable_rows(
    source: sqlite3.Connection, table: str, columns: list[str], report: Recovery
) -> Iterator[tuple[object, ...]]:
    """The rows of ``table`` that can be read, in rowid order, past every damaged page."""
    query = f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid >= ? ORDER BY rowid"
    start: int | None = _FIRST
    while start is not None:
        try:
            for row in source.execute(query, (start,)):
                yield tuple(row[1:])
                start = int(row[0]) + 1
                if start > _LAST:
                    return
            return
        except sqlite3.DatabaseError as exc:
            if not is_damage(exc) and "no such table" in str(exc):
                return  # a table the damaged file never had (or whose schema entry is lost)
            report.gaps[table] = report.gaps.get(table, 0) + 1
            failed, start = start, _next_readable(source, table, start)
            if start is not None and start - failed <= GAP_PROBED:
                yield from _one_by_one(source, query, failed, start)  # rows a range read skips may still be read


def _one_by_one(source: sqlite3.Connection, query: str, low: int, high: int) -> Iterator[tuple[object, ...]]:
    """The rows of rowid ``low`` to ``high - 1`` that can be read alone."""
    for rowid in range(low, high):
        try:
            row = source.execute(query.replace("rowid >= ?", "rowid = ?"), (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            continue
        if row is not None:
            yield tuple(row[1:])


def _reads(source: sqlite3.Connection, table: str, start: int) -> bool | None:
    """Whether a read of ``table`` from rowid ``start`` on gets its first row (None: it reads, and no row
    is left from there)."""
    try:
        row = source.execute(f"SELECT rowid FROM {table} WHERE rowid >= ? ORDER BY rowid LIMIT 1", (start,)).fetchone()
    except sqlite3.DatabaseError:
        return False
    return None if row is None else True


def _next_readable(source: sqlite3.Connection, table: str, failed: int) -> int | None:
    """The smallest rowid after ``failed`` from which ``table`` reads again (None: none, or nothing left):
    steps that double until a read works, then halving back to the first start that works. At most
    about 128 queries a damaged place."""
    step = 1
    while True:
        probe = failed + step
        if probe > _LAST:
            return None
        found = _reads(source, table, probe)
        if found is None:
            return None
        if found:
            break
        step *= 2
    low, high = failed + step // 2, probe  # low fails (or is ``failed``), high reads
    while high - low > 1:
        middle = (low + high) // 2
        if _reads(source, table, middle) is False:
            low = middle
        else:
            high = middle
    return high


__all__ = ["TABLES", "Recovery", "check", "recover"]
