"""Plugging the game layer into the application (bot/app.py calls these two functions)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import Bot, Router
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.delivery.worker import Delivery
from bot.evenings.service import EveningService
from bot.game.core import MayHost
from bot.game.messages.notifier import Notifier
from bot.game.messages.senders import QueueSender
from bot.game.service import GameService
from bot.game.timers import Clock, JobGuard, SchedulerDeadlines, utc_now
from bot.services import Services
from bot.services.permissions import Power
from record.table import GameTimers


def install_games(services: Services, scheduler: AsyncIOScheduler,
                  guard: JobGuard | None = None) -> GameService:
    """Build the game service and hand it to the handlers (``games: GameService``)."""
    settings = services.settings
    timers = GameTimers(
        night=settings.night_seconds,
        mafia_agree=settings.mafia_agree_seconds,
        vote_turn=settings.vote_turn_seconds,
        last_word=settings.last_word_seconds,
        cancel=min(20.0, settings.vote_turn_seconds),
        fate=settings.vote_turn_seconds,
    )
    games: GameService
    delivery = services.extra["delivery"]
    assert isinstance(delivery, Delivery)
    notifier = Notifier(QueueSender(delivery), services.translator,
                        lambda tg_id: games.locale_of(tg_id))
    # Deadlines run on real time, like the scheduler that fires them.
    games = GameService(services.db, notifier, SchedulerDeadlines(scheduler, guard),
                        services.translator, timers=timers, may_host=may_host(services),
                        clock=utc_now, default_locale=settings.default_locale, panel=True,
                        web_url=mini_app_url(settings.web_url), topics=services.sender,
                        pages_url=settings.web_url, zone=settings.timezone,
                        lobby_ttl=settings.lobby_ttl_minutes * 60 or None)
    services.sender.on_blocked(games.on_blocked)
    services.join_lobby = games.join_hook
    services.extra["games"] = games
    games.delivery = delivery
    return games


def install_evenings(services: Services, scheduler: AsyncIOScheduler, guard: JobGuard,
                     clock: Clock) -> EveningService:
    """The club's evenings (``evenings: EveningService`` for the handlers); their timers on
    the application's scheduler."""
    settings = services.settings
    delivery = services.extra["delivery"]
    assert isinstance(delivery, Delivery)
    evenings = EveningService(services.db, delivery, services.translator,
                              deadlines=SchedulerDeadlines(scheduler, guard), clock=clock,
                              zone=settings.timezone, default_locale=settings.default_locale)
    services.extra["evenings"] = evenings
    return evenings


def mini_app_url(web_url: str | None) -> str | None:
    """The pages' address when Telegram may open it as a Mini App (public HTTPS only)."""
    return web_url if web_url and web_url.startswith("https://") else None


def game_routers() -> list[Router]:
    """Included before the foundation's routers, so the game's commands are answered first."""
    from bot.handlers import game_club, game_private

    return [game_private.create_router(), game_club.create_router()]


async def start_games(bot: Bot, games: GameService, evenings: EveningService) -> None:
    """Dispatcher startup: learn the bot's username (deep links), start the delivery worker,
    rebuild every running game from its log and re-arm its deadlines and the evenings'
    timers."""
    me = await bot.me()
    games.bot_username = evenings.bot_username = me.username or ""
    if games.shared:
        # several processes: the sender and each club's holder start these (bot/cluster/sharing.py)
        return
    if games.delivery is not None:
        await games.delivery.start()  # what a previous process left queued goes out first
    await games.restore()
    await evenings.restore()


def may_host(services: Services) -> MayHost:
    """The game layer's question "may this account open a table in this club chat":
    ``Power.HOST`` (bot/services/permissions.py)."""
    permissions = services.permissions

    async def asked(user_id: int, chat_id: int) -> bool:
        return await permissions.may(user_id, Power.HOST, club_id=chat_id)

    return asked


def hosts_there(services: Services, games: GameService) -> Callable[[int, int], Awaitable[bool]]:
    """Who hosts in a club chat (their answers there are never held back:
    bot/telegram/flood.py's ``ClubAnswers``): the staff the database names for it (owners,
    network admins, its club admins and hosts, HOST_IDS), and the host of a table open in it;
    from memory, never asking Telegram (a group's update reads nothing for it)."""
    permissions = services.permissions

    async def is_host(chat_id: int, user_id: int) -> bool:
        return (any(t.chat_id == chat_id and t.open and t.host_id == user_id
                    for t in games.tables.values())
                or await permissions.stored_host(user_id, chat_id))

    return is_host
