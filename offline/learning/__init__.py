"""Learning from self-play: leave tables (``learn-leaves``) and the win-chance model.

Uses ``offline.runs``, ``engine`` and ``dictionaries``.
"""
