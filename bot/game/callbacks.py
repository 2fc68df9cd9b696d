"""Inline button payloads of a game. They carry the game, the phase number and a seat — never a
role — so a forged or stale press is refused by the service, which checks everything again."""

from __future__ import annotations

import functools
from typing import Literal

from aiogram.filters.callback_data import CallbackData


class LobbyCb(CallbackData, prefix="gl"):
    """A lobby's buttons: join, leave, or open another table in the same club chat."""

    game: int
    action: Literal["join", "leave", "table"]


class ConsentCb(CallbackData, prefix="gy"):
    """The answer of a player the host asked to seat (``/addseat``): yes or no."""

    game: int
    yes: bool


class NightCb(CallbackData, prefix="gn"):
    """A night target: game, phase number (``moment``), target seat."""

    game: int
    moment: int
    target: int


class VoteCb(CallbackData, prefix="gv"):
    game: int
    moment: int
    target: int


class CancelCb(CallbackData, prefix="gc"):
    """A Lawyer cancels today's verdict."""

    game: int
    moment: int


class FateCb(CallbackData, prefix="gf"):
    """The host draws the condemned of a shoot-out."""

    game: int
    moment: int
    target: int


class FriendCb(CallbackData, prefix="gfr"):
    """Ordering "Давай дружить": pick a holder (announce=-1), then say whether the name may be
    announced (announce=0/1)."""

    game: int
    holder: int  # the holder's seat
    announce: int = -1


class FriendAcceptCb(CallbackData, prefix="gfa"):
    game: int
    order: int
    accept: bool


# The host's buttons for an offline seat (a player without Telegram): they name the seat, and
# the service accepts them from the host only, for that seat only (``guards.acting_seat``).
class ForNightCb(CallbackData, prefix="gsn"):
    game: int
    moment: int
    seat: int
    target: int


class ForVoteCb(CallbackData, prefix="gsv"):
    game: int
    moment: int
    seat: int
    target: int


class ForCancelCb(CallbackData, prefix="gsc"):
    game: int
    moment: int
    seat: int


def night_data(game: int, moment: int, seat: int, target: int, *, offline: bool) -> str:
    if offline:
        return ForNightCb(game=game, moment=moment, seat=seat, target=target).pack()
    return NightCb(game=game, moment=moment, target=target).pack()


def vote_data(game: int, moment: int, seat: int, target: int, *, offline: bool) -> str:
    if offline:
        return ForVoteCb(game=game, moment=moment, seat=seat, target=target).pack()
    return VoteCb(game=game, moment=moment, target=target).pack()


def cancel_data(game: int, moment: int, seat: int, *, offline: bool) -> str:
    if offline:
        return ForCancelCb(game=game, moment=moment, seat=seat).pack()
    return CancelCb(game=game, moment=moment).pack()


class PanelCb(CallbackData, prefix="gh"):
    """A button of the host's panel: an action of ``GameService.host_act`` (``arg`` its
    argument, ``.`` for ``:``), or ``menu`` (``arg``: the panel page to show). ``moment``: the
    phase the panel was drawn at; a press from another is stale."""

    game: int
    moment: int
    action: str
    arg: str = ""


class FoulOfferCb(CallbackData, prefix="gw"):
    """The host's answer to the offer of the technical death after foul ``number``."""

    game: int
    number: int
    accept: bool


class CheckInCb(CallbackData, prefix="gk"):
    """An invited player is here: seated at the table that invited them."""

    game: int
    evening: int


# The presses the per-user bound lets through: a night choice, a vote, the Lawyer's cancel and
# the host's (the panel, the shoot-out's draw, the answer to a foul's offer), each cheap and
# a second press changing nothing; a choice or a vote must never be lost to a player's typing.
# The lobby's Join/Leave/"another table", the friend orders and the check-in are bound as any
# update: pressed again and again they each write, redraw or ask Telegram.
IN_GAME = (NightCb, VoteCb, CancelCb, ForNightCb, ForVoteCb, ForCancelCb, FateCb, PanelCb,
           FoulOfferCb)


@functools.cache
def _in_game_prefixes() -> frozenset[str]:
    return frozenset(cb.__prefix__ for cb in IN_GAME)


def is_in_game_press(data: str | None) -> bool:
    """Whether a press is one of :data:`IN_GAME`'s (exempt from the per-user bound)."""
    return data is not None and data.partition(":")[0] in _in_game_prefixes()
