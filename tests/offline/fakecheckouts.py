"""Fake checkouts for the tools that time two checkouts (``offline.bench.abtime``, ``offline.bench.speedup``): a
directory with an ``engine/equity/strategy.py`` (``engine/strategy.py`` in a ``flat`` one, as checkouts were before
2026-12-07) and a ``.venv/bin/python`` that is a shell script. It answers the engine probe
(``-c``) as the test wrote it, prints the lines the test chose for any other run, and notes in a shared log which
checkout ran with what, so that the order of the runs shows."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path


def fake_checkout(
    root: Path,
    log: Path,
    lines: Sequence[str],
    *,
    generator: str = "native",
    engine_at: str = "",
    status: int = 0,
    flat: bool = False,
) -> Path:
    """A checkout at ``root`` whose Python reports ``generator`` and its engine at ``engine_at`` (default: its
    own), and whose other runs print ``lines`` and a warning on stderr, and end with ``status``."""
    marker = root / "engine" / ("strategy.py" if flat else "equity/strategy.py")
    marker.parent.mkdir(parents=True)
    marker.write_text("", encoding="utf-8")
    if not flat:
        (root / "offline" / "bench").mkdir(parents=True)
        (root / "offline" / "bench" / "endgames.py").write_text("", encoding="utf-8")
    python = root / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    where = engine_at or f"{root}/engine/__init__.py"
    printed = " ".join(f"'{line}'" for line in lines)
    python.write_text(
        textwrap.dedent(f"""\
            #!/bin/sh
            if [ "$1" = "-c" ]; then printf '%s\\n%s\\n' '{where}' '{generator}'; exit 0; fi
            echo "{root.name} $PYTHONPATH $*" >> '{log}'
            printf '%s\\n' {printed}
            echo 'a warning on stderr' >&2
            exit {status}
            """),
        encoding="utf-8",
    )
    python.chmod(0o755)
    return root
