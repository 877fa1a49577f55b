"""``python -m offline.bench.leavecache``: the leave cache's hit rate and memory per size, from a recorded run."""

from __future__ import annotations

import pytest

from offline.bench.leavecache import hit_rate, main, memory, record


def test_a_larger_cache_never_finds_fewer_and_takes_memory_by_the_entry() -> None:
    keys = record(games=1, seed=4, iterations=2)
    assert len(keys) > 500 and len(set(keys)) < len(keys)
    rates = [hit_rate(keys, size) for size in (0, 16, 256, 4_096, 10**9)]
    assert rates[0] == 0.0
    assert rates == sorted(rates) and rates[-1] > 0.0  # LRU: a larger cache holds what a smaller one does
    assert memory(keys, 0) < 1_000
    small, large = memory(keys, 100), memory(keys, 400)
    assert 100 * 100 < small < large  # every entry costs something


def test_it_prints_a_line_per_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "1", "--iterations", "2", "--sizes", "0,64", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    rows = [line.split("\t") for line in out.splitlines() if not line.startswith("#")]
    assert rows[0] == ["size", "hit_rate", "memory_MB", "bytes_per_entry"]
    assert [row[0] for row in rows[1:3]] == ["0", "64"] and rows[3][0].startswith("unbounded")
    assert "a value computed:" in out


def test_bad_sizes_are_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--sizes", "10,many"])
    assert exit_.value.code == 2 and "--sizes" in capsys.readouterr().err
