"""The evening's rooms, one per phase: the lobby (and its friend orders), the deal, the
night, the day, the results, the host's controls and the host's whistle (fouls and fines), all
on :mod:`bot.game.rooms.phase`.

May import: ``bot.game.core``, ``bot.game.messages``, ``bot.game.callbacks`` and what those
may import.
"""
