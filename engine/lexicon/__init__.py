"""The lexicon: a compressed DAWG, built from a word list, read from and written to its binary file, and an
overlay of words learned in play.

Uses ``engine.native`` (the C copy of the arrays), ``engine.rules`` and ``engine.board``.
"""
