"""The rules as data: the rulesets of every language (letters, points, counts, rack size, bingo bonus), the
board's premium squares, and the tile codes.

Uses only ``engine.errors``.
"""
