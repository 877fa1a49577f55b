"""The board and its values: the one mutable board (place and undo), moves (placement, swap, pass) and their
notation, and racks.

Uses ``engine.rules``.
"""
