"""Where each ruleset's lexicon comes from: shipped file, Debian word list, npm ``@cspell/dict-*``
package, npm plain word-list package, better lists (data/sources.toml)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from engine.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Source:
    """The known sources of one ruleset's word list."""

    ruleset: Ruleset
    shipped: str | None = None
    debian_package: str | None = None
    debian_file: Path | None = None
    debian_licence: str | None = None
    cspell_package: str | None = None
    cspell_version: str | None = None
    cspell_licence: str | None = None
    #: a plain word-list package of the npm registry (``dict build CODE --npm``), its version,
    #: licence (its licence file's), the list file inside it, and shipped lists merged into it
    npm_package: str | None = None
    npm_version: str | None = None
    npm_licence: str | None = None
    npm_file: str | None = None
    npm_add: tuple[str, ...] = ()
    #: "cspell" or "debian": the source ``dict list`` proposes first (the better one, as measured)
    preferred: str = "debian"
    better: str | None = None

    @property
    def build_command(self) -> str:
        """The command that builds this ruleset's lexicon on the user's machine: for a Debian list, the
        package to install first only when its file is not there yet."""
        if self.cspell_package and (self.preferred == "cspell" or not self.debian_package):
            return (
                f"wordfeud-bot dict build {self.ruleset.code} --cspell   "
                f"(fetches {self.cspell_package} {self.cspell_version} with npm)"
            )
        if self.debian_package:
            command = f"wordfeud-bot dict build {self.ruleset.code} --debian"
            if self.debian_file is not None and self.debian_file.is_file():
                return f"{command}   (from {self.debian_file}, installed)"  # nothing to install first
            return f"{command}   (after: sudo apt-get install {self.debian_package})"
        return f"wordfeud-bot dict build {self.ruleset.code} YOUR-WORD-LIST.txt"


@cache
def source_for(ruleset_id: int) -> Source:
    """The sources of the ruleset with this id (its standard-board form)."""
    ruleset = Ruleset.for_id(ruleset_id)
    entry = _table().get(ruleset.code, {})
    debian = entry.get("debian") or {}
    cspell = entry.get("cspell") or {}
    npm = entry.get("npm") or {}
    return Source(
        ruleset,
        shipped=entry.get("shipped"),
        debian_package=debian.get("package"),
        debian_file=Path(debian["file"]) if "file" in debian else None,
        debian_licence=debian.get("licence"),
        cspell_package=cspell.get("package"),
        cspell_version=cspell.get("version"),
        cspell_licence=cspell.get("licence"),
        npm_package=npm.get("package"),
        npm_version=npm.get("version"),
        npm_licence=npm.get("licence"),
        npm_file=npm.get("file"),
        npm_add=tuple(npm.get("add", ())),
        preferred=str(entry.get("preferred", "debian")),
        better=entry.get("better"),
    )


@cache
def _table() -> dict[str, dict[str, Any]]:
    raw = resources.files("dictionaries").joinpath("data", "sources.toml").read_text(encoding="utf-8")
    return tomllib.loads(raw)
