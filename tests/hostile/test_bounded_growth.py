"""The worst of items 1, 3 and 6 served for hundreds of passes, and the
state file, the log and the requests of a pass stay under stated bounds.

The server (``tests.hostile.flood``): 3 games whose ``updated`` stamp moves on every poll with nothing
else changed, the opponent named with 200,000 characters of forged log records and terminal escapes;
200 more listed games whose reads fail with a 100,000-character forging error text that changes every
pass. 200 passes of 30 s (100 minutes of a daemon's life, on an injected clock), at most 20 games read
in a pass.

Bounds asserted (the README's Reliability section states them):
* requests per pass <= 1 + ``schedule.max_games_per_pass`` (the status, then at most the cap of game reads);
* the state file: no growth at all once each game has been stored or has failed (the snapshots hold
  64-character names; a new stamp stores nothing; a failing game is one row of ``read_failures``), and
  under 128 KiB in all (most of it the empty tables' pages);
* the log: one line per failing game (its first failure) and one per kind of cut, then not one more
  line in the last 150 passes; no line longer than 2,500 characters; every line a record (no forged
  record, no raw control character).

(The learned-words table of item 2 is bounded by another change: add its bound here when merging.)
"""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path

import pytest
import responses

from bot.logs import LogFile, setup_logging
from bot.store.store import Store
from tests.hostile.flood import FloodApi, Ticker, bot_for

PASSES, POLL, CAP = 200, 30.0, 20
KNOWN, UNKNOWN = 3, 200
RECORD = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) +[\w.]+: ")
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def database_bytes(path: Path) -> int:
    """The database's own size (its pages, whether still in the write-ahead log or not)."""
    with sqlite3.connect(path) as db:
        (pages,) = db.execute("PRAGMA page_count").fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    return int(pages) * int(size)


@pytest.mark.logs_errors("each failing game's first failure is logged, once")
def test_hundreds_of_hostile_passes_grow_neither_state_nor_log_nor_requests(tmp_path: Path) -> None:
    api, clock = FloodApi(KNOWN, UNKNOWN, name_chars=200_000, message_chars=100_000), Ticker()
    state, log_file = tmp_path / "state.db", tmp_path / "bot.log"
    root = logging.getLogger()
    level = root.level
    setup_logging("INFO", LogFile(log_file))
    store = Store(state)
    bot = bot_for(store, clock, per_pass=CAP, keep=True)
    requests, state_sizes, log_sizes = [], [], []
    try:
        with responses.RequestsMock() as mock:
            api.install(mock)
            for _ in range(PASSES):
                before = api.requests
                bot.run_pass()
                requests.append(api.requests - before)
                state_sizes.append(database_bytes(state))
                log_sizes.append(log_file.stat().st_size)
                api.next_pass()
                clock.now += POLL
    finally:
        store.close()
        for handler in [h for h in root.handlers if getattr(h, "_wordfeud_bot", False)]:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(level)

    # the requests of a pass: the status and at most the cap of reads (20 changed games + failing ones)
    assert max(requests) <= 1 + CAP and requests[0] == 1 + CAP
    # every known game read on every pass; every failing game tried again, but ever more rarely
    assert all(api.reads[g] == PASSES for g in api.known)
    assert max(api.reads[g] for g in api.unknown) <= 8  # at 0, 60, 180, 420, 900, 1860, 3780 s and later
    # the state file: a row per failing game in the first passes, then not a byte more
    assert state_sizes[49] == state_sizes[-1] < 128 * 1024
    assert state.stat().st_size < 128 * 1024
    # the log: each failing game's first failure, a cut warning per field, the cap's warning, then nothing
    text = log_file.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert log_sizes[49] == log_sizes[-1] == len(text.encode()) and len(lines) <= UNKNOWN + 10
    assert all(RECORD.match(line) for line in lines) and not RAW.search(text)
    assert max(len(line) for line in lines) <= 2_500
    assert sum("forged" in line for line in lines) == UNKNOWN  # the failures, escaped in one line each
    print(
        f"\n{PASSES} passes: requests per pass max {max(requests)}, mean {sum(requests) / PASSES:.1f}; "
        f"state {state_sizes[0]:,} bytes after the first pass, {state_sizes[49]:,} after 50, "
        f"{state_sizes[-1]:,} after {PASSES}; log {len(lines)} lines, "
        f"{log_sizes[0]:,} bytes after the first pass, {log_sizes[49]:,} after 50, {log_sizes[-1]:,} after {PASSES}, "
        f"longest line {max(len(line) for line in lines):,}"
    )
