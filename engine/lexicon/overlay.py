"""A lexicon that words are added to and removed from in place: the bot's lexicon with the words the
server accepted and without those it refused, at a cost per word that does not depend on how many
words were added before.

``Dawg.with_words`` and ``Dawg.without`` copy the whole lexicon for every change, so making the view
again after each learned word costs time in proportion to the lexicon and every word learned so far
(measured: README). An overlay copies the base lexicon once, grows the root to every letter of the
alphabet (an edge to the final state for a letter no word starts with, so no later word moves the
root), and from then on:

* ``add`` follows the word from the root; a node on its path that other paths share (a node of the
  base, at or below the final state's index) is copied to the end of the arrays first, so no other
  word changes, and a node copied earlier (only its one path leads to it) is changed where it is;
* ``remove`` does the same and clears the word's end.

Both touch at most one node (at most one edge per letter of the alphabet) per letter of the word.
The C generator's copy of the arrays gets the same change (``engine.native.patch``): the entries
from the old end on and the few changed below it, not the whole arrays again.

The overlay's ``dawg`` is a derived lexicon (never saved, like ``with_words``'s) that changes in place
when a word is added or removed: the caller owns it and must not search it while changing it. The C
searches read the C copy without the interpreter's lock (``engine/csrc/module.c``), so a change from
another thread could land in the middle of one: the bot changes its overlays only from the thread that
plays, between its searches (``bot/play/acceptances.py``, through ``bot.store.learned``). As a guard, the
C copy refuses a patch while a search reads it (RuntimeError naming the searches); the Python arrays
are then changed and the C copy is not, so such an overlay must be dropped.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg, Ints, Word
from engine.rules.tiles import LETTER_MASK


class LexiconOverlay:
    """The base lexicon, with words added and removed in place (see the module's docstring)."""

    def __init__(self, base: Dawg) -> None:
        letters = len(base.alphabet)
        child, mask, ends, sink = base._with_root_letters(set(range(letters)))
        mask.append(0)  # as in a built lexicon, the arrays of nodes are one longer than the edges
        ends.append(0)
        self._sink = sink
        self._letters = letters
        self.dawg = Dawg(base.alphabet, child, mask, ends, base.word_count, base.checksum)
        self.dawg.derived = True
        self.base = base
        self._first = len(child)  # entries from here on are new since the C copy was made
        self._changed: set[int] = set()

    def add(self, words: Iterable[Word]) -> int:
        """Add these words (letter codes; blank flags ignored); returns how many were new.
        Raises LexiconError for an empty word or a code outside the alphabet."""
        added = 0
        for word in {tuple(c & LETTER_MASK for c in w) for w in words}:
            if not word or max(word) >= self._letters:
                raise LexiconError(
                    f"cannot add word {word!r}: empty or a code outside the alphabet (0..{self._letters - 1})"
                )
            if self.dawg.contains(word):
                continue
            node = self._own_path(word, grow=True)
            self._set_end(node, word[-1], True)
            added += 1
        self.dawg.word_count += added
        self._sync()
        return added

    def remove(self, words: Iterable[Word]) -> int:
        """Remove these words (letter codes); returns how many were there."""
        removed = 0
        for word in {tuple(c & LETTER_MASK for c in w) for w in words}:
            if not self.dawg.contains(word):
                continue
            node = self._own_path(word, grow=False)
            self._set_end(node, word[-1], False)
            removed += 1
        self.dawg.word_count -= removed
        self._sync()
        return removed

    # -- in place -------------------------------------------------------------------------------

    def _own_path(self, word: tuple[int, ...], *, grow: bool) -> int:
        """The node before the word's last letter, on a path of nodes of the overlay's own (copied
        where shared); with ``grow``, every node on it gets an edge for the next letter."""
        child, mask = self.dawg.child, self.dawg.mask
        sink = self._sink
        node = self.dawg.root  # reached by the empty prefix only: changed where it is
        for i, letter in enumerate(word):
            bit = 1 << letter
            if i == len(word) - 1:
                break
            edge = node + (mask[node] & (bit - 1)).bit_count()
            target = child[edge]
            if target <= sink or (grow and not mask[target] & (1 << word[i + 1])):
                # shared (a node of the base, or the final state) or without the next letter: a
                # copy of its own, with that letter's edge when growing
                target = self._copy(target, word[i + 1] if grow else -1)
                self._write(child, edge, target)
            node = target
        if grow and not mask[node] & (1 << word[-1]):
            raise AssertionError("the path's last node has no edge for the last letter")  # pragma: no cover
        return node

    def _copy(self, node: int, extra: int) -> int:
        """A new block at the end: ``node``'s edges (none for the final state) plus ``extra`` (-1: none)
        to the final state."""
        child, mask, ends = self.dawg.child, self.dawg.mask, self.dawg.ends
        sink = self._sink
        old = mask[node] if node != sink else 0
        edges = list(child[node : node + old.bit_count()]) if old else []
        new_mask = old
        if extra >= 0 and not old & (1 << extra):
            edges.insert((old & ((1 << extra) - 1)).bit_count(), sink)
            new_mask |= 1 << extra
        new = len(child)
        del mask[-1], ends[-1]  # the trailing entry (the lexicon's last node) moves to the end
        child.extend(edges)
        mask.extend([0] * len(edges))
        ends.extend([0] * len(edges))
        mask[new] = new_mask
        ends[new] = ends[node] if node != sink else 0
        mask.append(0)
        ends.append(0)
        return new

    def _set_end(self, node: int, letter: int, on: bool) -> None:
        ends = self.dawg.ends
        value = ends[node] | (1 << letter) if on else ends[node] & ~(1 << letter)
        self._write(ends, node, value)

    def _write(self, values: Ints, index: int, value: int) -> None:
        values[index] = value
        if index < self._first:
            self._changed.add(index)

    def _sync(self) -> None:
        """Bring the C generator's copy (if made) up to date: the new entries and the changed ones."""
        if self.dawg.native is not None and (self._changed or len(self.dawg.child) > self._first):
            from engine import native  # noqa: PLC0415 - engine.native is imported on first use

            native.patch(self.dawg, self._first, sorted(self._changed))
        self._first = len(self.dawg.child)
        self._changed.clear()
