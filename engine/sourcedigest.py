"""The digest of the C extension's sources, built into ``engine._native`` and compared at import.

An editable install that is rebuilt after the C sources changed keeps the old extension when the new
one does not compile (the build is optional, so pip reports success): without a check the engine would
then run C code older than its Python, with other results. ``setup.py`` compiles this digest into the
extension (``engine._native.SOURCE_DIGEST``), and ``engine.native`` does not use an extension whose
digest differs from that of the sources beside it. An installed wheel has no sources beside it: no check.
"""

from __future__ import annotations

from hashlib import sha256
from pathlib import Path

#: Where the C sources live in a checkout.
SOURCES = Path(__file__).resolve().with_name("csrc")


def source_digest(folder: Path = SOURCES) -> str | None:
    """The first 16 hex digits of SHA-256 over the paths (relative to ``folder``) and bytes of the ``.c``
    and ``.h`` files in ``folder`` and its subfolders, in path order; None when there are none (an
    installed wheel).

    >>> source_digest(Path("/nonexistent")) is None
    True
    """
    files = (
        sorted(
            (path.relative_to(folder).as_posix(), path)
            for path in folder.rglob("*")
            if path.suffix in {".c", ".h"} and path.is_file()
        )
        if folder.is_dir()
        else []
    )
    if not files:
        return None
    digest = sha256()
    for name, path in files:
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
