"""The measuring lab: ``python -m offline.bench`` (move generation, playouts, endgame), and the scripts that
time, count or census the engine.

Uses every other part of ``offline``, ``engine`` and ``dictionaries``.
"""
