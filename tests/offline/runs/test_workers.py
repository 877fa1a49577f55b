"""``offline.runs.workers``: the seam both offline commands run their chunks through, and what a cluster worker
must share with the caller. (The cluster itself: ``test_cluster.py``.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from offline.errors import ClusterError
from offline.runs.workers import code_digest, run_chunks, worker_needs


def test_the_local_pool_yields_every_chunk_once_by_index() -> None:
    for workers in (1, 2):
        assert sorted(run_chunks(abs, [-3, 4, -5], workers=workers)) == [(0, 3), (1, 4), (2, 5)]


def test_a_scheduler_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "offline.runs.cluster", None)  # as if distributed were not installed
    with pytest.raises(ClusterError, match=r"needs the cluster extra .*pip install 'wordfeud-bot\[cluster\]'"):
        list(run_chunks(abs, [1], scheduler="tcp://127.0.0.1:8786"))
    with pytest.raises(ValueError, match="either a number of workers or a scheduler address"):
        list(run_chunks(abs, [1], workers=2, scheduler="tcp://127.0.0.1:8786"))


def test_what_a_worker_needs_names_the_lexicon_and_each_table(tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    table.write_text("{}", encoding="utf-8")
    needs = worker_needs(5, (str(table), str(tmp_path / "absent.json")))
    assert needs["code"] == code_digest() and len(needs["code"]) == 16
    assert len(needs["lexicon of ruleset 5"]) == 16
    assert needs[f"leave table {table}"] == "44136fa355b3678a"  # sha256 of "{}"
    assert needs[f"leave table {tmp_path / 'absent.json'}"] == "missing"
    # no Norwegian lexicon in the test's data directory: the value says how to build one
    assert (
        worker_needs(1)["lexicon of ruleset 1"].startswith("missing (")
        and "dict build nb" in worker_needs(1)["lexicon of ruleset 1"]
    )
