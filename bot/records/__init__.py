"""GCG records: written from the bot's games, read from other programs and played back on a Wordfeud board.

Uses ``bot.play``, ``bot.store`` and ``engine``.
"""
