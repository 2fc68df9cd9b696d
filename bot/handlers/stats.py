"""``/stats [NICK]`` (private) and ``/top [rating]`` (private and club chats); logic in
views.stats."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.errors import UserError
from bot.services import Services
from storage.dates import local_day, zone_of
from storage.models import Club, Player
from views import texts
from views.stats import StatsService


async def stats(message: Message, command: CommandObject, services: Services, stats: StatsService,
                locale: str, player: Player | None) -> None:
    tr, nick = services.translator, (command.args or "").strip()
    if nick:
        record = await stats.player(nick)
        if record is None:
            raise UserError("stats.unknown", nick=nick)
    else:
        if player is None:
            raise UserError("misc.not_registered")
        record = await stats.of(player, history=0)
    text = texts.player_stats(tr, locale, record, services.settings.web_url)
    if not nick and player is not None and player.nickname is None:
        text = tr.t(locale, "stats.no_nick") + "\n\n" + text
    await services.replies.answer(message, text)


async def top(message: Message, command: CommandObject, services: Services,
              stats: StatsService, locale: str, club: Club | None = None) -> None:
    """``/top``: by points; ``/top rating``: by the skill rating (the club's, the network's)."""
    tr, what = services.translator, (command.args or "").strip().lower()
    if what not in ("", "rating", "рейтинг"):
        raise UserError("standing.top.usage")
    now, network = services.accounts.clock(), services.settings.timezone
    if club is None and message.from_user is not None:
        club = await stats.home_club(message.from_user.id)
    if what:
        ratings = [] if club is None else [await stats.rating_top(club)]
        ratings.append(await stats.rating_top(None))
        text = "\n\n".join(texts.rating_board(tr, locale, b) for b in ratings)
    else:
        # each board's period ends today on its own calendar: the club's, the network's
        boards = [] if club is None else [
            await stats.club_top(club, local_day(now, zone_of(club.time_zone, network)))]
        boards.append(await stats.network_top(local_day(now, zone_of(None, network))))
        text = "\n\n".join(texts.leaderboard(tr, locale, b) for b in boards)
    await services.replies.answer(message, text)


def create_router() -> Router:
    router = Router(name="stats")
    router.message.register(stats, Command("stats"), F.chat.type == "private")
    router.message.register(top, Command("top"),
                            F.chat.type.in_({"private", "group", "supergroup"}))
    return router
