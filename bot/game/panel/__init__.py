"""The host's table: one read model and one list of legal actions
(:mod:`bot.game.panel.view`) drawn as the private panel (:mod:`bot.game.panel.render`, kept
current by :mod:`bot.game.panel.live`) and served to the Mini App.

May import: ``bot.game.rooms`` and what it may import.
"""
