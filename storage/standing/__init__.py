"""A player's standing as stored: each finished game's outcome in the order the games ended
(``game_outcomes``), the skill ratings folded from them (``ratings``) and each player's counted
games with the card, the result and the rating after each (``rating_history``: the graph, the
records by card, the rivals; ``history.py``) and who killed whom at night (``night_kills``,
read from the game's log: ``kills.py``) and the achievements (each player's counters and the
levels earned: ``achievements.py``) and the seasons (each counted game's season, each season's
own rating, its boards and Hall of Fame: ``seasons.py``), written at a game's end in the
transaction that applies its points (``ratings.record_outcome``, called by ``Games.finish``)
and rebuilt from scratch by ``Ratings.rerate`` and ``Achievements.rebuild`` (``python -m
storage rerate``, ``storage/tools/rerate.py``). The numbers are computed by the pure
``standing`` package.

May import: ``standing``, ``engine``, ``record``, ``storage.sql`` and the value modules
(``storage.models``, ``storage.errors``).
"""
