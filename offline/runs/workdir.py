"""A work directory of a long offline run (``arena``, ``learn-leaves``): a manifest of its settings and
one result file per finished chunk, each written whole.

An interrupted run loses at most the chunks in progress; running the same command again does only
what is missing. Asking a directory made with other settings to go on is an error naming the
differences, not a mix of incomparable results.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.wholefile import write_whole
from offline.errors import WorkDirError

MANIFEST = "manifest.json"


def prepare(work: Path, wanted: dict[str, object], defaults: dict[str, object] | None = None) -> None:
    """Create the work directory with its manifest, or check an existing one has the same settings;
    ``defaults`` are the values of settings added later, which a manifest written before lacks."""
    blocking = next((p for p in (work, *work.parents) if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        where = "" if blocking == work else f" ({blocking} is a file)"
        raise WorkDirError(f"--work {work} is not a directory{where}; give a directory for the run's files")
    try:
        work.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WorkDirError(f"--work {work}: cannot make the directory: {error.strerror or error}") from None
    manifest = work / MANIFEST
    if manifest.exists():
        found = read_manifest(work)
        different = [
            f"{key} {seen!r} (asked {value!r})"
            for key, value in wanted.items()
            if (seen := found.get(key, (defaults or {}).get(key))) != value
        ]
        if different:
            raise WorkDirError(
                f"{work} holds results made with other settings: {', '.join(different)}; use another --work"
            )
        return
    write_whole(manifest, json.dumps(wanted, indent=1) + "\n")


def read_manifest(work: Path) -> dict[str, object]:
    """The settings a work directory was made with."""
    manifest = work / MANIFEST
    if not manifest.exists():
        raise WorkDirError(f"{work} is not a work directory: it has no {MANIFEST}")
    try:
        found = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise WorkDirError(f"cannot read {manifest}: {error}") from None
    if not isinstance(found, dict):
        raise WorkDirError(f"{manifest} is not a manifest (a JSON object)")
    return found


__all__ = ["MANIFEST", "prepare", "read_manifest", "write_whole"]
