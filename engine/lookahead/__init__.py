"""Looking ahead: the ``sim`` simulation (C playouts, a confidence stop), the inference of the opponent's rack,
the exact values with one tile in the bag, and the win-chance model.

Uses ``engine.equity`` and below.
"""
