"""Strategy against strategy on the local game: the arena's matches, strategies of other checkouts over a pipe,
and players that see hidden tiles (to measure what they are worth).

Uses ``offline.runs``, ``engine`` and ``dictionaries``.
"""
