"""Plain word lists inside npm package tarballs (``dict build --npm NAME[@VERSION]``).

A package is a tarball with ``package/package.json`` (name, version, licence) and, for a word
list such as ``word-list``, a text file of one word per line (``package/words.txt``). The list
file is the one named, or else the only ``.txt`` / ``.txt.gz`` file of the package that is not a
licence or read-me. The licence file inside the tarball is read too, and its first line reported:
the ``license`` field of package.json is what the author typed, the file is what ships.
"""

from __future__ import annotations

import json
import tarfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from dictionaries.npmpack import NpmError
from dictionaries.wordlist import WordList, parse_word_list
from engine.errors import LexiconError

#: File names (lower case, without extension) that are never the word list.
_NOT_LISTS = ("license", "licence", "copying", "readme", "changelog", "notice", "authors")
_LIST_SUFFIXES = (".txt", ".txt.gz")


@dataclass(frozen=True)
class NpmWordList:
    """A package's identity, its licence as package.json and the licence file state it, and its words."""

    name: str
    version: str
    licence: str
    licence_file: str | None
    licence_first_line: str
    file: str
    words: WordList

    def text(self) -> str:
        """One line for the build report."""
        shipped = f"{self.licence_file}: {self.licence_first_line!r}" if self.licence_file else "no licence file"
        return (
            f"{self.name} {self.version} (package.json: {self.licence}; {shipped}), {self.file}: "
            f"{len(self.words.words):,} lines"
        )


def _is_licence(name: PurePosixPath) -> bool:
    return name.parent == PurePosixPath("package") and name.name.lower().split(".")[0] in _NOT_LISTS[:3]


def read_npm_list(path: Path, file: str | None = None, encoding: str | None = None) -> NpmWordList:
    """Read the word list of a package tarball: ``file`` (a path inside ``package/``) or the only list there.

    Raises NpmError naming the tarball and what is wrong: not a package, no list or several (with
    their names, to pick one with ``--npm-file``), a list that cannot be decoded."""
    try:
        with tarfile.open(path, "r:*") as archive:
            members = {PurePosixPath(m.name): m for m in archive.getmembers() if m.isfile()}
            meta_member = members.get(PurePosixPath("package/package.json"))
            if meta_member is None:
                raise NpmError(f"{path}: not an npm package: no package/package.json")
            if file is not None:
                wanted = PurePosixPath("package") / file.removeprefix("package/")
                if wanted not in members:
                    raise NpmError(f"{path}: no file {file!r} in the package; it has: {_names(members)}")
                chosen = wanted
            else:
                lists = sorted(
                    n for n in members
                    if n.name.lower().endswith(_LIST_SUFFIXES) and n.name.lower().split(".")[0] not in _NOT_LISTS
                )
                if len(lists) != 1:
                    found = ", ".join(str(n) for n in lists) or "none"
                    raise NpmError(
                        f"{path}: cannot tell which file is the word list (.txt or .txt.gz files: {found}); "
                        f"name it with --npm-file (the package has: {_names(members)})"
                    )
                chosen = lists[0]
            meta = json.loads(_read(archive, meta_member))
            data = _read(archive, members[chosen])
            licence_name = next((n for n in sorted(members) if _is_licence(n)), None)
            licence_text = _read(archive, members[licence_name]).decode("utf-8", "replace") if licence_name else ""
    except (OSError, tarfile.TarError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise NpmError(f"{path}: cannot read the package: {exc}") from None
    if not isinstance(meta, dict):
        raise NpmError(f"{path}: package/package.json is not an object")
    name, version = str(meta.get("name", "?")), str(meta.get("version", "?"))
    file_name = str(chosen).removeprefix("package/")
    try:
        words = parse_word_list(data, Path(f"{name}@{version}/{file_name}"), encoding)
    except LexiconError as exc:
        raise NpmError(f"{path}: {exc}") from None
    first_line = next((line.strip() for line in licence_text.splitlines() if line.strip()), "")
    return NpmWordList(
        name, version, str(meta.get("license") or "licence not stated"),
        str(licence_name).removeprefix("package/") if licence_name else None, first_line, file_name, words,
    )


def _names(members: dict[PurePosixPath, tarfile.TarInfo]) -> str:
    return ", ".join(str(n).removeprefix("package/") for n in sorted(members))


def _read(archive: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    handle = archive.extractfile(member)
    if handle is None:
        raise NpmError(f"{member.name} cannot be read from the package")
    with handle:
        return handle.read()
