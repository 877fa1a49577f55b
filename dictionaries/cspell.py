"""Word lists from the npm registry's ``@cspell/dict-*`` packages, fetched on the user's machine.

A package is a tarball (``package/package.json`` with its name, version and licence, and a trie
file ``*.trie`` or ``*.trie.gz`` in cspell's ``TrieXv3`` text format). The format is a stream that
walks a trie depth first: a character goes down to a new node, ``$`` marks the node as the end of
a word and goes up one, ``<`` goes up one and a digit ``d`` after ``$`` or ``<`` goes up ``d - 1``
more, ``\\`` takes the next character as a letter, ``#n;`` (``n`` in the file's base) makes the
edge just read point to node ``n + 1`` of those made so far (node 0 is the root, node 1 the shared
end of every word), and line breaks mean nothing. Entries starting with ``~`` (case-folded
copies), ``!`` (forbidden words) or holding ``+`` (parts of compounds) are not words to play.

>>> trie = "TrieXv3\\nbase=10\\n__DATA__\\nbats$$<<cat#3;\\n"
>>> sorted(trie_entries(trie))
['bat', 'bats', 'cat', 'cats']
"""

from __future__ import annotations

import gzip
import json
import tarfile
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from dictionaries import npmpack

#: Skipped entries, by the mark that says they are not playable words.
FOLDED, FORBIDDEN, COMPOUND = "case-folded copy (~)", "forbidden word (!)", "part of a compound (+)"
_BACK_DIGITS = "23456789"


class CspellError(npmpack.NpmError):
    """A cspell package that cannot be fetched or read; the message says what is missing."""


@dataclass
class CspellPackage:
    """A package's identity, its trie file, the words it holds and the entries left out."""

    name: str
    version: str
    licence: str
    trie: str
    words: list[str]
    skipped: Counter[str] = field(default_factory=Counter)

    def text(self) -> str:
        """One line for the build report."""
        left = ", ".join(f"{n:,} {why}" for why, n in self.skipped.most_common()) or "none"
        return f"{self.name} {self.version} ({self.licence}), {self.trie}: {len(self.words):,} words; left out {left}"


def trie_entries(text: str) -> Iterator[str]:
    """Every entry of a ``TrieXv3`` trie, in the order of the trie; CspellError for another format."""
    header, marker, body = text.partition("__DATA__")
    lines = [line.strip() for line in header.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not marker or not lines or lines[0] != "TrieXv3":
        found = lines[0] if lines else "no header"
        raise CspellError(f"not a cspell TrieXv3 trie (header: {found[:40]!r})")
    base = 10
    for line in lines[1:]:
        if line.startswith("base="):
            try:
                base = int(line[5:])
            except ValueError:
                raise CspellError(f"trie header: bad {line!r}") from None
    children: list[dict[str, int]] = [{}, {}]
    final = [False, True]
    end_of_word = 1
    # the nodes in the order the format numbers them: made, and not undone by "$" on a leaf or a reference
    numbered = [0, 1]
    path = [0]  # the nodes from the root down to the current one
    chars: list[str] = []
    i, size = 0, len(body)

    def up(count: int) -> None:
        if count > len(chars):
            raise CspellError(f"trie: going up {count} from depth {len(chars)} at character {i}")
        del path[len(path) - count :], chars[len(chars) - count :]

    def new_node(is_final: bool) -> int:
        children.append({})
        final.append(is_final)
        numbered.append(len(children) - 1)
        return len(children) - 1

    try:
        while i < size:
            ch = body[i]
            i += 1
            if ch in "\r\n":
                continue
            if ch in {"$", "<"}:
                if ch == "$":
                    node = path[-1]
                    if children[node]:
                        final[node] = True
                    elif node != end_of_word:  # a leaf: its edge goes to the shared end node instead
                        children[path[-2]][chars[-1]] = end_of_word
                        if numbered[-1] == node:
                            numbered.pop()
                up(1)
                while i < size and (body[i] == "<" or body[i] in _BACK_DIGITS):
                    up(1 if body[i] == "<" else int(body[i]) - 1)
                    i += 1
                continue
            if ch == "#":
                end = body.index(";", i)
                number = int(body[i:end], base) + 1
                i = end + 1
                if not 0 < number < len(numbered) or not chars:
                    raise CspellError(f"trie: reference to node {number} at character {i}")
                children[path[-2]][chars[-1]] = numbered[number]
                path[-1] = numbered[number]
                numbered.pop()  # the node the edge led to is replaced, and loses its number
                continue
            if ch == "\\":
                ch = {"n": "\n", "r": "\r"}.get(body[i], body[i])
                i += 1
            node = path[-1]
            if node == end_of_word:  # a word that goes on: it gets its own node
                node = new_node(True)
                children[path[-2]][chars[-1]] = node
                path[-1] = node
            nxt = children[node].get(ch)
            if nxt is None:
                nxt = new_node(False)
                children[node][ch] = nxt
            else:
                numbered.append(nxt)
            path.append(nxt)
            chars.append(ch)
    except (IndexError, ValueError) as exc:
        raise CspellError(f"trie: corrupt data near character {i}: {exc}") from None
    prefix: list[str] = []
    stack = [iter(children[0].items())]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if prefix:
                prefix.pop()
            continue
        ch, node = step
        prefix.append(ch)
        if final[node]:
            yield "".join(prefix)
        stack.append(iter(children[node].items()))


def playable(entries: Iterator[str]) -> tuple[list[str], Counter[str]]:
    """The entries that are words, and how many others were left out, by mark."""
    words: list[str] = []
    skipped: Counter[str] = Counter()
    for entry in entries:
        if entry.startswith("~"):
            skipped[FOLDED] += 1
        elif entry.startswith("!"):
            skipped[FORBIDDEN] += 1
        elif "+" in entry:
            skipped[COMPOUND] += 1
        else:
            words.append(entry)
    return words, skipped


def read_package(path: Path) -> CspellPackage:
    """Read a package tarball (``.tgz``): its identity from package.json and the words of its trie.

    Raises CspellError naming the file and what is wrong with it."""
    try:
        with tarfile.open(path, "r:*") as archive:
            members = {PurePosixPath(m.name): m for m in archive.getmembers() if m.isfile()}
            meta_member = members.get(PurePosixPath("package/package.json"))
            tries = sorted(str(n) for n in members if n.name.endswith((".trie", ".trie.gz")))
            if meta_member is None or len(tries) != 1:
                what = "no package/package.json" if meta_member is None else f"{len(tries)} trie files ({tries})"
                raise CspellError(f"{path}: not a cspell dictionary package: {what}")
            meta = json.loads(_read(archive, meta_member))
            raw = _read(archive, members[PurePosixPath(tries[0])])
    except (OSError, tarfile.TarError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CspellError(f"{path}: cannot read the package: {exc}") from None
    try:
        data = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
        text = data.decode("utf-8")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise CspellError(f"{path}: trie {tries[0]} cannot be unpacked: {exc}") from None
    words, skipped = playable(trie_entries(text))
    licence = meta.get("license") or "licence not stated"
    return CspellPackage(
        str(meta.get("name", "?")), str(meta.get("version", "?")), str(licence), tries[0].removeprefix("package/"),
        words, skipped,
    )


def _read(archive: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    handle = archive.extractfile(member)
    if handle is None:
        raise CspellError(f"{member.name} cannot be read from the package")
    with handle:
        return handle.read()


def fetch(package: str, version: str | None, directory: Path, *, npm: str | None = None) -> Path:
    """Download ``package`` (``@cspell/dict-es-es``) at ``version`` (None: the latest) into
    ``directory`` with ``npm pack`` and return the tarball (``npmpack.fetch``).

    Raises CspellError saying what is missing: npm itself, or the package from the registry
    (with npm's own words: offline, unknown version, ...)."""
    return npmpack.fetch(
        package, version, directory, npm=npm, local_option="--cspell-package FILE", error=CspellError
    )
