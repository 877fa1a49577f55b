"""Words the server refused: removed from the lexicon, never generated, persisted as JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.store.rejections import RejectedWords
from engine.board.board import Board
from engine.board.rack import Rack
from engine.errors import LexiconError, TileError
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.movegen.score import word_texts
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5)
LETTERS = EN.alphabet.parse_word("AEINST")
words_st = st.sets(st.lists(st.sampled_from(LETTERS), min_size=1, max_size=6).map(tuple), min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(words_st, st.data())
def test_without_removes_exactly_the_words(words: set[tuple[int, ...]], data: st.DataObject) -> None:
    lexicon = Dawg.build(words, EN.alphabet)
    removed = set(data.draw(st.lists(st.sampled_from(sorted(words)), max_size=10)))
    strangers = data.draw(st.lists(st.lists(st.sampled_from(LETTERS), min_size=1, max_size=7).map(tuple), max_size=5))
    smaller = lexicon.without([*removed, *strangers])
    gone = removed | set(strangers)
    assert set(smaller.words()) == words - gone
    assert len(smaller) == len(words - gone)
    for word in words:
        assert smaller.contains(word) == (word not in gone)
        assert lexicon.contains(word)  # the original is untouched


def test_derived_lexicon_is_not_saved() -> None:
    lexicon = Dawg.build([EN.alphabet.parse_word(w) for w in ("CAT", "CATS")], EN.alphabet)
    with pytest.raises(LexiconError, match="not saved"):
        lexicon.without([EN.alphabet.parse_word("CAT")]).to_bytes()


def test_rejected_words_are_never_generated() -> None:
    words = ["AT", "TA", "CAT", "ACT", "TACT", "CATS", "SCAT", "ACTS"]
    lexicon = Dawg.build([EN.alphabet.parse_word(w) for w in words], EN.alphabet)
    rejected = RejectedWords()
    assert rejected.add(5, "act") and not rejected.add(5, "ACT")
    assert rejected.add(5, "cats")
    usable = rejected.apply(lexicon, EN)
    assert rejected.apply(lexicon, EN) is usable  # cached
    board = Board(EN.alphabet)
    board.place([(7, 7, EN.alphabet.code("A")), (7, 8, EN.alphabet.code("T"))])
    formed = {
        w for m in generate(board, Rack.from_text("CSAT?", EN.alphabet), usable, EN) for w in word_texts(board, m)
    }
    assert formed and not formed & {"ACT", "CATS"}
    assert {"CAT", "SCAT", "TACT"} <= formed
    everything = {
        w for m in generate(board, Rack.from_text("CSAT?", EN.alphabet), lexicon, EN) for w in word_texts(board, m)
    }
    assert {"ACT", "CATS"} <= everything


def test_other_rulesets_are_unaffected() -> None:
    lexicon = Dawg.build([EN.alphabet.parse_word(w) for w in ("QI", "ZA")], EN.alphabet)
    rejected = RejectedWords({0: ["QI"]})
    assert rejected.apply(lexicon, EN) is lexicon
    assert "QI" not in rejected.apply(lexicon, Ruleset.for_id(0))


def test_json_round_trip() -> None:
    rejected = RejectedWords({5: ["qi", "za"], 1: ["blåbær"]})
    data = json.loads(json.dumps(rejected.to_json()))
    assert data == {"1": ["BLÅBÆR"], "5": ["QI", "ZA"]}
    again = RejectedWords.from_json(data)
    assert again.words(5) == {"QI", "ZA"} and again.words(1) == {"BLÅBÆR"} and again.words(2) == frozenset()


def test_bad_input_is_named() -> None:
    with pytest.raises(TileError, match="'q' in 'quiz'"):
        RejectedWords().add(1, "quiz")  # no Q in Norwegian
    with pytest.raises(ValueError, match="'five'"):
        RejectedWords.from_json({"five": ["QI"]})
