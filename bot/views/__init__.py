"""What a person sees: the status page and its server, the HTML replay, the SVG board, the terminal board, the
hint and stats commands.

Uses every other part of ``bot``, ``engine`` and ``dictionaries``.
"""
