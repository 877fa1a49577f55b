"""Building a lexicon: the minimal DAWG of a word list, and its layout in the flat arrays that
``engine.lexicon.dawg.Dawg`` searches.

Words are added in sorted order; each time a word leaves the path of the one before, the nodes of
that path's tail are minimised (replaced by an equal node already registered: same finality, same
edges to the same children), so the graph is minimal when the last word is in. The nodes are then
laid out breadth-first, so that those near the root (the hot ones) sit together. This is the one
part of the lexicon that works on node objects; everything after it (queries, copies with words
added or removed, the file) works on the arrays, in ``engine.lexicon.dawg`` and ``engine.lexicon.dawgfile``.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.errors import LexiconError
from engine.rules.tiles import Alphabet

Word = Sequence[int]


@dataclass(frozen=True)
class BuiltArrays:
    """A built lexicon's arrays (``child``, ``mask``, ``ends``: see ``engine.lexicon.dawg``), its word count and
    the checksum of its source words."""

    child: array[int]
    mask: array[int]
    ends: array[int]
    word_count: int
    checksum: bytes


def source_checksum(words: Iterable[Word]) -> bytes:
    """SHA-256 of a sorted, de-duplicated word list in tile codes: identifies a lexicon's source."""
    digest = hashlib.sha256()
    for word in words:
        digest.update(bytes(word))
        digest.update(b"\xff")
    return digest.digest()


class _BuildNode:
    __slots__ = ("edges", "final", "id")

    def __init__(self) -> None:
        self.edges: dict[int, _BuildNode] = {}
        self.final = False
        self.id = -1


def build_minimal(
    words: Iterable[Word],
    alphabet: Alphabet,
    *,
    progress: Callable[[int], None] | None = None,
) -> BuiltArrays:
    """Build the minimal DAWG of a word list (any order; duplicates ignored).

    Words are tuples of letter codes of ``alphabet``; a code outside it raises LexiconError.
    ``progress``, if given, is called with the number of words done every 10,000 words.
    """
    letters = len(alphabet)
    unique = sorted({tuple(w) for w in words})
    for word in unique:
        if not word:
            raise LexiconError("the word list contains an empty word")
        if min(word) < 0 or max(word) >= letters:
            raise LexiconError(f"word {word!r} has a code outside the alphabet (0..{letters - 1})")
    root = _BuildNode()
    register: dict[tuple[bool, tuple[tuple[int, int], ...]], _BuildNode] = {}
    # the path of the word just added: (parent, letter, child) not yet registered
    path: list[tuple[_BuildNode, int, _BuildNode]] = []
    counter = [0]

    def minimize(down_to: int) -> None:
        while len(path) > down_to:
            parent, letter, node = path.pop()
            key = (node.final, tuple((lt, ch.id) for lt, ch in node.edges.items()))
            existing = register.get(key)
            if existing is not None:
                parent.edges[letter] = existing
            else:
                node.id = counter[0]
                counter[0] += 1
                register[key] = node

    previous: tuple[int, ...] = ()
    for done, word in enumerate(unique, 1):
        common = 0
        limit = min(len(word), len(previous))
        while common < limit and word[common] == previous[common]:
            common += 1
        minimize(common)
        node = path[-1][2] if path else root
        for letter in word[common:]:
            nxt = _BuildNode()
            node.edges[letter] = nxt
            path.append((node, letter, nxt))
            node = nxt
        node.final = True
        previous = word
        if progress is not None and done % 10_000 == 0:
            progress(done)
    minimize(0)
    if progress is not None:
        progress(len(unique))
    return _pack(root, len(unique), source_checksum(unique))


def _pack(root: _BuildNode, word_count: int, checksum: bytes) -> BuiltArrays:
    # Lay nodes out breadth-first so that nodes near the root (the hot ones) sit together.
    order: list[_BuildNode] = []
    position: dict[int, int] = {}
    queue = [root]
    seen = {id(root)}
    while queue:
        nxt: list[_BuildNode] = []
        for node in queue:
            order.append(node)
            for ch in node.edges.values():
                if id(ch) not in seen:
                    seen.add(id(ch))
                    nxt.append(ch)
        queue = nxt
    offset = 0
    sink_nodes = []
    for node in order:
        if node.edges:
            position[id(node)] = offset
            offset += len(node.edges)
        else:
            sink_nodes.append(node)
    edge_count = offset
    for node in sink_nodes:
        position[id(node)] = edge_count
    child = array("I", bytes(4 * edge_count))
    mask = array("I", bytes(4 * (edge_count + 1)))
    ends = array("I", bytes(4 * (edge_count + 1)))
    for node in order:
        if not node.edges:
            continue
        base = position[id(node)]
        m = e = 0
        for i, (letter, ch) in enumerate(node.edges.items()):
            child[base + i] = position[id(ch)]
            m |= 1 << letter
            if ch.final:
                e |= 1 << letter
        mask[base] = m
        ends[base] = e
    return BuiltArrays(child, mask, ends, word_count, checksum)
