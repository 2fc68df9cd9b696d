"""The achievements: a catalogue of feats read from a finished game's facts alone
(``standing/facts.py``), each a count of what one game added for one player, kept as a running
counter per player and achievement; a level is earned the first time the counter reaches it.

An achievement with the levels (1,) is earned once; a ladder (1, 5, 25, 100) is earned again
at each rung. A streak's counter goes back to 0 at a game that adds nothing (so its levels are
the longest run). A ``seasonal`` one is no game's: its counter is the closed seasons a player
ended in the top ten of the network's season rating, read when shown from the seasons' stored
ratings (``storage.standing.seasons``), so a game's end and the fold leave it alone. Which
games count is ``counting.counts_for_standing``'s rule (friendly and voided games earn
nothing); the games are folded in the order they ended, so the rebuild (``python -m storage
rerate``) earns exactly what the games' ends earned.

The names and texts are the locales' (``achievement-<id>-name``/``-text``), never here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from engine import Role, Team
from standing.facts import Exit, GameFacts, Night, ShotKind

LADDER = (1, 5, 25, 100)
SHORT = (1, 5, 25)
ONCE = (1,)

CountFn = Callable[[GameFacts, int], int]  # (a game's facts, a seat) -> what it adds


@dataclass(frozen=True, slots=True)
class Achievement:
    """One entry of the catalogue. ``rare``: the club chat may hear of it (the club's
    setting); ``streak``: the counter is a run of games in a row; ``seasonal``: counted from
    the closed seasons' boards, not game by game (its ``count`` adds nothing)."""

    id: str
    icon: str
    levels: tuple[int, ...]
    count: CountFn
    rare: bool = False
    streak: bool = False
    seasonal: bool = False


# ---------------------------------------------------------------- what one game adds
def _won(g: GameFacts, s: int) -> bool:
    """The seat's team won and the seat played to the end of it (a player the host removed
    gets no team win, docs/rules.md#6-technical-death)."""
    return g.seats[s].won and not g.seats[s].technical


def _flag(value: bool) -> int:
    return 1 if value else 0


def _team_size(g: GameFacts, team: Team) -> int:
    return sum(1 for f in g.seats.values() if f.team is team)


def _alone(g: GameFacts, s: int, team: Team) -> bool:
    """The one survivor of a winning team of two or more: the club's "very many points"."""
    seat = g.seats[s]
    return (seat.team is team and _won(g, s) and g.survivors(team) == (s,)
            and _team_size(g, team) >= 2)


def _untouched(g: GameFacts, s: int, team: Team) -> bool:
    """The seat's team won with every one of its players alive at the end."""
    return (g.seats[s].team is team and _won(g, s)
            and len(g.survivors(team)) == _team_size(g, team))


def _shots_survived(g: GameFacts, s: int) -> int:
    """The nights a kill was aimed at the seat and it lived on (the challenge is no kill)."""
    return sum(1 for n in g.nights
               if any(x.target == s and x.kind is not ShotKind.CHALLENGE for x in n.shots)
               and s not in n.died)


def _doctor_saves(g: GameFacts, s: int) -> int:
    return sum(1 for n in g.nights if s in n.heals and (n.heals[s], "doctor") in n.saved)


def _duels(g: GameFacts, s: int) -> list[tuple[Night, int]]:
    """The Sportsman's challenges that took a Mafia player down: (the night, the target)."""
    return [(n, t) for n in g.nights for a, t in n.challenges.items()
            if a == s and any(x.target == t and x.kind is ShotKind.CHALLENGE and x.fatal
                              for x in n.shots)]


def _blocked_acting(g: GameFacts, s: int, *, mafia: bool, role: Role | None = None) -> int:
    """Nights Marilyn deprived of its action a player who chose someone that night."""
    return sum(1 for n in g.nights for a, t in n.blocks.items()
               if a == s and t in n.choices and g.is_mafia(t) == mafia
               and (role is None or g.role(t) is role))


def _mafia_found(g: GameFacts, s: int) -> set[int]:
    return {t for n in g.nights for by, t, mafia in n.checks if by == s and mafia}


def _fatal_shots(g: GameFacts, s: int, kinds: frozenset[ShotKind]) -> list[int]:
    """The targets the seat's shots of these kinds killed (itself left out)."""
    return [x.target for n in g.nights for x in n.shots
            if x.fatal and s in x.by and x.kind in kinds and x.target != s]


def _lawyer_saves(g: GameFacts, s: int) -> int:
    return sum(1 for d in g.days if d.cancelled_by == s and d.verdict is not None
               and not g.is_mafia(d.verdict))


def _judge_mafia(g: GameFacts, s: int) -> int:
    return sum(1 for n in g.nights if s in n.jails and n.jails[s] in n.jailed
               and g.is_mafia(n.jails[s]))


def _bought_out(g: GameFacts, s: int) -> int:
    return sum(1 for n in g.nights if s in n.buyouts and n.buyouts[s] in n.released
               and not g.is_mafia(n.buyouts[s]))


def _friend_saves(g: GameFacts, s: int) -> int:
    return (sum(1 for n in g.nights if (s, "friend") in n.saved)
            + sum(1 for d in g.days if s in d.saved))


def _days_voting_mafia(g: GameFacts, s: int) -> int:
    return sum(1 for d in g.days if s in d.votes and d.votes[s] != s
               and g.is_mafia(d.votes[s]))


def _shootouts_survived(g: GameFacts, s: int) -> int:
    return sum(1 for d in g.days if s in d.tied and len(d.tied) <= 3 and d.verdict != s)


def _first_night(g: GameFacts, s: int) -> bool:
    left = g.seats[s].left
    return left is not None and left.how is Exit.NIGHT and left.number == 1


_KILLS = frozenset({ShotKind.MAFIA, ShotKind.KILLER})


def _killed_policeman(g: GameFacts, s: int) -> int:
    return sum(1 for t in _fatal_shots(g, s, _KILLS) if g.role(t) is Role.POLICEMAN)


def _no_game(g: GameFacts, s: int) -> int:
    """What a game adds to a seasonal achievement: nothing (the seasons' boards count it)."""
    return 0


def _role(role: Role, fn: CountFn) -> CountFn:
    """``fn`` for the seats dealt ``role`` only."""
    return lambda g, s: fn(g, s) if g.role(s) is role else 0


def _roles(roles: frozenset[Role], fn: CountFn) -> CountFn:
    return lambda g, s: fn(g, s) if g.role(s) in roles else 0


_MARILYNS = frozenset({Role.MARILYN, Role.MARILYN_SISTER})
_LAWYERS = frozenset({Role.LAWYER, Role.LAWYER_BROTHER})
_OLIGARCHS = frozenset({Role.OLIGARCH, Role.OLIGARCH_BROTHER})
_CIVILIANS, _MAFIA = Team.CIVILIANS, Team.MAFIA

# ---------------------------------------------------------------- the catalogue
CATALOGUE: tuple[Achievement, ...] = (
    # the games and their results
    Achievement("games", "🎲", (1, 10, 50, 100, 500), lambda g, s: 1),
    Achievement("wins", "🏆", LADDER, lambda g, s: _flag(_won(g, s))),
    Achievement("civilian_wins", "🏡", LADDER,
                lambda g, s: _flag(_won(g, s) and g.seats[s].team is _CIVILIANS)),
    Achievement("mafia_wins", "🕶️", LADDER,
                lambda g, s: _flag(_won(g, s) and g.seats[s].team is _MAFIA)),
    Achievement("win_streak", "🔥", (3, 5, 10), lambda g, s: _flag(_won(g, s)), streak=True),
    Achievement("survivor", "🛡️", LADDER,
                lambda g, s: _flag(_won(g, s) and g.seats[s].survived)),
    Achievement("lone_wolf", "🐺", SHORT, lambda g, s: _flag(_alone(g, s, _MAFIA)), rare=True),
    Achievement("last_civilian", "🕯️", SHORT, lambda g, s: _flag(_alone(g, s, _CIVILIANS)),
                rare=True),
    Achievement("untouched_civilians", "🕊️", SHORT,
                lambda g, s: _flag(_untouched(g, s, _CIVILIANS)), rare=True),
    Achievement("untouched_mafia", "🎩", SHORT, lambda g, s: _flag(_untouched(g, s, _MAFIA)),
                rare=True),
    Achievement("first_night", "🌒", LADDER, lambda g, s: _flag(_first_night(g, s))),
    Achievement("bulletproof", "🦺", ONCE, lambda g, s: _flag(_shots_survived(g, s) >= 3),
                rare=True),
    Achievement("fair_play", "🤝", (10, 25, 100),
                lambda g, s: _flag(g.seats[s].fouls == 0), streak=True),
    Achievement("shootout_survived", "🎰", SHORT, _shootouts_survived),
    Achievement("friend_saved", "💞", SHORT, _friend_saves),
    Achievement("vote_hunter", "🗳️", SHORT,
                lambda g, s: _flag(g.seats[s].team is _CIVILIANS
                                   and _days_voting_mafia(g, s) >= 3)),
    Achievement("season_top", "🌟", LADDER, _no_game, seasonal=True),
    # the cards
    Achievement("doctor_saves", "💉", LADDER, _role(Role.DOCTOR, _doctor_saves)),
    Achievement("doctor_triple", "🩺", SHORT,
                _role(Role.DOCTOR, lambda g, s: _flag(_doctor_saves(g, s) >= 3)), rare=True),
    Achievement("sportsman_duel", "🥊", LADDER,
                _role(Role.SPORTSMAN, lambda g, s: len(_duels(g, s)))),
    Achievement("sportsman_hero", "🏅", ONCE, _role(Role.SPORTSMAN, lambda g, s: _flag(any(
        s not in n.died for n, _ in _duels(g, s)))), rare=True),
    Achievement("sportsman_tough", "💪", SHORT, _role(Role.SPORTSMAN, _shots_survived)),
    Achievement("lucky_escape", "🍀", LADDER, _role(Role.LUCKY, _shots_survived)),
    Achievement("lucky_twice", "🌈", ONCE,
                _role(Role.LUCKY, lambda g, s: _flag(_shots_survived(g, s) >= 2)), rare=True),
    Achievement("lawyer_save", "⚖️", LADDER, _roles(_LAWYERS, _lawyer_saves)),
    Achievement("marilyn_mafia", "💋", LADDER,
                _roles(_MARILYNS, lambda g, s: _blocked_acting(g, s, mafia=True))),
    Achievement("marilyn_maniac", "🌹", SHORT, _roles(_MARILYNS, lambda g, s: _blocked_acting(
        g, s, mafia=False, role=Role.MANIAC))),
    Achievement("policeman_mafia", "🔍", LADDER,
                _role(Role.POLICEMAN, lambda g, s: len(_mafia_found(g, s)))),
    Achievement("policeman_three", "🕵️", ONCE,
                _role(Role.POLICEMAN, lambda g, s: _flag(len(_mafia_found(g, s)) >= 3)),
                rare=True),
    Achievement("judge_mafia", "🔒", LADDER, _role(Role.JUDGE, _judge_mafia)),
    Achievement("oligarch_bail", "💰", SHORT, _roles(_OLIGARCHS, _bought_out)),
    Achievement("maniac_mafia", "🔪", LADDER, _role(Role.MANIAC, lambda g, s: sum(
        1 for t in _fatal_shots(g, s, frozenset({ShotKind.MANIAC})) if g.is_mafia(t)))),
    Achievement("killer_kills", "🎯", LADDER, _role(Role.MAFIA_KILLER, lambda g, s: sum(
        1 for t in _fatal_shots(g, s, frozenset({ShotKind.KILLER})) if not g.is_mafia(t)))),
    Achievement("chief_wins", "👑", LADDER,
                _role(Role.MAFIA_CHIEF, lambda g, s: _flag(_won(g, s)))),
    Achievement("policeman_hunted", "🚨", SHORT,
                lambda g, s: _killed_policeman(g, s) if g.is_mafia(s) else 0),
)

BY_ID: dict[str, Achievement] = {a.id: a for a in CATALOGUE}
GAMES = tuple(a for a in CATALOGUE if not a.seasonal)  # those a game's end counts
SEASON_TOP = BY_ID["season_top"]


# ---------------------------------------------------------------- the running counters
class Count(NamedTuple):
    """A player's counter of one achievement: its value now and the most it ever was (a
    streak's value falls back to 0; its levels are the best run's)."""

    value: int = 0
    best: int = 0


ProgressKey = tuple[int, str]  # (tg_id, achievement id)


class Earned(NamedTuple):
    """A level earned: by the account, of the achievement, the level (a rung of its levels),
    in the game that reached it."""

    tg_id: int
    achievement: str
    level: int
    game_id: int


def levels_reached(achievement: Achievement, best: int) -> tuple[int, ...]:
    return tuple(level for level in achievement.levels if level <= best)


def award(game_id: int, facts: GameFacts, progress: Mapping[ProgressKey, Count]
          ) -> tuple[dict[ProgressKey, Count], list[Earned]]:
    """One counted game folded into its players' counters (``progress``: their counters
    before it; a missing key is a counter at 0): the counters it changed and the levels it
    earned, by seat and then in the catalogue's order."""
    changed: dict[ProgressKey, Count] = {}
    earned: list[Earned] = []
    for seat, player in sorted(facts.seats.items()):
        for achievement in GAMES:
            key = (player.tg_id, achievement.id)
            old = progress.get(key, Count())
            added = achievement.count(facts, seat)
            value = old.value + added if added else (0 if achievement.streak else old.value)
            new = Count(value, max(old.best, value))
            if new != old:
                changed[key] = new
            earned += [Earned(player.tg_id, achievement.id, level, game_id)
                       for level in achievement.levels if old.best < level <= new.best]
    return changed, earned


class Awards:
    """The counters and the levels folded game after game (the rebuild's loop)."""

    def __init__(self) -> None:
        self.progress: dict[ProgressKey, Count] = {}
        self.earned: list[Earned] = []

    def add(self, game_id: int, facts: GameFacts) -> list[Earned]:
        changed, earned = award(game_id, facts, self.progress)
        self.progress.update(changed)
        self.earned += earned
        return earned


def rebuild(games: Iterable[tuple[int, GameFacts]]) -> Awards:
    """Every counter and level from scratch: the counted games folded in their order."""
    awards = Awards()
    for game_id, facts in games:
        awards.add(game_id, facts)
    return awards

