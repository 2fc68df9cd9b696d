"""A player's standing across the network, computed from finished games alone: the skill rating
(``rating.py``: OpenSkill over a game's two teams, per player overall and per side) and which
games count toward it (``counting.py``), the seasons' calendar (``seasons.py``), and a finished
game's facts read from its log (``facts.py``: who sat with which card, who won, how each player
left and by whose shot, the nights' and days' events). Pure: no I/O, no clock; the same games
in the same order give the same numbers, so ``python -m storage rerate`` rebuilds what the
games' ends wrote. Start with ``rating.py``.

May import: ``engine``, ``record``.
"""
