"""The DAWG lexicon: building, minimality, queries, the binary file and its failure modes."""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg, source_checksum
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG, Alphabet

EN = Ruleset.for_id(5).alphabet
NB = Ruleset.for_id(1).alphabet
ES = Ruleset.for_id(6).alphabet

# The file layout as documented in engine/lexicon/dawg.py, written out again here: magic, format version,
# edge count, word count, payload length, CRC-32 of the payload, SHA-256 of the source words;
# then a u16 length and the alphabet's symbols joined by U+001F; then the zlib payload.
HEADER = struct.Struct("<8sHIIII32s")
MAGIC = b"WFDAWG\r\n"


def words_of(alphabet: Alphabet, texts: Iterable[str]) -> list[tuple[int, ...]]:
    return [alphabet.parse_word(t) for t in texts]


def build(texts: Iterable[str], alphabet: Alphabet = EN) -> Dawg:
    return Dawg.build(words_of(alphabet, texts), alphabet)


def texts_of(dawg: Dawg) -> list[str]:
    return [dawg.alphabet.format_word(w) for w in dawg.words()]


def minimal_edge_count(words: Iterable[tuple[int, ...]]) -> int:
    """Edges of the minimal DFA of a finite word list, by brute force: build the trie, then merge
    nodes with the same right language (same finality and same letter -> class children)."""
    trie: dict[object, object] = {}
    for word in set(words):
        node = trie
        for letter in word:
            node = node.setdefault(letter, {})  # type: ignore[assignment]
        node["$"] = True
    classes: dict[tuple[bool, tuple[tuple[object, int], ...]], int] = {}

    def canon(node: dict[object, object]) -> int:
        edges = tuple(sorted((k, canon(v)) for k, v in node.items() if k != "$"))  # type: ignore[arg-type]
        key = ("$" in node, edges)
        return classes.setdefault(key, len(classes))

    canon(trie)
    return sum(len(edges) for _, edges in classes)


# -- building and queries -----------------------------------------------------------------------


def test_contains_and_not_contains() -> None:
    lex = build(["CAT", "CATS", "CAR", "DOG", "A"])
    for word in ["CAT", "CATS", "CAR", "DOG", "A"]:
        assert lex.contains(EN.parse_word(word))
        assert word in lex
        assert word.lower() in lex
    for word in ["CA", "C", "CARS", "DO", "DOGS", "AT", "TAC", "CATSS", "B", "Z"]:
        assert not lex.contains(EN.parse_word(word))
        assert word not in lex
    assert not lex.contains(())


def test_prefixes_are_not_words() -> None:
    lex = build(["ABCDEF"])
    for n in range(1, 6):
        assert not lex.contains(EN.parse_word("ABCDEF"[:n]))
    assert lex.contains(EN.parse_word("ABCDEF"))
    # ...but they are paths in the DAWG
    assert lex.walk(lex.root, EN.parse_word("ABC")) >= 0
    assert lex.walk(lex.root, EN.parse_word("ABD")) == -1
    assert lex.step(lex.root, EN.code("B")) == -1
    assert lex.step(lex.root, EN.code("A")) >= 0


def test_contains_ignores_blank_flags() -> None:
    lex = build(["CAT"])
    c, a, t = EN.parse_word("CAT")
    assert lex.contains((c | BLANK_FLAG, a, t | BLANK_FLAG))


def test_dunder_contains_with_odd_input() -> None:
    lex = build(["CAT"])
    assert "C1T" not in lex
    assert "ÑU" not in lex
    assert 5 not in lex
    assert None not in lex
    assert list(EN.parse_word("CAT")) in lex


def test_words_are_exactly_the_sorted_set() -> None:
    texts = ["ZOO", "ZA", "AA", "AAH", "BE", "BEE", "BEES", "A", "QI"]
    lex = build(texts)
    assert list(lex.words()) == sorted(set(words_of(EN, texts)))
    assert texts_of(lex) == ["A", "AA", "AAH", "BE", "BEE", "BEES", "QI", "ZA", "ZOO"]
    assert len(lex) == 9


def test_duplicates_ignored() -> None:
    lex = build(["CAT", "CAT", "DOG", "cat", "DOG"])
    assert len(lex) == 2
    assert texts_of(lex) == ["CAT", "DOG"]
    assert lex.checksum == build(["DOG", "CAT"]).checksum


def test_input_order_does_not_matter() -> None:
    a = build(["CATS", "BATS", "RATS", "BAT"])
    b = build(["BAT", "RATS", "CATS", "BATS"])
    assert a.to_bytes() == b.to_bytes()


def test_empty_lexicon() -> None:
    lex = Dawg.build([], EN)
    assert len(lex) == 0
    assert list(lex.words()) == []
    assert not lex.contains(EN.parse_word("A"))
    again = Dawg.from_bytes(lex.to_bytes(), EN)
    assert list(again.words()) == []


def test_spanish_multi_letter_tiles() -> None:
    lex = build(["CHURRO", "CURRO", "LLAMA"], ES)
    assert "churro" in lex
    assert lex.contains(ES.parse_tiles("[C]HURRO")) is False  # C + H is not the CH tile
    assert texts_of(lex) == ["CURRO", "CHURRO", "LLAMA"]  # order of codes: C < CH < ... < LL


def test_build_rejects_bad_words() -> None:
    with pytest.raises(LexiconError):
        Dawg.build([()], EN)
    with pytest.raises(LexiconError):
        Dawg.build([(0, 26)], EN)  # English has codes 0..25
    with pytest.raises(LexiconError):
        Dawg.build([(0, -1)], EN)


def test_progress_is_reported() -> None:
    seen: list[int] = []
    Dawg.build(words_of(EN, ["A", "B", "C"]), EN, progress=seen.append)
    assert seen == [3]


# -- minimality ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("texts", "edges"),
    [
        # root -B,C,R-> n1 -A-> n2 -T-> n3 -S-> end: 3 + 1 + 1 + 1 (a trie would need 12)
        (["CATS", "BATS", "RATS"], 6),
        # C-A-T-S, with T's node final: 4
        (["CAT", "CATS"], 4),
        # root -T-> n1 -A,O-> n2 -P-> n3(final) -S-> end: 1 + 2 + 1 + 1
        (["TAP", "TOP", "TAPS", "TOPS"], 5),
        # root -A-> n1 -B-> n2 -C-> end; root -B-> n2; root -C-> end: 3 + 1 + 1
        (["ABC", "BC", "C"], 5),
        # one word: one edge per letter
        (["HELLO"], 5),
        # only the end state is shared (the tails "B" and "D" differ): root 2 + 1 + 1 + 1
        (["AB", "BCD"], 5),
        # the tail "B" is shared: root -A,C-> n1 -B-> end: 2 + 1
        (["AB", "CB"], 3),
    ],
)
def test_minimal_edge_count(texts: list[str], edges: int) -> None:
    lex = build(texts)
    assert len(lex.child) == edges
    assert minimal_edge_count(words_of(EN, texts)) == edges  # the brute-force helper agrees
    assert sorted(texts) == texts_of(lex)


def test_suffix_sharing_shrinks_big_lists() -> None:
    # 26 * 26 words "XYING": all share the "ING" tail, so edges = 26 + 26 + 3, not 26 * 26 * 5.
    texts = [a + b + "ING" for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for b in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
    lex = build(texts)
    assert len(lex) == 676
    assert len(lex.child) == 26 + 26 + 3


# -- files ----------------------------------------------------------------------------------------


def test_save_load_round_trip(tmp_path: Path) -> None:
    texts = ["CAT", "CATS", "CAR", "DOG", "DOGS", "ZA", "QI"]
    lex = build(texts)
    path = tmp_path / "en.dawg"
    lex.save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["en.dawg"]  # no partial file left beside it
    again = Dawg.load(path, EN)
    assert list(again.words()) == list(lex.words())
    assert len(again) == len(lex) == 7
    assert again.checksum == lex.checksum
    assert list(again.child) == list(lex.child)
    assert list(again.mask) == list(lex.mask)
    assert list(again.ends) == list(lex.ends)
    assert again.to_bytes() == path.read_bytes()
    assert Dawg.load(str(path), EN).word_count == 7


def test_header_fields(tmp_path: Path) -> None:
    texts = ["DOGS", "CAT", "CAT", "ANT"]
    lex = build(texts)
    path = tmp_path / "x.dawg"
    lex.save(path)
    data = path.read_bytes()
    magic, version, edges, count, length, crc, checksum = HEADER.unpack_from(data)
    assert magic == MAGIC
    assert version == 1
    assert count == 3
    assert edges == len(lex.child)
    expected = source_checksum(sorted(set(words_of(EN, texts))))
    assert checksum == expected
    assert Dawg.load(path, EN).checksum == expected
    (sym_len,) = struct.unpack_from("<H", data, HEADER.size)
    symbols = data[HEADER.size + 2 : HEADER.size + 2 + sym_len].decode("utf-8").split("\x1f")
    assert symbols == list(EN.symbols)
    payload = data[HEADER.size + 2 + sym_len :]
    assert len(payload) == length
    assert zlib.crc32(payload) == crc
    assert len(zlib.decompress(payload)) == 4 * (3 * edges + 2)


def test_source_checksum_depends_on_words_and_order() -> None:
    a = source_checksum([(0, 1), (2,)])
    assert a == source_checksum([(0, 1), (2,)])
    assert a != source_checksum([(2,), (0, 1)])
    assert a != source_checksum([(0,), (1, 2)])  # the separator keeps word boundaries
    assert len(a) == 32


@pytest.fixture
def good_bytes() -> bytes:
    return build(["CAT", "CATS", "CAR", "DOG", "DOGS", "ZEBRA", "QI", "XU"]).to_bytes()


def _payload_offset(data: bytes) -> int:
    (sym_len,) = struct.unpack_from("<H", data, HEADER.size)
    return HEADER.size + 2 + int(sym_len)


def _assert_lexicon_error(data: bytes, tmp_path: Path, alphabet: Alphabet = EN) -> None:
    path = tmp_path / "bad.dawg"
    path.write_bytes(data)
    with pytest.raises(LexiconError) as info:
        Dawg.load(path, alphabet)
    assert str(path) in str(info.value)  # the error names the file
    with pytest.raises(LexiconError):
        Dawg.from_bytes(data, alphabet)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="nope"):
        Dawg.load(tmp_path / "nope.dawg", EN)


def test_directory_instead_of_file(tmp_path: Path) -> None:
    with pytest.raises(LexiconError):
        Dawg.load(tmp_path, EN)


def test_empty_file(tmp_path: Path) -> None:
    _assert_lexicon_error(b"", tmp_path)


def test_truncated_at_every_cut_point(good_bytes: bytes, tmp_path: Path) -> None:
    payload = _payload_offset(good_bytes)
    cuts = sorted(
        {0, 1, 7, 8, 10, HEADER.size - 1, HEADER.size, HEADER.size + 1, HEADER.size + 2, payload - 1, payload}
        | set(range(payload, len(good_bytes)))
    )
    for cut in cuts:
        assert cut < len(good_bytes)
        with pytest.raises(LexiconError):
            Dawg.from_bytes(good_bytes[:cut], EN)
    for cut in (3, HEADER.size + 5, payload + 3, len(good_bytes) - 1):
        _assert_lexicon_error(good_bytes[:cut], tmp_path)


def test_a_cut_file_is_called_truncated_never_blamed_on_its_alphabet(good_bytes: bytes, tmp_path: Path) -> None:
    path = tmp_path / "en.dawg"
    for cut in range(HEADER.size + 2, len(good_bytes)):  # in the alphabet's symbols and in the payload
        path.write_bytes(good_bytes[:cut])
        with pytest.raises(LexiconError) as info:
            Dawg.load(path, EN)
        message = str(info.value)
        assert message.startswith(f"{path}: file is truncated or corrupt ({cut:,} bytes"), message
        assert "alphabet" not in message


def test_padded_file(good_bytes: bytes) -> None:
    with pytest.raises(LexiconError):
        Dawg.from_bytes(good_bytes + b"\x00", EN)


def test_flipped_byte_in_payload(good_bytes: bytes, tmp_path: Path) -> None:
    start = _payload_offset(good_bytes)
    for i in range(start, len(good_bytes)):
        for flip in (0x01, 0x80, 0xFF):
            bad = bytearray(good_bytes)
            bad[i] ^= flip
            with pytest.raises(LexiconError):
                Dawg.from_bytes(bytes(bad), EN)
    bad = bytearray(good_bytes)
    bad[-1] ^= 0xFF
    _assert_lexicon_error(bytes(bad), tmp_path)


def test_flipped_byte_anywhere_is_never_another_exception(good_bytes: bytes) -> None:
    # The header is not covered by the CRC, so some flips (word count, source checksum) load;
    # but no flip may escape as anything other than LexiconError.
    for i in range(len(good_bytes)):
        bad = bytearray(good_bytes)
        bad[i] ^= 0xFF
        try:
            lex = Dawg.from_bytes(bytes(bad), EN)
        except LexiconError:
            continue
        assert i < HEADER.size  # only header fields can go unnoticed
        assert list(lex.words()) == words_of(EN, ["CAR", "CAT", "CATS", "DOG", "DOGS", "QI", "XU", "ZEBRA"])


def test_wrong_magic(good_bytes: bytes, tmp_path: Path) -> None:
    _assert_lexicon_error(b"NOTADAWG" + good_bytes[8:], tmp_path)
    with pytest.raises(LexiconError, match="magic"):
        Dawg.from_bytes(b"WFDAWG\n\n" + good_bytes[8:], EN)


@pytest.mark.parametrize("version", [0, 2, 65535])
def test_wrong_format_version(good_bytes: bytes, tmp_path: Path, version: int) -> None:
    bad = bytearray(good_bytes)
    struct.pack_into("<H", bad, 8, version)
    _assert_lexicon_error(bytes(bad), tmp_path)
    with pytest.raises(LexiconError, match="version"):
        Dawg.from_bytes(bytes(bad), EN)


def test_built_for_another_alphabet(tmp_path: Path) -> None:
    norwegian = build(["BLÅBÆR", "ØL"], NB)
    path = tmp_path / "nb.dawg"
    norwegian.save(path)
    with pytest.raises(LexiconError, match="alphabet"):
        Dawg.load(path, EN)
    english = build(["CAT"], EN)
    with pytest.raises(LexiconError, match="alphabet"):
        Dawg.from_bytes(english.to_bytes(), NB)
    with pytest.raises(LexiconError):
        Dawg.from_bytes(english.to_bytes(), ES)
    assert texts_of(Dawg.load(path, NB)) == ["BLÅBÆR", "ØL"]


def _forge(lex: Dawg, child: list[int], mask: list[int], ends: list[int], edges: int | None = None) -> bytes:
    """A file with a valid header and CRC around arbitrary arrays (little-endian u32)."""
    raw = b"".join(struct.pack(f"<{len(a)}I", *a) for a in (child, mask, ends))
    payload = zlib.compress(raw)
    symbols = "\x1f".join(lex.alphabet.symbols).encode("utf-8")
    n_edges = len(child) if edges is None else edges
    header = HEADER.pack(MAGIC, 1, n_edges, lex.word_count, len(payload), zlib.crc32(payload), lex.checksum)
    return header + struct.pack("<H", len(symbols)) + symbols + payload


def test_forged_files_with_valid_crc() -> None:
    lex = build(["CAT", "CATS", "DOG"])
    child, mask, ends = list(lex.child), list(lex.mask), list(lex.ends)
    # sanity: forging the real arrays gives a loadable file
    assert texts_of(Dawg.from_bytes(_forge(lex, child, mask, ends), EN)) == ["CAT", "CATS", "DOG"]
    edges = len(child)
    bad_child = [*child]
    bad_child[0] = edges + 7
    bad_mask = [*mask]
    bad_mask[0] |= 1 << 30  # a letter English does not have
    bad_final = [*mask]
    bad_final[edges] = 1
    cases = [
        _forge(lex, bad_child, mask, ends),
        _forge(lex, child, bad_mask, ends),
        _forge(lex, child, bad_final, ends),
        _forge(lex, child, mask, ends, edges=edges + 1),  # header edge count disagrees
        _forge(lex, [*child, 0], mask, ends),  # arrays of inconsistent sizes
    ]
    for data in cases:
        with pytest.raises(LexiconError):
            Dawg.from_bytes(data, EN)


def test_payload_that_is_not_zlib() -> None:
    lex = build(["CAT"])
    symbols = "\x1f".join(EN.symbols).encode("utf-8")
    payload = b"definitely not zlib"
    header = HEADER.pack(MAGIC, 1, len(lex.child), 1, len(payload), zlib.crc32(payload), lex.checksum)
    with pytest.raises(LexiconError):
        Dawg.from_bytes(header + struct.pack("<H", len(symbols)) + symbols + payload, EN)


def test_flat_int_lists_stored_as_unsigned_32_bit() -> None:
    lex = build(["CAT", "CATS", "DOG"])
    for values in (lex.child, lex.mask, lex.ends):
        assert isinstance(values, list | array)
        assert all(isinstance(v, int) and 0 <= v < 2**32 for v in values)
    data = lex.to_bytes()
    raw = zlib.decompress(data[_payload_offset(data) :])
    edges = len(lex.child)
    assert len(raw) == 4 * (3 * edges + 2)
    on_disk = array("I", raw)
    if sys.byteorder != "little":
        on_disk.byteswap()
    assert on_disk.tolist() == [*lex.child, *lex.mask, *lex.ends]


def test_memory_counts_lists_and_their_ints() -> None:
    lex = build(["CAT", "CATS", "DOG"])
    lists_only = sum(sys.getsizeof(v) for v in (lex.child, lex.mask, lex.ends))
    assert lex.memory_bytes() >= lists_only


@pytest.mark.parametrize(("generator", "kind"), [("native", array), ("python", list)])
def test_arrays_are_compact_when_the_c_generator_searches(
    generator: str, kind: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    """array('I') (4 bytes a value) when C runs the search; lists (faster in Python's loops) otherwise."""
    monkeypatch.setattr("engine.native.GENERATOR", generator)
    words = [f"{a}{b}{c}{d}" for a in "ABCDEFGH" for b in "AEIOU" for c in "LMNRST" for d in "AEIOUS"]
    lex = build(words)
    assert all(type(values) is kind for values in (lex.child, lex.mask, lex.ends))
    loaded = Dawg.from_bytes(lex.to_bytes(), EN)
    changed = loaded.with_words([EN.parse_word("ZZZZ")]).without([EN.parse_word("BAMA")])
    for dawg in (loaded, changed):
        assert all(type(values) is kind for values in (dawg.child, dawg.mask, dawg.ends))
    assert "ZZZZ" in changed and "BAMA" not in changed and len(changed) == len(words)
    if generator == "native":
        assert lex.memory_bytes() < 3 * 4 * (len(lex.child) + 1) + 3 * 100


# -- property -------------------------------------------------------------------------------------

SUB_ALPHABET = EN.parse_word("AEINS")  # five letters
word_sets = st.sets(st.lists(st.sampled_from(SUB_ALPHABET), min_size=1, max_size=6).map(tuple), max_size=40)
probe_words = st.lists(st.lists(st.sampled_from(SUB_ALPHABET), min_size=1, max_size=7).map(tuple), max_size=20)


@settings(max_examples=120, deadline=None)
@given(word_sets, probe_words)
def test_dawg_holds_exactly_the_words(words: set[tuple[int, ...]], probes: list[tuple[int, ...]]) -> None:
    lex = Dawg.build(list(words), EN)
    assert len(lex) == len(words)
    assert list(lex.words()) == sorted(words)
    for word in words:
        assert lex.contains(word)
    for word in probes:
        assert lex.contains(word) == (word in words)
    assert len(lex.child) == minimal_edge_count(words)
    again = Dawg.from_bytes(lex.to_bytes(), EN)
    assert list(again.words()) == sorted(words)
    assert again.checksum == source_checksum(sorted(words))
