"""``/stats [NICK]`` (private), ``/top [rating | role CARD]`` and ``/season`` (private and
club chats); logic in views.stats, views.standing and views.seasons."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.errors import UserError
from bot.game.rooms.deal import card_names, fold_card_name
from bot.services import Services
from engine import Role
from storage.dates import local_day, zone_of
from storage.models import Club, Player
from views import texts
from views.i18n import Safe
from views.seasons import season_page, season_text
from views.standing import role_top, role_top_text
from views.stats import StatsService

ROLE_WORDS = ("role", "роль", "карта", "card")  # ``/top role CARD``


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
    """``/top``: by points; ``/top rating``: by the skill rating (the club's, the network's);
    ``/top role CARD``: the network's best with a card."""
    tr, args = services.translator, (command.args or "").strip()
    what, _, card = args.partition(" ")
    what = what.lower()
    if what in ROLE_WORDS:
        await services.replies.answer(message, await top_role(services, locale, card))
        return
    if (args and what not in ("rating", "рейтинг")) or card:
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


async def top_role(services: Services, locale: str, typed: str) -> str:
    """``/top role CARD``: the card named as ``/roles`` takes it (any language, the club's
    names); none or an unknown one gets the cards' names."""
    tr = services.translator
    cards = ", ".join(tr.t(locale, f"game.role.{r}") for r in Role)
    if not typed.strip():
        raise UserError("standing.top.role_usage", cards=Safe(cards))
    role = card_names(tr).get(fold_card_name(typed))
    if role is None:
        raise UserError("standing.top.role_unknown", name=typed.strip(), cards=Safe(cards))
    return role_top_text(tr, locale, await role_top(services.db, str(role)))


async def season(message: Message, services: Services, stats: StatsService, locale: str,
                 club: Club | None = None) -> None:
    """``/season``: the season under way on the club's calendar (the reader's home club in a
    private chat, else the network's): the reader's line, the club's and the network's
    boards, and the Hall of Fame of the season that ended last."""
    if club is None and message.from_user is not None:
        club = await stats.home_club(message.from_user.id)
    zone = zone_of(club.time_zone if club is not None else None, services.settings.timezone)
    page = await season_page(services.db, local_day(services.accounts.clock(), zone), club=club,
                             tg_id=None if message.from_user is None else message.from_user.id)
    await services.replies.answer(message, season_text(services.translator, locale, page,
                                                       services.settings.web_url))


def create_router() -> Router:
    router = Router(name="stats")
    router.message.register(stats, Command("stats"), F.chat.type == "private")
    router.message.register(top, Command("top"),
                            F.chat.type.in_({"private", "group", "supergroup"}))
    router.message.register(season, Command("season"),
                            F.chat.type.in_({"private", "group", "supergroup"}))
    return router
