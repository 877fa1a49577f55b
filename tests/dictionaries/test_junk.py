"""Junk out of every list, by the rules of data/abbreviations.toml: Roman numerals, ETC, Norwegian
OSV/MVA/EDB, USB, the Finnish company suffixes AB/AY/OY/RY; and the English words that look like
abbreviations (no vowel) kept from a list written in lower case (CH was lost before).

The first tests are hermetic. The last ones read the real lists the junk was measured on: Debian's
(skipped, saying so, when not installed) and the npm ``@cspell/dict-*`` packages (fetched with
npm; skipped, saying so, when npm or the registry cannot be reached)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from dictionaries.abbreviations import Abbreviations
from dictionaries.build import build_lexicon
from dictionaries.cspell import fetch, read_package
from dictionaries.normalize import Drop, Normalizer
from dictionaries.npmpack import NpmError
from dictionaries.sources import source_for
from dictionaries.wordlist import WordList, read_word_list
from engine.rules.ruleset import Ruleset

DANISH_NUMERALS = ["II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV"]
DANISH_NUMERALS += ["XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII", "XXIII", "XXIV"]
#: Per ruleset: entries measured in the builds of 2026-11 that are no words of the game.
JUNK = {
    "da": [n for n in DANISH_NUMERALS if n not in {"V", "X", "XV", "XX", "VI", "XI"}],
    "fi": ["II", "IV", "VIII", "LVI", "USB", "AB", "AY", "OY", "RY"],
    "nb": ["ETC", "OSV", "MVA", "EDB"],
    "nn": ["ETC", "OSV", "MVA", "EDB"],
    "es": ["ETC"],
    "fr": ["ETC"],
    "pt": ["ETC"],
    "sv-strict": ["USB"],
}
#: Real words that look like junk, kept by the same rules.
WORDS = {
    "da": ["VI", "LIV", "MIX", "LIX", "XI", "HUS"],
    "fi": ["LI", "VI", "OI", "EI", "TALO"],
    "nb": ["OG", "ETT", "HUS"],
    "nn": ["OG", "HUS"],
    "es": ["AY", "ETA"],
    "fr": ["ET", "ETE"],
    "pt": ["LI", "VI", "ETA"],
    "sv-strict": ["HUS", "BUS"],
    "en": ["CH", "CWTCH", "GRRL", "GRRLS", "GRRRL", "GRRRLS", "TWP", "TWPS", "ZZZS", "NTH", "HMM", "ST", "PHT"],
}


def kept(code: str, entries: Iterable[str]) -> set[str]:
    """The words a lower-case list keeps after normalising and the abbreviation rules."""
    ruleset = Ruleset.for_code(code)
    normalizer = Normalizer.for_ruleset(ruleset)
    out = set()
    for entry in entries:
        result = normalizer.normalize(entry, list_has_lower_case=True, abbreviations=True)
        if not isinstance(result, Drop):
            out.add(ruleset.alphabet.format_word(result))
    return out


@pytest.mark.parametrize("code", sorted(JUNK))
def test_the_junk_of_each_list_is_dropped_and_the_words_like_it_kept(code: str) -> None:
    rules = Abbreviations.for_ruleset(Ruleset.for_code(code))
    assert {w: rules.reason(w) for w in JUNK[code] if rules.reason(w) is None} == {}
    assert {w: rules.reason(w) for w in WORDS[code] if rules.reason(w) is not None} == {}
    entries = [w.lower() for w in JUNK[code] + WORDS[code]]
    assert kept(code, entries) == set(WORDS[code])


def test_a_lower_case_english_list_keeps_its_words_without_a_vowel(tmp_path: Path) -> None:
    """A Collins-like list written in lower case (npm word-list) lost CH, CWTCH, GRRL(S), GRRRL(S),
    TWP(S) and ZZZS to the no-vowel rule; unit symbols and Roman numerals still go."""
    en = Ruleset.for_code("en")
    entries = tuple(w.lower() for w in [*WORDS["en"], "KM", "XL", "CAT"])
    listing = WordList(tmp_path / "collins-lower.txt", entries, "utf-8")
    lexicon, report = build_lexicon(en, listing, None)
    assert {en.alphabet.format_word(w) for w in lexicon.words()} == {*WORDS["en"], "CAT"}
    assert report.abbreviations == 2
    assert kept("en-us", ["ch", "twp", "km"]) == {"CH", "TWP"}


# -- the real lists ------------------------------------------------------------------------------

#: Words of at most this many letters are checked against the real lists: all the junk is that short,
#: and normalising the whole of a list (1.46 million Finnish entries) would cost the suite a minute. The
#: whole lists' counts after the rules (measured 2026-11-26: da 565,532, fi 1,460,772, es 586,898, fr
#: 400,041; 21, 9, 1 and 1 fewer than before) are in dictionaries/README.md.
SHORT = 6

DEBIAN = {code: source_for(Ruleset.for_code(code).id) for code in ("nb", "nn", "pt", "sv-strict")}


@pytest.mark.parametrize("code", sorted(DEBIAN))
def test_debian_lists_lose_their_junk(code: str) -> None:
    source = DEBIAN[code]
    if source.debian_file is None or not source.debian_file.is_file():
        pytest.skip(f"Debian's list {source.debian_file} is not installed: apt-get install {source.debian_package}")
    words = [word for word in read_word_list(source.debian_file).words if len(word) <= SHORT]
    found = kept(code, words)
    assert not found & set(JUNK[code])
    assert {w for w in WORDS[code] if w.lower() in set(words)} <= found  # the words the list writes in lower case




@pytest.fixture(scope="module")
def cspell_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cspell")


@pytest.mark.parametrize("code", ["da", "fi", "es", "fr"])
def test_cspell_lists_lose_their_junk(code: str, cspell_dir: Path) -> None:
    source = source_for(Ruleset.for_code(code).id)
    assert source.cspell_package is not None
    try:
        tarball = fetch(source.cspell_package, source.cspell_version, cspell_dir / code)
    except NpmError as exc:
        pytest.skip(f"the npm registry cannot be reached for {source.cspell_package}: {exc}")
    entries = [entry for entry in read_package(tarball).words if len(entry) <= SHORT]
    lower = set(entries)
    assert {w.lower() for w in JUNK[code]} & lower, "the package no longer has the junk it was measured with"
    found = kept(code, entries)
    assert not found & set(JUNK[code])
    assert {w for w in WORDS[code] if w.lower() in lower} <= found  # the words the list writes in lower case
    assert len(found) > 1_000  # the list's short words are there, not only the junk
    if code == "fi":
        assert {w for w in found if len(w) == 2}.isdisjoint({"AB", "AY", "OY", "RY", "II", "IV"})
