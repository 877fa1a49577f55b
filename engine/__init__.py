"""Pure Wordfeud game logic: rulesets, board, lexicon (DAWG), move generation and scoring.

Nothing in this package touches the network or the clock, and it never imports ``bot``.
"""
