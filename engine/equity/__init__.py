"""Static evaluation: the Strategy protocol, ``greedy`` and ``equity`` (score plus the value of the tiles kept),
the leave models and tables, and the samples they are learned from.

Uses ``engine.endgame``, ``engine.game``, ``engine.movegen`` and below.
"""
