"""Files written whole or not at all: a crash, an error or a stop signal never leaves half a file.

``write_whole`` writes beside the target under ``NAME.partial`` and renames it over the target in
one step (``os.replace``, atomic on one file system); if anything interrupts it, even a
``BaseException`` such as ``KeyboardInterrupt``, the partial file is removed and the target is as
it was. Its OSError names the target, not the partial file, and says why in words when it can
(``why_unwritable``).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def partial_path(path: Path) -> Path:
    """Where ``write_whole`` writes before renaming: beside the target."""
    return path.with_name(path.name + ".partial")


def why_unwritable(path: Path) -> str | None:
    """Why no file can be made at ``path``, in words, when its place is the cause: it is a directory, a
    file stands where a directory should, or its directory does not exist; None otherwise."""
    if path.is_dir():
        return "it is a directory"
    for above in path.parents:  # the nearest first
        if above.exists():
            if not above.is_dir():
                return f"{above} is not a directory"
            return None if above == path.parent else f"there is no directory {path.parent}"
    return None


def write_whole(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all; OSError naming ``path`` (never the
    partial file) when it cannot be written, its ``strerror`` saying why."""
    target = Path(path)
    partial = partial_path(target)
    try:
        if isinstance(data, bytes):
            partial.write_bytes(data)
        else:
            partial.write_text(data, encoding="utf-8")
        os.replace(partial, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        reason = why_unwritable(target) or exc.strerror or str(exc)
        raise OSError(exc.errno, reason, str(target)) from None  # the subclass of the errno
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise


__all__ = ["partial_path", "why_unwritable", "write_whole"]
