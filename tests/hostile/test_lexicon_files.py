"""Crafted lexicon files with a valid CRC: every structural problem is a LexiconError at load, in the
pure-Python check and in the C generator's copy alike, and ``words`` walks any depth without recursion."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable

import pytest

from engine import native
from engine.errors import LexiconError
from engine.lexicon import dawg as dawg_module
from engine.lexicon.dawg import Dawg, _path_problem
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5).alphabet
A, B = EN.parse_word("A")[0], EN.parse_word("B")[0]

Arrays = tuple[list[int], list[int], list[int]]


def arrays(words: list[str]) -> Arrays:
    built = Dawg.build([EN.parse_word(w) for w in words], EN)
    return list(built.child), list(built.mask), list(built.ends)


def crafted(child: list[int], mask: list[int], ends: list[int]) -> bytes:
    """A file of these arrays, header and CRC as ``save`` writes them (no check on the way out)."""
    return Dawg(EN, child, mask, ends, 1, b"\0" * 32).to_bytes()


def past_the_end() -> Arrays:
    child, mask, ends = arrays(["AB"])  # root -A-> n1 -B-> sink: two edges
    mask[1] |= 1 << A  # n1 now claims two edges, the second one past the arrays
    return child, mask, ends


def cycle() -> Arrays:
    child, mask, ends = arrays(["AA"])
    child[1] = 0  # n1's edge leads back to the root: A A A A ... for ever
    return child, mask, ends


def self_loop() -> Arrays:
    child, mask, ends = arrays(["AB", "B"])
    node = child[0]  # after A
    child[node] = node
    return child, mask, ends


def end_without_edge() -> Arrays:
    child, mask, ends = arrays(["AB"])
    ends[1] |= 1 << A  # "AA" ends, but n1 has no edge for A
    return child, mask, ends


def sink_with_edges() -> Arrays:
    child, mask, ends = arrays(["AB"])
    mask[-1] = 1 << B
    return child, mask, ends


CASES: dict[str, tuple[Callable[[], Arrays], str]] = {
    "edges past the end": (past_the_end, "past the end"),
    "a cycle through the root": (cycle, "cycle"),
    "a node that is its own child": (self_loop, "cycle"),
    "a word end without its edge": (end_without_edge, "no edge for"),
    "the final state with edges": (sink_with_edges, "edges"),
}


@pytest.fixture(params=["python", "native"])
def generator(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Load as the pure-Python generator would (lists, the Python walk) or as the C one would."""
    if request.param == "native" and native.NATIVE is None:
        pytest.skip("the C extension is not built")
    monkeypatch.setattr(dawg_module, "compact_arrays", lambda: request.param == "native")
    return str(request.param)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_crafted_file_with_a_valid_crc_fails_at_load(case: str, generator: str) -> None:
    make, message = CASES[case]
    data = crafted(*make())
    with pytest.raises(LexiconError, match=message) as caught:
        Dawg.from_bytes(data, EN, name="crafted.dawg")
    assert str(caught.value).startswith("crafted.dawg: ")


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_c_copy_refuses_what_the_python_check_refuses(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if native.NATIVE is None:
        pytest.skip("the C extension is not built")
    child, mask, ends = CASES[case][0]()
    monkeypatch.setattr(dawg_module, "compact_arrays", lambda: False)
    with pytest.raises(LexiconError):
        Dawg.from_bytes(crafted(child, mask, ends), EN)
    with pytest.raises(ValueError):
        native.NATIVE.Lexicon(array("I", child), array("I", mask), array("I", ends), len(EN))


def test_a_sound_lexicon_passes_both_checks() -> None:
    child, mask, ends = arrays(["AB", "BA", "ABBA", "B"])
    assert _path_problem(child, mask, ends, 0) == ""
    if native.NATIVE is not None:
        assert native.NATIVE.Lexicon(array("I", child), array("I", mask), array("I", ends), len(EN)).edges == len(child)
    loaded = Dawg.from_bytes(crafted(child, mask, ends), EN)
    assert sorted(EN.format_word(w) for w in loaded.words()) == ["AB", "ABBA", "B", "BA"]


def test_words_walks_a_word_longer_than_the_recursion_limit() -> None:
    depth = sys.getrecursionlimit() + 500
    long_word = (A,) * depth
    lexicon = Dawg.build([long_word, (B,)], EN)
    assert list(lexicon.words()) == [long_word, (B,)]
