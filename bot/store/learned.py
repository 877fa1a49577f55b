"""Words the server refused and words it accepted, per ruleset: the lexicon the bot plays with.

An accepted word (one the opponent or the bot played and the server took) is proof that the word
is valid in that ruleset: it is added to the lexicon and never refused locally again; a refused word
that was later accepted is un-refused. ``apply`` gives the lexicon with the accepted words and without
the refused ones: an ``engine.lexicon.overlay.LexiconOverlay`` of it, made at the first call and changed in
place by every later word (a cost per word that does not grow with the words learned before); the
bot's store persists both.

>>> from engine.lexicon.dawg import Dawg
>>> from engine.rules.ruleset import Ruleset
>>> en = Ruleset.for_id(5)
>>> lex = Dawg.build([en.alphabet.parse_word(w) for w in ["QI", "ZAX"]], en.alphabet)
>>> learned = LearnedWords()
>>> learned.add(5, "qi"), learned.accept(5, "za")
(True, True)
>>> view = learned.apply(lex, en)
>>> "QI" in view, "ZA" in view, "ZAX" in view
(False, True, True)
>>> learned.accept(5, "QI"), "QI" in learned.apply(lex, en), learned.words(5)
(True, True, frozenset())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.store.rejections import RejectedWords
from engine.lexicon.dawg import Dawg
from engine.lexicon.overlay import LexiconOverlay
from engine.rules.ruleset import Ruleset


class LearnedWords(RejectedWords):
    """Refused words (``add``, ``words``: as ``RejectedWords``) and accepted ones (``accept``,
    ``accepted``) per ruleset id; an accepted word always wins over a refusal."""

    def __init__(
        self,
        refused: Mapping[int, Iterable[str]] | None = None,
        accepted: Mapping[int, Iterable[str]] | None = None,
    ) -> None:
        self._accepted: dict[int, set[str]] = {}
        # ruleset id -> (the base lexicon, the overlay played with: changed in place by each new word)
        self._overlays: dict[int, tuple[Dawg, LexiconOverlay]] = {}
        super().__init__(refused)
        for ruleset_id, texts in (accepted or {}).items():
            for text in texts:
                self.accept(ruleset_id, text)

    def add(self, ruleset_id: int, word: str) -> bool:
        """Record a refused word; False if it was known or once accepted (an acceptance is proof)."""
        text = _canonical(ruleset_id, word)
        if text in self._accepted.get(ruleset_id, ()):
            return False
        added = super().add(ruleset_id, text)
        if added:
            self._change(ruleset_id, text, refused=True)
        return added

    def accept(self, ruleset_id: int, word: str, *, in_lexicon: bool = False) -> bool:
        """Record a word the server accepted (un-refusing it); False if it was known.

        ``in_lexicon`` says the word is in the lexicons this is applied to and was not refused, so
        the lexicon played with stays as it is. Raises TileError if the ruleset cannot spell the word."""
        text = _canonical(ruleset_id, word)
        known = self._accepted.setdefault(ruleset_id, set())
        if text in known:
            return False
        known.add(text)
        refused = self._words.get(ruleset_id, set())
        if not in_lexicon or text in refused:
            refused.discard(text)
            self._change(ruleset_id, text, refused=False)
        return True

    def accepted(self, ruleset_id: int) -> frozenset[str]:
        """The accepted words of a ruleset."""
        return frozenset(self._accepted.get(ruleset_id, ()))

    def apply(self, lexicon: Dawg, ruleset: Ruleset) -> Dawg:
        """The lexicon with this ruleset's accepted words and without its refused ones (the lexicon
        itself if there are none). Made once per base lexicon, then kept up to date word by word: the
        same object is returned, changed in place, so calling it every turn is cheap."""
        rid = ruleset.id
        accepted, refused = self._accepted.get(rid, set()), self._words.get(rid, set())
        cached = self._overlays.get(rid)
        if cached is not None and cached[0] is lexicon:
            return cached[1].dawg
        if not accepted and not refused:
            return lexicon
        parse = ruleset.alphabet.parse_word
        overlay = LexiconOverlay(lexicon)
        overlay.add(parse(word) for word in accepted)
        overlay.remove(parse(word) for word in refused)
        self._overlays[rid] = (lexicon, overlay)
        return overlay.dawg

    def _change(self, ruleset_id: int, text: str, *, refused: bool) -> None:
        """Carry one word's change into the ruleset's overlay, if one was made."""
        cached = self._overlays.get(ruleset_id)
        if cached is None:
            return
        word = [Ruleset.for_id(ruleset_id).alphabet.parse_word(text)]
        if refused:
            cached[1].remove(word)
        else:
            cached[1].add(word)


def _canonical(ruleset_id: int, word: str) -> str:
    """The word as its ruleset's tiles spell it in upper case; TileError if they cannot."""
    alphabet = Ruleset.for_id(ruleset_id).alphabet
    return alphabet.format_word(alphabet.parse_word(word.strip()))
