"""``python -m sandbox.lab.memtrace``: the bot in this process under tracemalloc, growth by line of code."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from sandbox.lab.memtrace import main


def test_a_short_trace_prints_the_traced_memory_and_the_lines_that_grew() -> None:
    argv = ["--decisions", "3", "--warmup", "1", "--every", "1", "--top", "4", "--strategy", "equity"]
    result = subprocess.run(
        [sys.executable, "-m", "sandbox.lab.memtrace", *argv],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert re.search(r"^snapshot after \d+ decisions: [\d.]+ MB traced$", out, re.M), out
    assert re.search(r"^\s+\d+ s\s+\d+ passes\s+\d+ decisions\s+[\d.]+ MB traced$", out, re.M), out
    growth = out.split("growth since the snapshot, by line:\n", 1)[1].splitlines()
    assert 1 <= len(growth) <= 4 and all(re.search(r":\d+: size=", line) for line in growth), growth
    assert result.stderr == ""  # the faults' warnings went to the log file


@pytest.mark.parametrize("argv", [["--decisions", "0"], ["--warmup", "-1"], ["--seconds-per-move", "0"]])
def test_bad_options_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and "memtrace" in capsys.readouterr().err
