"""``python -m sandbox.lab.healthz``: /healthz's latency while the bot in this process plays a pass of sim."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from sandbox.lab.healthz import Figures, main


def test_a_short_run_prints_the_idle_and_the_thinking_latencies() -> None:
    argv = ["--games", "1", "--seconds", "0.3", "--interval-ms", "20", "--idle-seconds", "0.2"]
    result = subprocess.run(
        [sys.executable, "-m", "sandbox.lab.healthz", *argv], capture_output=True, text=True, timeout=180, check=False
    )
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    latency = r"latency ms: p50 [\d.]+  p99 [\d.]+  max [\d.]+  \(mean [\d.]+\)"
    assert re.search(r"^the bot idle:\n  " + latency + "$", out, re.M), out
    assert re.search(r"^  pass: 1 moves in [\d.]+ s; /healthz: \d+ answers, 0 not 200\n  " + latency, out, re.M), out


def test_the_percentiles_are_the_nearest_ranks() -> None:
    figures = Figures([i / 1000 for i in range(100, 0, -1)], failures=0, moves=1, pass_seconds=1.0)
    assert figures.percentile(0.5) == 0.050 and figures.percentile(0.99) == 0.099 and figures.percentile(1.0) == 0.1
    assert Figures([], 0, 0, 0.0).lines() == ["no /healthz answer came back"]


@pytest.mark.parametrize(
    "argv", [["--games", "0"], ["--seconds", "0"], ["--interval-ms", "0"], ["--idle-seconds", "-1"]]
)
def test_bad_options_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and "healthz" in capsys.readouterr().err
