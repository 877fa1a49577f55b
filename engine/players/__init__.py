"""Players by name: the registry of every strategy (``strategy_named``), the strength levels that play like
people, and matches between strategies on the local game.

Uses every other part of ``engine``.
"""
