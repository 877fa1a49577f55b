"""engine.lru: the bounded cache every long-lived cache of the engine uses."""

from __future__ import annotations

import random

import pytest

from engine.lru import LruCache


@pytest.mark.parametrize("size", [0, 1, 7, 100])
def test_the_cache_never_holds_more_than_its_size(size: int) -> None:
    cache: LruCache[int, int] = LruCache(size)
    rng = random.Random(size)
    for _ in range(5_000):
        key = rng.randrange(1_000)
        if cache.get(key) is None:
            cache.put(key, key * 2)
        assert len(cache) <= size
    assert len(cache) == min(size, 1_000)
    assert cache.hits + cache.misses == 5_000


def test_the_least_recently_used_entry_goes_first() -> None:
    cache: LruCache[str, int] = LruCache(3)
    for n, key in enumerate("abc"):
        cache.put(key, n)
    assert cache.get("a") == 0  # a is now the most recently used; b the least
    cache.put("d", 3)
    assert cache.get("b") is None
    assert [cache.get(k) for k in "acd"] == [0, 2, 3]
    cache.put("c", 9)  # a new value for a key held: no eviction
    assert len(cache) == 3 and cache.get("c") == 9


def test_a_cache_of_zero_keeps_nothing_and_a_negative_size_is_refused() -> None:
    cache: LruCache[int, int] = LruCache(0)
    cache.put(1, 1)
    assert cache.get(1) is None and len(cache) == 0
    with pytest.raises(ValueError, match="at least 0"):
        LruCache(-1)
