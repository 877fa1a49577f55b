"""The exact endgame with the bag empty: negamax with alpha-beta in Python (the reference) and its C twin.

Uses ``engine.movegen`` and below.
"""
