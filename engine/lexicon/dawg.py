"""The compressed lexicon: a minimal DAWG packed into flat integer arrays, saved as a binary file.

Layout in memory: three flat sequences of ints (a node's id is the index of its first edge). On
disk they are ``uint32`` arrays. In memory they are lists when the pure-Python generator runs the
search (CPython reads a list element without boxing a new int, which makes its hot loop about 7%
faster than over ``array``) and ``array('I')`` when the C generator does: 4 bytes a value instead
of a list's 8-byte pointer plus, for values over 256, a 28-byte int (``compact_arrays``):

* ``child[e]``: the node an edge leads to. Edges of a node are consecutive, sorted by letter.
* ``mask[n]``: bit ``l`` set when node ``n`` has an edge for letter ``l``.
* ``ends[n]``: bit ``l`` set when following letter ``l`` from ``n`` completes a word.

The child along letter ``l`` is ``child[n + popcount(mask[n] & ((1 << l) - 1))]``. The single node
without edges (every word's last state) has id ``len(child)``.

File: a fixed header (magic, format version, sizes, word count, CRC-32 of the payload,
SHA-256 of the source word list), the alphabet's symbols, then the zlib-compressed arrays.

This module holds the lexicon as it is searched and changed: the queries, the copies with words
removed or added, and the check of loaded arrays. Building the minimal graph from a word list is
``engine.lexicon.dawgbuild``'s; writing and reading the file's bytes is ``engine.lexicon.dawgfile``'s.

>>> from engine.rules.ruleset import Ruleset
>>> en = Ruleset.for_id(5).alphabet
>>> lex = Dawg.build([en.parse_word(w) for w in ["CAT", "CATS", "CAR", "DOG"]], en)
>>> len(lex), lex.contains(en.parse_word("CARS")), lex.contains(en.parse_word("CATS"))
(4, False, True)
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TypeAlias

from engine import native
from engine.errors import LexiconError
from engine.lexicon.dawgbuild import Word, build_minimal, source_checksum
from engine.lexicon.dawgfile import FORMAT_VERSION, MAGIC, FileContents, decode, encode
from engine.rules.tiles import LETTER_MASK, Alphabet
from engine.wholefile import write_whole

#: How a lexicon holds its arrays in memory: lists or ``array('I')`` (see the module's docstring).
Ints: TypeAlias = "list[int] | array[int]"  # a string: array is not subscriptable at run time before 3.12


class Dawg:
    """A read-only word list in tile codes; shared by every game of one ruleset."""

    __slots__ = ("alphabet", "checksum", "child", "derived", "ends", "mask", "native", "root", "word_count")

    def __init__(
        self,
        alphabet: Alphabet,
        child: Sequence[int],
        mask: Sequence[int],
        ends: Sequence[int],
        word_count: int,
        checksum: bytes,
    ) -> None:
        self.alphabet = alphabet
        self.child: Ints = _storage(child)
        self.mask: Ints = _storage(mask)
        self.ends: Ints = _storage(ends)
        self.root = 0
        self.word_count = word_count
        self.checksum = checksum
        #: True for a lexicon made by ``without``: not minimal, and never saved.
        self.derived = False
        #: The C move generator's copy of the arrays (``engine.native.lexicon``), made on first use.
        self.native: object | None = None

    def __len__(self) -> int:
        return self.word_count

    def __repr__(self) -> str:
        return f"Dawg({self.word_count} words, {len(self.child)} edges)"

    # -- building -------------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        words: Iterable[Word],
        alphabet: Alphabet,
        *,
        progress: Callable[[int], None] | None = None,
    ) -> Dawg:
        """Build the minimal DAWG of a word list (any order; duplicates ignored).

        Words are tuples of letter codes of ``alphabet``; a code outside it raises LexiconError.
        ``progress``, if given, is called with the number of words done every 10,000 words.
        """
        built = build_minimal(words, alphabet, progress=progress)
        return cls(alphabet, built.child, built.mask, built.ends, built.word_count, built.checksum)

    # -- queries ------------------------------------------------------------------------------

    def step(self, node: int, letter: int) -> int:
        """The node after following ``letter`` from ``node``, or -1 if there is no such edge."""
        m = self.mask[node]
        bit = 1 << letter
        if not m & bit:
            return -1
        return self.child[node + (m & (bit - 1)).bit_count()]

    def walk(self, node: int, letters: Iterable[int]) -> int:
        """The node after following a sequence of letters, or -1 if it leaves the DAWG."""
        mask, child = self.mask, self.child
        for letter in letters:
            m = mask[node]
            bit = 1 << letter
            if not m & bit:
                return -1
            node = child[node + (m & (bit - 1)).bit_count()]
        return node

    def contains(self, word: Word) -> bool:
        """True if the word (letter codes; blank flags ignored) is in the lexicon."""
        if not word:
            return False
        node = self.walk(self.root, [c & 63 for c in word[:-1]])
        return node >= 0 and bool(self.ends[node] >> (word[-1] & 63) & 1)

    def __contains__(self, word: object) -> bool:
        if isinstance(word, str):
            try:
                return self.contains(self.alphabet.parse_word(word))
            except ValueError:
                return False
        if isinstance(word, tuple | list):
            return self.contains(word)
        return False

    def words(self) -> Iterator[tuple[int, ...]]:
        """Every word, in sorted order of codes (a walk with its own stack: no recursion limit)."""
        mask, ends, child = self.mask, self.ends, self.child
        prefix: list[int] = []
        # per node on the path: its next edge, the letters of its edges not yet followed, its ends
        edges = [self.root]
        letters = [mask[self.root]]
        finals = [ends[self.root]]
        while edges:
            m = letters[-1]
            if not m:
                del edges[-1], letters[-1], finals[-1]
                if prefix:
                    prefix.pop()
                continue
            low = m & -m
            letters[-1] = m ^ low
            edge = edges[-1]
            edges[-1] = edge + 1
            prefix.append(low.bit_length() - 1)
            if finals[-1] & low:
                yield tuple(prefix)
            node = child[edge]
            edges.append(node)
            letters.append(mask[node])
            finals.append(ends[node])

    def without(self, words: Iterable[Word]) -> Dawg:
        """A copy of the lexicon lacking these words (letter codes); every other word stays.

        For words the server refused. The nodes on a removed word's path are copied first, so no
        word sharing them loses its end. The copy is not minimal and cannot be saved: keep the
        words and apply them again after loading.

        >>> from engine.rules.ruleset import Ruleset
        >>> en = Ruleset.for_id(5).alphabet
        >>> lex = Dawg.build([en.parse_word(w) for w in ["CAT", "CATS", "BATS"]], en)
        >>> smaller = lex.without([en.parse_word("CATS")])
        >>> [en.format_word(w) for w in smaller.words()], len(smaller)
        (['BATS', 'CAT'], 2)
        """
        child, mask, ends = _copy(self.child), _copy(self.mask), _copy(self.ends)
        child.append(0)  # the sink's index (len(self.child)) must stay edge-less
        removed = 0
        for word in {tuple(c & LETTER_MASK for c in w) for w in words}:
            if not self.contains(word):
                continue
            node = self.root  # only the empty prefix reaches the root: it may be changed in place
            for letter in word[:-1]:
                nm = mask[node]
                edge = node + (nm & ((1 << letter) - 1)).bit_count()
                old = child[edge]
                copy = len(child)
                size = mask[old].bit_count()
                child.extend(child[old : old + size])
                mask.extend([0] * size)
                ends.extend([0] * size)
                mask[copy], ends[copy] = mask[old], ends[old]
                child[edge] = copy
                node = copy
            ends[node] &= ~(1 << word[-1])
            removed += 1
        smaller = Dawg(self.alphabet, child, mask, ends, self.word_count - removed, self.checksum)
        smaller.derived = True
        return smaller

    def with_words(self, words: Iterable[Word]) -> Dawg:
        """A copy of the lexicon that also has these words (letter codes); every other word stays.

        For words the server accepted that the list lacks. The nodes on an added word's path are
        copied (a node that gains an edge moves to the end of the arrays, the root grows in place),
        so no word sharing them gains one. Like ``without``'s copy it is not minimal and is never
        saved; it is the lexicon itself when every word is already in it. Raises LexiconError for an
        empty word or a code outside the alphabet.

        >>> from engine.rules.ruleset import Ruleset
        >>> en = Ruleset.for_id(5).alphabet
        >>> lex = Dawg.build([en.parse_word(w) for w in ["CAT", "BAT"]], en)
        >>> larger = lex.with_words([en.parse_word(w) for w in ["CATS", "ZA"]])
        >>> [en.format_word(w) for w in larger.words()], len(larger)
        (['BAT', 'CAT', 'CATS', 'ZA'], 4)
        """
        letters = len(self.alphabet)
        added = sorted({tuple(c & LETTER_MASK for c in w) for w in words})
        for word in added:
            if not word or max(word) >= letters:
                raise LexiconError(f"cannot add word {word!r}: empty or a code outside the alphabet (0..{letters - 1})")
        added = [word for word in added if not self.contains(word)]
        if not added:
            return self
        child, mask, ends, sink = self._with_root_letters({word[0] for word in added})
        private: set[int] = set()  # nodes copied by this call: only they (and the root) change in place

        def copy_block(node: int, extra: int) -> int:
            """A new block at the end with ``node``'s edges (the sink: none) plus letter ``extra`` (-1: none)."""
            old = mask[node] if node != sink else 0
            edges = list(child[node : node + old.bit_count()]) if node != sink else []
            if extra >= 0:
                edges.insert((old & ((1 << extra) - 1)).bit_count(), sink)
            new = len(child)
            child.extend(edges)
            mask.extend([0] * len(edges))
            ends.extend([0] * len(edges))
            mask[new] = old | (1 << extra if extra >= 0 else 0)
            ends[new] = ends[node] if node != sink else 0
            private.add(new)
            return new

        for word in added:
            node, parent_edge = self.root, -1
            for i, letter in enumerate(word):
                bit = 1 << letter
                if node == sink or not mask[node] & bit:
                    node = copy_block(node, letter)  # never the root: it has every first letter
                    child[parent_edge] = node
                edge = node + (mask[node] & (bit - 1)).bit_count()
                if i == len(word) - 1:
                    ends[node] |= bit
                    break
                target = child[edge]
                if target != sink and target not in private:
                    target = copy_block(target, -1)
                    child[edge] = target
                node, parent_edge = target, edge
        mask.append(0)  # as in a built lexicon, the arrays of nodes are one longer than the edges
        ends.append(0)
        larger = Dawg(self.alphabet, child, mask, ends, self.word_count + len(added), self.checksum)
        larger.derived = True
        return larger

    def _with_root_letters(self, firsts: set[int]) -> tuple[Ints, Ints, Ints, int]:
        """Copies of the arrays (child, mask, ends: one entry each per edge) whose root also has an
        edge for each letter of ``firsts`` (to the sink), and the sink's id.

        The root must stay node 0, so its block grows where it is and every other node moves up by
        the number of letters added."""
        root_mask, root_ends = self.mask[self.root], self.ends[self.root]
        child, mask, ends = _copy(self.child), _copy(self.mask), _copy(self.ends)
        del mask[len(child) :], ends[len(child) :]
        grow = firsts - {letter for letter in range(len(self.alphabet)) if root_mask >> letter & 1}
        if grow:
            size = root_mask.bit_count()
            shift = len(grow)
            new_mask = root_mask | sum(1 << letter for letter in grow)
            sink = len(child) + shift
            moved = [value + shift for value in child]
            codes = range(len(self.alphabet))
            old_edges = dict(zip((c for c in codes if root_mask >> c & 1), moved[:size], strict=True))
            root_edges = [old_edges.get(c, sink) for c in codes if new_mask >> c & 1]
            child = _storage(root_edges + moved[size:])
            mask = _storage([new_mask] + [0] * (size + shift - 1) + list(mask[size:]))
            ends = _storage([root_ends] + [0] * (size + shift - 1) + list(ends[size:]))
        sink = len(child)
        child.append(0)  # the sink's slot: no edges, so its child is never read
        mask.append(0)
        ends.append(0)
        return child, mask, ends, sink

    def memory_bytes(self) -> int:
        """Bytes held by the three arrays (and, for lists, their int objects): the lexicon's memory,
        near enough, without the C generator's copy (12 bytes an edge)."""
        lists = (self.child, self.mask, self.ends)
        seen: set[int] = set()
        total = sum(sys.getsizeof(values) for values in lists)
        for values in lists:
            if isinstance(values, array):
                continue
            for value in values:
                if value > 256 and id(value) not in seen:  # smaller ints are shared by CPython
                    seen.add(id(value))
                    total += sys.getsizeof(value)
        return total

    # -- files ----------------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The binary file contents."""
        if self.derived:
            raise LexiconError("a lexicon with words removed is not saved: save the removed words instead")
        return encode(FileContents(self.child, self.mask, self.ends, self.word_count, self.checksum), self.alphabet)

    def save(self, path: str | Path) -> None:
        """Write the binary file (atomically: a crash never leaves half a file)."""
        write_whole(path, self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes, alphabet: Alphabet, *, name: str = "lexicon") -> Dawg:
        """Read a binary lexicon; raises LexiconError if it is corrupt or for another alphabet."""
        contents = decode(data, alphabet, name=name)
        dawg = cls(alphabet, contents.child, contents.mask, contents.ends, contents.word_count, contents.checksum)
        dawg._check_structure(name)
        return dawg

    @classmethod
    def load(cls, path: str | Path, alphabet: Alphabet) -> Dawg:
        """Load a binary lexicon file; every problem is a LexiconError naming the file."""
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise LexiconError(f"cannot read lexicon {path}: {exc.strerror or exc}") from None
        return cls.from_bytes(data, alphabet, name=str(path))

    def _check_structure(self, name: str) -> None:
        """Check the arrays so that a bad file fails here, not inside a search: the same bounds the C
        generator checks when it copies them (every letter in the alphabet, every node's edges inside
        the arrays, every edge to a node of them), and, for the walks here, that the final state has
        no edges, no word ends on a letter without an edge, and no path from the root comes back to
        a node on it (a cycle would make ``words`` endless). With the C generator, its copy of the arrays
        is made here and does the walk (``_path_problem`` is the reference: the tests compare them)."""
        edges = len(self.child)
        child, mask, ends = self.child, self.mask, self.ends
        if len(mask) != edges + 1 or len(ends) != edges + 1:
            raise LexiconError(f"{name}: the arrays' lengths do not match ({edges} edges)")
        if edges and max(child) > edges:
            raise LexiconError(f"{name}: an edge points outside the lexicon")
        if max(mask, default=0) >> len(self.alphabet) or max(ends, default=0) >> len(self.alphabet):
            raise LexiconError(f"{name}: a letter outside the alphabet")
        # a node has at most one edge per letter, so only the last few can have edges past the end
        for node in range(max(0, edges - len(self.alphabet)), edges + 1):
            if node + mask[node].bit_count() > edges:
                raise LexiconError(f"{name}: node {node} has edges past the end of the arrays")
        if mask[edges] != 0:
            raise LexiconError(f"{name}: the final state has edges")
        if compact_arrays():  # the C generator will search it: its copy checks the paths, in C
            try:
                native.lexicon(self)
            except ValueError as exc:
                raise LexiconError(f"{name}: {exc}") from None
            return
        problem = _path_problem(child, mask, ends, self.root)
        if problem:
            raise LexiconError(f"{name}: {problem}")


def compact_arrays() -> bool:
    """Whether lexicons hold their arrays as ``array('I')``: when the C generator runs the search (it
    copies them once, and the Python side only looks words up), so they take a third of the memory
    or less; lists when the pure-Python generator does, for its speed."""
    return native.GENERATOR == "native"


def _path_problem(child: Ints, mask: Ints, ends: Ints, root: int) -> str:
    """What is wrong with the nodes reachable from ``root`` (a cycle, a word end without its edge), or
    ``""``: a depth-first walk with its own stacks, each node entered once (every edge read once)."""
    state = bytearray(len(mask))  # 0: not reached yet, 1: on the current path, 2: done
    nodes, nexts, stops = [root], [root], [root + mask[root].bit_count()]
    state[root] = 1
    if ends[root] & ~mask[root]:
        return f"node {root} ends a word on a letter it has no edge for"
    while nodes:
        edge = nexts[-1]
        if edge == stops[-1]:
            state[nodes.pop()] = 2
            del nexts[-1], stops[-1]
            continue
        nexts[-1] = edge + 1
        target = child[edge]
        seen = state[target]
        if seen == 2:
            continue
        if seen == 1:
            return f"edge {edge} leads back to node {target} on its own path: the lexicon has a cycle"
        m = mask[target]
        if ends[target] & ~m:
            return f"node {target} ends a word on a letter it has no edge for"
        if not m:
            state[target] = 2
            continue
        state[target] = 1
        nodes.append(target)
        nexts.append(target)
        stops.append(target + m.bit_count())
    return ""


def _storage(values: Sequence[int]) -> Ints:
    """The values as a lexicon keeps them (an ``array('I')`` passed in is kept, not copied)."""
    if compact_arrays():
        return values if isinstance(values, array) and values.typecode == "I" else array("I", values)
    return values.tolist() if isinstance(values, array) else list(values)


def _copy(values: Ints) -> Ints:
    """A copy of the same kind, to change."""
    return array("I", values) if isinstance(values, array) else list(values)


__all__ = [  # building's and the file's names are re-exported: callers and tests read them here
    "FORMAT_VERSION",
    "MAGIC",
    "Dawg",
    "Ints",
    "Word",
    "compact_arrays",
    "source_checksum",
]
