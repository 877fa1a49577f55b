"""A bounded cache that forgets the least recently used entry first.

A long-lived bot must not let a cache grow with what it has seen: a key space of millions (the
leaves a rack can keep) fills any unbounded dict, slowly, over days. ``LruCache`` holds at most
``maxsize`` entries and counts its hits and misses, so that a size can be chosen by measurement
(``python -m offline.bench.leavecache`` prints them for the leave model's cache).

>>> cache = LruCache[str, int](2)
>>> cache.put("a", 1); cache.put("b", 2)
>>> cache.get("a")
1
>>> cache.put("c", 3)  # "b" is the least recently used: it goes
>>> cache.get("b") is None, len(cache), cache.hits, cache.misses
(True, 2, 1, 1)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """At most ``maxsize`` entries (0: none kept); ``get`` gives None for a key it does not hold."""

    def __init__(self, maxsize: int) -> None:
        if maxsize < 0:
            raise ValueError(f"an LruCache holds at least 0 entries, not {maxsize}")
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        entries = self._entries
        try:
            value = entries[key]
        except KeyError:
            self.misses += 1
            return None
        entries.move_to_end(key)
        self.hits += 1
        return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key``, forgetting the least recently used entry when full."""
        if not self.maxsize:
            return
        entries = self._entries
        entries[key] = value
        entries.move_to_end(key)
        while len(entries) > self.maxsize:
            entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry (the counts stay)."""
        self._entries.clear()


__all__ = ["LruCache"]
