"""Finding, loading and sharing compiled lexicons by ruleset.

Search path, first match wins: the directories given (by default the user's lexicon directory,
``$WORDFEUD_BOT_DATA/lexicons`` or ``$XDG_DATA_HOME/wordfeud-bot/lexicons`` or
``~/.local/share/wordfeud-bot/lexicons``, holding ``<code>.dawg`` files such as ``nb.dawg``),
then the lexicons shipped inside this package. Each file is loaded once per registry.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dictionaries import bundled_path
from dictionaries.sources import source_for
from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset


class MissingLexiconError(LexiconError):
    """No lexicon is installed for a ruleset; the message says which command builds one."""


def user_lexicon_dir() -> Path:
    """Where ``dict build`` writes lexicons and the registry looks first."""
    if base := os.environ.get("WORDFEUD_BOT_DATA"):
        return Path(base) / "lexicons"
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "wordfeud-bot" / "lexicons"


def user_lexicon_path(ruleset: Ruleset, directory: Path | None = None) -> Path:
    """The file a ruleset's user-built lexicon has, e.g. ``.../lexicons/nb.dawg``."""
    return (directory or user_lexicon_dir()) / f"{ruleset.code}.dawg"


@dataclass(frozen=True)
class Found:
    """A lexicon file found for a ruleset, and whether it is one shipped with the package."""

    path: Path
    shipped: bool


class LexiconRegistry:
    """Compiled lexicons by ruleset id, found on a search path and loaded once."""

    def __init__(self, search_path: Sequence[Path] | None = None) -> None:
        self.search_path = [Path(p) for p in search_path] if search_path is not None else [user_lexicon_dir()]
        self._loaded: dict[Path, Dawg] = {}

    def find(self, ruleset_id: int) -> Found | None:
        """The file that would be loaded for this ruleset, or None."""
        ruleset = Ruleset.for_id(ruleset_id)
        for directory in self.search_path:
            path = user_lexicon_path(ruleset, directory)
            if path.is_file():
                return Found(path, shipped=False)
        shipped = source_for(ruleset_id).shipped
        if shipped:
            try:
                return Found(bundled_path(shipped), shipped=True)
            except FileNotFoundError:
                return None
        return None

    def get(self, ruleset_id: int) -> Dawg:
        """The lexicon of a ruleset, loaded on first use and shared afterwards.

        Raises MissingLexiconError, naming the command that builds one, when there is none, and
        LexiconError when the file found is corrupt.
        """
        found = self.find(ruleset_id)
        if found is None:
            source = source_for(ruleset_id)
            rules = source.ruleset
            where = ", ".join(str(d) for d in self.search_path) or "no directory"
            raise MissingLexiconError(
                f"no lexicon for ruleset {rules.id} ({rules.name}) in {where}; build one with: {source.build_command}"
            )
        if found.path not in self._loaded:
            self._loaded[found.path] = Dawg.load(found.path, Ruleset.for_id(ruleset_id).alphabet)
        return self._loaded[found.path]

    def check(self, ruleset_id: int) -> tuple[bool, str]:
        """Load a ruleset's lexicon to see that it is usable: (True, "PATH (N words)") or (False, the problem).

        A file that is found but truncated or corrupt is a problem, not a lexicon: ``check-config``
        and ``dict list`` both say so instead of reporting it as fine."""
        try:
            found = self.find(ruleset_id)
            if found is None:
                return False, f"missing; build with: {source_for(ruleset_id).build_command}"
            words = len(self.get(ruleset_id))
        except LexiconError as exc:
            return False, f"unreadable: {exc}"
        kind = "shipped" if found.shipped else "built"
        return True, f"{kind}: {found.path} ({words:,} words)"
