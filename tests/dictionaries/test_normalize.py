"""Normalisation of word-list entries, rule by rule and ruleset by ruleset."""

from __future__ import annotations

import pytest

from dictionaries.normalize import CAPITALISED, NOT_IN_ALPHABET, TOO_LONG, TOO_SHORT, Drop, Normalizer
from engine.rules.ruleset import Ruleset


def norm(code: str, word: str, *, lower_list: bool = True) -> str | Drop:
    """The normalised word as text (tiles joined, multi-letter tiles in brackets), or the Drop."""
    ruleset = Ruleset.for_code(code)
    result = Normalizer.for_ruleset(ruleset).normalize(word, list_has_lower_case=lower_list)
    if isinstance(result, Drop):
        return result
    return "".join(f"[{s}]" if len(s) > 1 else s for s in (ruleset.alphabet.symbols[c] for c in result))


@pytest.mark.parametrize(
    ("code", "word", "expected"),
    [
        ("en", "cat", "CAT"),
        ("en", "café", "CAFE"),
        ("en", "naïve", "NAIVE"),
        ("en", "encyclopædia", "ENCYCLOPAEDIA"),
        ("fr", "élève", "ELEVE"),
        ("fr", "œuvre", "OEUVRE"),
        ("fr", "garçon", "GARCON"),
        ("nl", "geïnd", "GEIND"),
        ("nl", "ideeën", "IDEEEN"),
        ("pt", "ação", "AÇAO"),  # Ç is a Portuguese tile, ã is not
        ("es", "canción", "CANCION"),
        ("es", "pingüino", "PINGUINO"),
        ("es", "año", "AÑO"),  # Ñ is a tile
        ("es", "churro", "[CH]U[RR]O"),
        ("es", "llama", "[LL]AMA"),
        ("es", "coche", "CO[CH]E"),
        ("nb", "blåbær", "BLÅBÆR"),
        ("nb", "kafé", "KAFE"),
        ("nb", "müsli", "MYSLI"),  # Norwegian sorts ü as y
        ("nn", "smør", "SMØR"),
        ("da", "rødgrød", "RØDGRØD"),
        ("da", "smörrebröd", "SMØRREBRØD"),  # ö is ø in Danish
        ("sv", "blåbär", "BLÅBÄR"),
        ("sv", "idé", "IDE"),  # Swedish plays é as E
        ("sv-strict", "à", Drop(TOO_SHORT)),
        ("fi", "hää", "HÄÄ"),
        ("de", "Bäume", "BÄUME"),  # a German noun: title case kept
        ("de", "straße", "STRASSE"),  # ß is SS
        ("de", "Übermaß", "ÜBERMASS"),
    ],
)
def test_words_are_normalised(code: str, word: str, expected: str | Drop) -> None:
    assert norm(code, word) == expected


@pytest.mark.parametrize(
    ("code", "word", "character"),
    [
        ("sv", "müsli", "Ü"),  # Swedish leaves out words with other foreign letters
        ("sv", "smørrebrød", "Ø"),
        ("sv", "encyclopædia", "Æ"),
        ("nb", "quiz", "Q"),  # no Q, X or Z in Norwegian
        ("da", "weekend", "W"),
        ("es", "kilo", "K"),
        ("pt", "whisky", "W"),
        ("fi", "zoo", "Z"),
        ("en", "rock'n'roll", "'"),
        ("en", "well-being", "-"),
        ("en", "ice cream", " "),
        ("en", "mp3", "3"),
        ("en", "日本", "日"),
        ("de", "straße2", "2"),
    ],
)
def test_characters_outside_the_alphabet_drop_the_word(code: str, word: str, character: str) -> None:
    assert norm(code, word) == Drop(NOT_IN_ALPHABET, character)


def test_lengths_count_tiles_not_characters() -> None:
    assert norm("en", "a") == Drop(TOO_SHORT)
    assert norm("en", "ab") == "AB"
    assert norm("en", "a" * 15) == "A" * 15
    assert norm("en", "a" * 16) == Drop(TOO_LONG)
    # 16 letters but 15 tiles in Spanish: LL is one tile
    assert norm("es", "ll" + "a" * 14) == "[LL]" + "A" * 14
    assert norm("es", "ch") == Drop(TOO_SHORT)  # one tile


def test_capitalised_words_are_names_in_lower_case_lists() -> None:
    assert norm("en", "Paris") == Drop(CAPITALISED)
    assert norm("en", "NATO") == Drop(CAPITALISED)
    assert norm("nl", "Amsterdam") == Drop(CAPITALISED)
    assert norm("de", "NATO") == Drop(CAPITALISED)  # title case only: not an abbreviation
    assert norm("de", "iPhone") == Drop(CAPITALISED)
    # an all-capitals list (like the NSF list) keeps every word
    assert norm("nb", "BLÅBÆR", lower_list=False) == "BLÅBÆR"
    assert norm("en", "PARIS", lower_list=False) == "PARIS"


def test_empty_entries() -> None:
    assert norm("en", "") == Drop("empty line")
