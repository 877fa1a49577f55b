"""Files written whole or not at all: a crash, an error or a stop signal never leaves half a file.

``write_whole`` writes beside the target under ``NAME.partial`` and renames it over the target in
one step (``os.replace``, atomic on one file system); if anything interrupts it, even a
``BaseException`` such as ``KeyboardInterrupt``, the partial file is removed and the target is as
it was.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def partial_path(path: Path) -> Path:
    """Where ``write_whole`` writes before renaming: beside the target."""
    return path.with_name(path.name + ".partial")


def write_whole(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all; OSError when it cannot be written."""
    target = Path(path)
    partial = partial_path(target)
    try:
        if isinstance(data, bytes):
            partial.write_bytes(data)
        else:
            partial.write_text(data, encoding="utf-8")
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise


__all__ = ["partial_path", "write_whole"]
