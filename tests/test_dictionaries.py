"""The shipped word lists and the lexicons compiled from them."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from dictionaries import ENGLISH_DAWG, ENGLISH_WORDS, bundled_path
from dictionaries.normalize import Drop, Normalizer
from dictionaries.wordlist import read_word_list
from engine.lexicon.dawg import Dawg, source_checksum
from engine.rules.ruleset import Ruleset

#: Lines in the shipped ENABLE list, and those that ruleset 5 keeps (2-15 tiles).
ENABLE_LINES = 172_820
ENABLE_KEPT = 168_548


@pytest.fixture(scope="module")
def english_words() -> list[tuple[int, ...]]:
    normalizer = Normalizer.for_ruleset(Ruleset.for_id(5))
    words = (
        normalizer.normalize(w, list_has_lower_case=False) for w in read_word_list(bundled_path(ENGLISH_WORDS)).words
    )
    return sorted({w for w in words if not isinstance(w, Drop)})


@pytest.fixture(scope="module")
def english_dawg() -> Dawg:
    return Dawg.load(bundled_path(ENGLISH_DAWG), Ruleset.for_id(5).alphabet)


def test_bundled_paths_exist() -> None:
    for name in (ENGLISH_WORDS, ENGLISH_DAWG):
        path = bundled_path(name)
        assert isinstance(path, Path)
        assert path.is_file()
        assert path.as_posix().endswith("dictionaries/" + name)


def test_missing_bundled_file_names_the_file() -> None:
    with pytest.raises(FileNotFoundError, match=r"en/no-such-list\.txt"):
        bundled_path("en/no-such-list.txt")


@pytest.mark.parametrize("name", ["", "/etc/passwd", "../pyproject.toml", "en/../../README.md"])
def test_bundled_path_stays_inside_the_package(name: str) -> None:
    with pytest.raises(ValueError, match="relative path inside the package"):
        bundled_path(name)


def test_shipped_word_list_size(english_words: list[tuple[int, ...]]) -> None:
    with gzip.open(bundled_path(ENGLISH_WORDS), "rt", encoding="utf-8") as handle:
        assert sum(1 for line in handle if line.strip()) == ENABLE_LINES
    assert len(english_words) == ENABLE_KEPT


def test_compiled_lexicon_matches_its_source(english_words: list[tuple[int, ...]], english_dawg: Dawg) -> None:
    # If this fails, the word list changed: rebuild with the command in dictionaries/en/README.md.
    assert english_dawg.checksum == source_checksum(english_words)
    assert len(english_dawg) == len(english_words) == ENABLE_KEPT


def test_compiled_lexicon_holds_exactly_the_source_words(
    english_words: list[tuple[int, ...]], english_dawg: Dawg
) -> None:
    # The header checksum says what the file was built from; this checks what the arrays hold.
    assert source_checksum(english_dawg.words()) == source_checksum(english_words)


def test_compiled_lexicon_lookups(english_dawg: Dawg) -> None:
    for word in ["AA", "XI", "QAT", "CAT", "RETAINS", "ZYZZYVAS"]:
        assert word in english_dawg
    # ENABLE predates QI and ZA; one-letter and over-15-letter words are left out
    for word in ["QI", "ZA", "QX", "A", "CATZ", "ELECTROENCEPHALOGRAPHIC"]:
        assert word not in english_dawg


def test_shipped_dutch_lexicon() -> None:
    dutch = Ruleset.for_code("nl")
    lexicon = Dawg.load(bundled_path("nl/opentaal.dawg"), dutch.alphabet)
    assert len(lexicon) == 299_513
    # the header's checksum is the checksum of the words the arrays hold
    assert source_checksum(lexicon.words()) == lexicon.checksum
    for word in ["FIETS", "GEZELLIG", "HOENTJE", "GEIND", "IDEEEN"]:
        assert word in lexicon
    for word in ["AMSTERDAM", "A", "ZZZZ"]:  # names, one-letter words and nonsense are out
        assert word not in lexicon
    for word in ["PC", "CV", "HD", "BV", "NGO", "UHD", "KM"]:  # and abbreviations, but not ST
        assert word not in lexicon
    assert "ST" in lexicon and "BRR" in lexicon
    licence = bundled_path("nl/LICENSE-OpenTaal.txt").read_text(encoding="utf-8")
    assert "OpenTaal" in licence and "Redistributions in binary form" in licence
