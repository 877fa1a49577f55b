"""Words the server refused, per ruleset, applied on top of a lexicon so they are never played again.

The caller (the bot's store) persists them with ``to_json``/``from_json``.

>>> from engine.lexicon.dawg import Dawg
>>> from engine.rules.ruleset import Ruleset
>>> en = Ruleset.for_id(5)
>>> lex = Dawg.build([en.alphabet.parse_word(w) for w in ["QI", "ZA", "ZAX"]], en.alphabet)
>>> rejected = RejectedWords()
>>> rejected.add(5, "qi")
True
>>> "QI" in rejected.apply(lex, en), "ZA" in rejected.apply(lex, en)
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset


class RejectedWords:
    """Sets of upper-case words per ruleset id; ``apply`` removes them from a lexicon."""

    def __init__(self, words: Mapping[int, Iterable[str]] | None = None) -> None:
        self._words: dict[int, set[str]] = {}
        # (id of the lexicon, ruleset id, words) -> (that lexicon, the lexicon without the words)
        self._applied: dict[tuple[int, int, frozenset[str]], tuple[Dawg, Dawg]] = {}
        for ruleset_id, texts in (words or {}).items():
            for text in texts:
                self.add(ruleset_id, text)

    def add(self, ruleset_id: int, word: str) -> bool:
        """Record a refused word; False if it was known. Raises TileError if the ruleset cannot spell it."""
        alphabet = Ruleset.for_id(ruleset_id).alphabet
        text = alphabet.format_word(alphabet.parse_word(word.strip()))
        known = self._words.setdefault(ruleset_id, set())
        if text in known:
            return False
        known.add(text)
        return True

    def words(self, ruleset_id: int) -> frozenset[str]:
        """The refused words of a ruleset."""
        return frozenset(self._words.get(ruleset_id, ()))

    def apply(self, lexicon: Dawg, ruleset: Ruleset) -> Dawg:
        """The lexicon without this ruleset's refused words (the lexicon itself if there are none).

        The result is cached until another word is added, so calling this every turn is cheap.
        """
        refused = self.words(ruleset.id)
        if not refused:
            return lexicon
        key = (id(lexicon), ruleset.id, refused)
        cached = self._applied.get(key)
        if cached is None or cached[0] is not lexicon:
            self._applied = {k: v for k, v in self._applied.items() if k[:2] != key[:2]}
            parse = ruleset.alphabet.parse_word
            cached = (lexicon, lexicon.without(parse(word) for word in refused))
            self._applied[key] = cached
        return cached[1]

    def to_json(self) -> dict[str, list[str]]:
        """A JSON-ready form: ruleset id (as text) -> sorted words."""
        return {str(rid): sorted(words) for rid, words in sorted(self._words.items()) if words}

    @classmethod
    def from_json(cls, data: Mapping[str, Iterable[str]]) -> RejectedWords:
        """Read back what ``to_json`` wrote; raises ValueError naming a bad ruleset key."""
        words: dict[int, Iterable[str]] = {}
        for key, texts in data.items():
            try:
                words[int(key)] = texts
            except ValueError:
                raise ValueError(f"rejected words: ruleset key {key!r} is not a ruleset id") from None
        return cls(words)
