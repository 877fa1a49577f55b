"""The moves of a position: Appel-Jacobson generation (the readable Python reference; ``engine.native`` for the C
kernel), cross-checks, and the scorer and validator of a placement.

Uses ``engine.lexicon`` and below.
"""
