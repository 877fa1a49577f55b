"""Word lists shipped with the package, and the lexicons compiled from them.

Names are paths relative to this package, e.g. ``en/enable.txt.gz``. The compiled ``.dawg``
files are made by ``wordfeud-bot dict build`` (see README.md).

>>> bundled_path(ENGLISH_WORDS).name
'enable.txt.gz'
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

#: The English word list (ENABLE, public domain), gzipped, one word per line.
ENGLISH_WORDS = "en/enable.txt.gz"
#: The English lexicon compiled from ``ENGLISH_WORDS``: ruleset 0's (see ``en/README.md``).
ENGLISH_DAWG = "en/enable.dawg"
#: Ruleset 5's lexicon: npm ``word-list`` 4.1.0 (MIT) merged with ENABLE (see ``en/README.md``).
INTERNATIONAL_ENGLISH_DAWG = "en/word-list.dawg"

_ROOT = Path(__file__).resolve().parent


def bundled_path(name: str) -> Path:
    """The path of a file shipped inside this package, such as ``ENGLISH_DAWG``.

    Raises ValueError for a name that is absolute or leaves the package, and FileNotFoundError
    naming the file when it is not there.
    """
    relative = PurePosixPath(name)
    if not name or relative.is_absolute() or ".." in relative.parts:
        raise ValueError(f"bundled file name must be a relative path inside the package, got {name!r}")
    path = _ROOT.joinpath(*relative.parts)
    if not path.is_file():
        hint = " (see dictionaries/README.md for the command that builds it)" if path.suffix == ".dawg" else ""
        raise FileNotFoundError(f"bundled dictionary file {name!r} not found at {path}{hint}")
    return path
