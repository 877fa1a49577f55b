"""The C move generator and endgame under valgrind's memcheck: no read or write out of bounds, no use after
free, no bad free, no definite leak, over every bench position, every hostile-input case, a short fuzz
of each and a few real endgames.

``PYTHONMALLOC=malloc`` makes each of CPython's allocations (and the extension's ``PyMem_Malloc``) a
malloc block that memcheck bounds; ``valgrind-python.supp`` drops CPython 3.11's own noise (see its
comments). The run takes about 37 s of CPU here; it is skipped, saying so, where valgrind is not installed
(``.ci/run`` installs it in CI).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import native

ROOT = Path(__file__).resolve().parents[2]
SUPPRESSIONS = Path(__file__).with_name("valgrind-python.supp")
VALGRIND = shutil.which("valgrind")
#: valgrind's exit status when it found an error (the program's own statuses are 0 and 1).
FOUND = 97

pytestmark = [
    pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}"),
    pytest.mark.skipif(VALGRIND is None, reason="valgrind is not installed (apt-get install valgrind)"),
]


def memcheck(log: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """``python COMMAND`` under memcheck with the project's settings; the report goes to ``log``."""
    assert VALGRIND is not None
    options = [
        "--tool=memcheck",
        f"--error-exitcode={FOUND}",
        f"--suppressions={SUPPRESSIONS}",
        "--leak-check=full",
        "--show-leak-kinds=definite",
        "--errors-for-leak-kinds=definite",
        "--num-callers=30",
        f"--log-file={log}",
    ]
    return subprocess.run(
        [VALGRIND, *options, sys.executable, *command],
        cwd=ROOT,
        env=os.environ | {"PYTHONMALLOC": "malloc"},
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )


def errors(report: str) -> str:
    """The report's error blocks (without the banner and summaries), for a failure message."""
    blocks = re.split(r"\n==\d+== \n", report)
    return "\n".join(b for b in blocks if re.search(r"Invalid|uninitialised|definitely lost|free|overlap", b))[:6000]


def test_the_native_module_is_clean_under_memcheck(tmp_path: Path) -> None:
    log = tmp_path / "memcheck.log"
    done = memcheck(log, "-m", "tests.engine.memcheck")
    report = log.read_text(encoding="utf-8")
    assert done.returncode != FOUND, f"memcheck found errors:\n{errors(report)}"
    assert done.returncode == 0, f"the workload failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "ERROR SUMMARY: 0 errors" in report
    # the workload really ran: positions searched, Placement objects of 1 to 6 tiles (7 too on the shared
    # positions), both directions and blanks made from the moves of 40 of them, the hostile cases, the fuzz
    made = r"positions: (\d+) searched, (\d+) moves made on (\d+) \(tiles ([\d,]+); (.*?); blanks on (\d+)\)"
    found = re.search(made, done.stdout)
    assert found and int(found[1]) >= 40 and int(found[2]) > 1000 and int(found[3]) >= 40, done.stdout[-2000:]
    sizes = {int(size) for size in found[4].split(",")}
    assert sizes >= set(range(1, 7)) and found[5] == "across and down" and int(found[6]) > 0, done.stdout[-2000:]
    assert "hostile cases done" in done.stdout and "fuzz: " in done.stdout
    played = re.search(r"playouts: (\d+) played, (\d+) with blanks on the racks, hostile cases done", done.stdout)
    assert played and int(played[1]) >= 30 and int(played[2]) >= 20, done.stdout[-2000:]
    selfplay = re.search(r"selfplay: (\d+) turns played, hostile cases done", done.stdout)
    assert selfplay and int(selfplay[1]) >= 10, done.stdout[-2000:]
    endgame = re.search(r"endgame: hostile cases, fuzz .*'placement': (\d+).*, (\d+) real endgames", done.stdout)
    assert endgame and int(endgame[1]) > 0 and int(endgame[2]) == 4, done.stdout[-2000:]


def test_memcheck_with_these_settings_reports_a_read_out_of_bounds(tmp_path: Path) -> None:
    """The settings and suppressions do not hide a real error: native code reading 8 bytes past a
    block of 100 bytes is reported, and valgrind exits with its error status."""
    log = tmp_path / "memcheck.log"
    snippet = "import ctypes; block = ctypes.create_string_buffer(100); ctypes.string_at(ctypes.addressof(block), 108)"
    done = memcheck(log, "-c", snippet)
    report = log.read_text(encoding="utf-8")
    assert done.returncode == FOUND, report[-3000:]
    assert "Invalid read" in report, report[-3000:]
    assert re.search(r"is \d+ bytes after a block of size 100 alloc'd", report), report[-3000:]
