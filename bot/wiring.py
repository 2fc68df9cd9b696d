"""The composition root: :func:`build` makes every part of the application once, in the order
they depend on each other, each given its collaborators when it is made; :class:`Container`
holds what it made. The handlers receive the parts through aiogram's workflow data, by the
names of their parameters (``services: Services``, ``shop: Shop``, ``games: GameService``)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC
from functools import partial

from aiogram import Bot, Dispatcher, Router
from aiogram.types import Chat, Update, User
from apscheduler.schedulers.asyncio import AsyncIOScheduler

import engine
from bot.clock import Clock, utc_now
from bot.cluster.club_calls import CallsHeard, ClubCalls
from bot.cluster.handled_marks import HandledMarks
from bot.cluster.outbox_notices import OutboxNotices
from bot.cluster.receiving import InboxDispatcher
from bot.cluster.share import ProcessRole, ShareConnection
from bot.cluster.sharing import Sharing, process_lines
from bot.config import LOCALES, Settings
from bot.delivery.rate_limit import Monotonic, Sleep
from bot.delivery.replies import Replies
from bot.delivery.sender import Limits, TelegramSender
from bot.delivery.waits import wait_event
from bot.delivery.worker import Delivery, WaitEvent, Wall
from bot.evenings.service import EveningService
from bot.game.callbacks import is_in_game_press
from bot.game.messages.notifier import Notifier
from bot.game.messages.senders import QueueSender
from bot.game.service import GameService, MayHost
from bot.game.timers import Deadlines, JobGuard, SchedulerDeadlines
from bot.handlers import get_routers
from bot.jobs import Jobs
from bot.metrics import Metrics, RequestMetrics, UpdateMetrics
from bot.observability import Observability, totals
from bot.services import Services
from bot.services.accounts import Accounts
from bot.services.admin import Admin
from bot.services.catalogue import Catalogue
from bot.services.chats import ChatMoves
from bot.services.club_life import ClubLife
from bot.services.club_settings import ClubSettings
from bot.services.moving import Moving
from bot.services.network import NetworkSettings
from bot.services.permissions import Permissions, Power
from bot.services.seasons import SeasonEnds
from bot.services.shop import Shop
from bot.services.staff import StaffDesk
from bot.services.status import Status
from bot.services.voids import VoidService
from bot.telegram.flood import ClubAnswers, FloodGuard, Tell
from bot.telegram.middlewares import AdminOnly, BlockedInGame, ContextMiddleware
from bot.telegram.shutdown import HandlersInFlight
from bot.telegram.updates import UpdateReader
from record.table import GameTimers
from storage.db import Database
from views.i18n import Translator
from views.stats import StatsService


@dataclass(frozen=True)
class GameInputs:
    """What the game layer takes besides the settings: its time (``clock`` and the scheduler
    of its deadlines, ``deadlines``; None: the application's scheduler) and its chance (the
    shoot-outs' draws, ``rng``; the deals' seeds, ``new_seed``). Real time and the system's
    randomness unless a test gives its own."""

    clock: Clock = utc_now
    deadlines: Deadlines | None = None
    rng: random.Random | None = None
    new_seed: Callable[[], bytes] = engine.new_seed


@dataclass(frozen=True)
class EveningInputs:
    """The evenings' time: their ``clock`` (None: the application's) and the scheduler of
    their timers, ``deadlines`` (None: the application's scheduler). The application's unless
    a test gives its own."""

    clock: Clock | None = None
    deadlines: Deadlines | None = None


@dataclass(frozen=True)
class DeliveryInputs:
    """The durable delivery's time (bot/delivery/worker.py): its ``wall`` (the outbox rows'
    times, a retry's), ``sleep`` (a pause) and ``wait`` (an event, or a throttled edit's slot,
    whichever comes first). Real time unless a test gives its own."""

    wall: Wall = time.time
    sleep: Sleep = asyncio.sleep
    wait: WaitEvent = wait_event


@dataclass(frozen=True)
class SendingInputs:
    """The sender's time (bot/delivery/sender.py): ``sleep``, its retries' waits (a 429's
    ``retry_after``, a backoff, a button's answer tried again); ``clock`` and ``pace``, the
    rate limiter's clock and its waits for a turn. Real time unless a test gives its own."""

    sleep: Sleep = asyncio.sleep
    clock: Monotonic = time.monotonic
    pace: Sleep = asyncio.sleep


class BotUsername:
    """The bot's own username, read by whoever writes the way to the bot (the lobby's deep
    links ``t.me/<username>?start=join_<game>``, the evenings' answer to a stranger): "" until
    the dispatcher's startup learns it from getMe (:func:`startup`), the same ever after.
    Made by :func:`build` and given, as a callable, to those parts when they are made."""

    def __init__(self) -> None:
        self._name = ""

    def __call__(self) -> str:
        return self._name

    def learn(self, me: User) -> None:
        self._name = me.username or ""


@dataclass(frozen=True)
class Container:
    """Every long-lived part of one process, made by :func:`build`."""

    services: Services  # the handlers' services (bot/services/__init__.py)
    games: GameService  # the game layer (bot/game/service.py)
    evenings: EveningService  # the clubs' evenings (bot/evenings/service.py)
    dispatcher: Dispatcher  # aiogram's, its routers and middlewares in place
    scheduler: AsyncIOScheduler  # the games' deadlines, the evenings' timers, the jobs
    guard: JobGuard  # the scheduled work a stop waits for
    jobs: Jobs  # the network's daily and hourly jobs (bot/jobs.py)
    metrics: Metrics
    observability: Observability  # /metrics, the gauges, the operators' alerts
    handlers: HandlersInFlight  # the updates being handled, waited for at a stop
    update_reader: UpdateReader  # every update read alone; the malformed ones skipped
    flood: FloodGuard  # each user's rate bound (bot/telegram/flood.py)
    sharing: Sharing | None  # PostgreSQL: the work shared with other processes

    def workflow_data(self) -> dict[str, object]:
        """What a handler may name as a parameter: each service, ``games``, ``evenings``."""
        return {**self.services.as_kwargs(), "games": self.games, "evenings": self.evenings}


def build(settings: Settings, db: Database, bot: Bot, translator: Translator, *,
          clock: Clock, on_lost: Callable[[], None], limits: Limits | None = None,
          in_flight: int, polling_timeout: int = 10, game: GameInputs | None = None,
          evening: EveningInputs | None = None, delivery_time: DeliveryInputs | None = None,
          sending_time: SendingInputs | None = None) -> Container:
    """Every part, each made once with what it needs, in the order they depend on each other:
    the outbox, the services, the game layer, the dispatcher, the processes' sharing.
    ``game``, ``evening``, ``delivery_time`` and ``sending_time``: the game layer's, the
    evenings', the durable delivery's and the sender's time (and the game's chance), real ones
    by default."""
    metrics = Metrics()
    game = game or GameInputs()
    sending = sending_time or SendingInputs()
    sender = TelegramSender(bot, limits=limits, clock=sending.clock, sleep=sending.sleep,
                            pace=sending.pace)
    bot.session.middleware(RequestMetrics(metrics))
    # PostgreSQL: this process's session among the others (bot/cluster/share.py), before the
    # outbox's worker: it claims its chats on it and tells the sender what was queued here
    calls_heard = CallsHeard()  # the club calls' notifications, for the club calls
    url = settings.database_url
    conn = (share_connection(url.get_secret_value(), db, on_lost, calls_heard)
            if db.backend == "postgresql" and url is not None else None)
    notices = OutboxNotices(conn) if conn is not None else None
    timing = delivery_time or DeliveryInputs()
    game_clock = game.clock  # a post's moment is over by the game's time (bot/delivery/late.py)
    delivery = Delivery(db, sender, wall=timing.wall, sleep=timing.sleep, wait=timing.wait,
                        game_clock=lambda: game_clock().timestamp(), claims=conn,
                        remote=notices.tell if notices is not None else None)
    accounts = Accounts(db, default_locale=settings.default_locale, clock=clock)
    # subscribed, not given: what the sender tells (the game layer) sends through it (a cycle)
    sender.on_blocked(accounts.mark_bot_blocked)
    permissions = Permissions.of(db, settings, bot)

    scheduler = AsyncIOScheduler(timezone=UTC)
    guard = JobGuard()
    username = BotUsername()  # learnt at the dispatcher's startup
    games = game_service(settings, db, translator, delivery, sender, permissions,
                         game.deadlines or SchedulerDeadlines(scheduler, guard), game, username)
    sender.on_blocked(games.on_blocked)
    evening = evening or EveningInputs()
    evenings = EveningService(db, delivery, translator,
                              deadlines=evening.deadlines or SchedulerDeadlines(scheduler, guard),
                              clock=evening.clock or clock,
                              zone=settings.timezone, default_locale=settings.default_locale,
                              bot_username=username,
                              on_change=games.guests.list_changed)  # a lobby follows the list
    chat_moves = ChatMoves(db, on_moved=(games.move_chat, evenings.move_chat))
    sender.on_migrated(chat_moves.moved)

    replies = Replies(delivery, sender, budget=ClubAnswers(hosts_there(permissions, games)),
                      on_withheld=metrics.answers_withheld.inc)
    status = Status(db, started=time.time(), totals=lambda: totals(metrics),
                    processes=partial(process_lines, conn) if conn is not None else None)
    shop = Shop(db, accounts, translator, permissions, request_days=settings.gift_request_days,
                queued=delivery.queued, clock=clock)
    services = Services(
        settings=settings, db=db, sender=sender, translator=translator, delivery=delivery,
        replies=replies, accounts=accounts, permissions=permissions,
        admin=Admin(db, accounts, permissions, clock=clock), chat_moves=chat_moves,
        stats=StatsService(db, clock=clock), moving=Moving(accounts, permissions),
        club_settings=ClubSettings(db, settings, permissions, clock=clock),
        club_life=ClubLife(db, accounts, permissions, translator, zone=settings.timezone,
                           enqueue=delivery.enqueue, clock=clock),
        shop=shop, catalogue=Catalogue(db, permissions, clock=clock),
        voids=VoidService(db, accounts, translator, permissions, queued=delivery.queued,
                          clock=clock),
        network=NetworkSettings(db, permissions, clock=clock, zone=settings.timezone),
        season_ends=SeasonEnds(db, translator, zone=settings.timezone, queued=delivery.queued,
                               clock=clock, wall=delivery.wall),
        staff=StaffDesk(db, accounts, permissions, clock=clock),
        status=status, join_lobby=games.join_hook)
    jobs = Jobs(services, scheduler, guard, clock)

    async def post(text: str) -> None:
        if settings.ops_chat_id is not None:
            await sender.send_text(settings.ops_chat_id, text)

    observability = Observability(
        settings, db, metrics, games, status, translator, post, clock,
        # the network's alerts where the outbox is sent (on PostgreSQL, the sender's process)
        sends_outbox=(lambda: ProcessRole.SENDER in conn.roles) if conn is not None
        else lambda: True)

    blocked = BlockedInGame(db, games.refuse_blocked)
    routers = game_routers()
    for router in routers:
        router.message.middleware(blocked)
        router.callback_query.middleware(blocked)
    routers += get_routers(admin_middleware=AdminOnly(services))
    update_reader = UpdateReader(update_kinds(routers),
                                 on_skip=lambda why: metrics.skipped.labels(why).inc())
    # on PostgreSQL the inbox's handled marks, in batches on the share connection
    marks = HandledMarks(conn.mark_handled) if conn is not None else None
    # the dispatcher: the inbox before the handlers on PostgreSQL (bot/cluster/receiving.py)
    dispatcher = (InboxDispatcher(db.inbox, reader=update_reader, mark_handled=marks.mark)
                  if marks is not None else Dispatcher())
    handlers = HandlersInFlight()  # ours first (after aiogram's): a stop waits for these
    dispatcher.update.outer_middleware(handlers)
    dispatcher.update.outer_middleware(UpdateMetrics(metrics))
    flood = FloodGuard(settings.flood_burst, settings.flood_per_second, slow_down(services),
                       exempt=_game_press, on_drop=metrics.flood_dropped.inc)
    dispatcher.update.outer_middleware(flood)
    context = ContextMiddleware(services)
    dispatcher.message.outer_middleware(context)
    dispatcher.callback_query.outer_middleware(context)
    dispatcher.include_routers(*routers)
    dispatcher.startup.register(startup(games, evenings, delivery, username,
                                        shared=conn is not None))

    sharing = None
    if (isinstance(dispatcher, InboxDispatcher) and conn is not None and notices is not None
            and marks is not None):
        calls = ClubCalls(conn, calls_heard)  # requests for a club's holder
        sharing = Sharing(conn, bot, dispatcher, games, delivery, db, marks=marks, calls=calls,
                          notices=notices, evenings=evenings,
                          arm_expiry=jobs.arm, webhook=settings.webhook_url is not None,
                          in_flight=in_flight, polling_timeout=polling_timeout,
                          on_taken=lambda what: metrics.takeovers.labels(what).inc(),
                          on_takeover=observability.takeover)
        from bot.miniapp.server import install_host_calls  # the Mini App's calls to the holder

        install_host_calls(calls, games)
    container = Container(services=services, games=games, evenings=evenings,
                          dispatcher=dispatcher, scheduler=scheduler, guard=guard, jobs=jobs,
                          metrics=metrics, observability=observability, handlers=handlers,
                          update_reader=update_reader, flood=flood, sharing=sharing)
    dispatcher.workflow_data.update(container.workflow_data())
    return container


def game_service(settings: Settings, db: Database, translator: Translator, delivery: Delivery,
                 sender: TelegramSender, permissions: Permissions, deadlines: Deadlines,
                 game: GameInputs, username: BotUsername) -> GameService:
    """The game layer (``games: GameService`` for the handlers), speaking through the outbox;
    its deadlines run on ``game``'s clock, like the scheduler that fires them (real time); its
    lobbies' deep links name the bot by ``username``."""
    timers = GameTimers(
        night=settings.night_seconds,
        mafia_agree=settings.mafia_agree_seconds,
        vote_turn=settings.vote_turn_seconds,
        last_word=settings.last_word_seconds,
        cancel=min(20.0, settings.vote_turn_seconds),
        fate=settings.vote_turn_seconds,
    )
    games: GameService  # the notifier asks the service it speaks for a player's language
    notifier = Notifier(QueueSender(delivery), translator, lambda tg_id: games.locale_of(tg_id))
    games = GameService(db, notifier, deadlines, translator, timers=timers,
                        may_host=may_host(permissions), clock=game.clock, rng=game.rng,
                        new_seed=game.new_seed, bot_username=username,
                        default_locale=settings.default_locale, panel=True,
                        web_url=mini_app_url(settings.web_url), topics=sender,
                        pages_url=settings.web_url, zone=settings.timezone,
                        lobby_ttl=settings.lobby_ttl_minutes * 60 or None)
    return games


def share_connection(url: str, db: Database, on_lost: Callable[[], None],
                     calls: CallsHeard) -> ShareConnection:
    """This process's session among the others (bot/cluster/share.py): what another process
    wrote is forgotten by this one's caches (accounts, clubs, staff roles); the club calls it
    hears are told to ``calls``."""
    return ShareConnection(url, on_lost, on_accounts=db.accounts.forget_payload,
                           on_clubs=db.clubs.cache.forget_payload,
                           on_staff=db.staff.roles.forget_payload,
                           on_call=calls.mark_due, on_answer=calls.answered)


def slow_down(services: Services) -> Tell:
    """The one answer of a flood (bot/telegram/flood.py): in the private chat or the button's
    answer; nothing in a group."""

    async def tell(update: Update, user: User, chat: Chat | None) -> None:
        code = (user.language_code or "")[:2]
        locale = code if code in LOCALES else services.settings.default_locale
        text = services.translator.t(locale, "misc.slow_down")
        if update.callback_query is not None:
            await services.sender.answer(update.callback_query, text)
        elif chat is not None and chat.type == "private":
            await services.replies.send_text(chat.id, text)

    return tell


def _game_press(update: Update) -> bool:
    query = update.callback_query
    return query is not None and is_in_game_press(query.data)


def mini_app_url(web_url: str | None) -> str | None:
    """The pages' address when Telegram may open it as a Mini App (public HTTPS only)."""
    return web_url if web_url and web_url.startswith("https://") else None


def update_kinds(routers: list[Router]) -> list[str]:
    """The update kinds the routers' handlers take: the dispatcher's
    ``resolve_used_update_types()`` once they are included (it has no handlers of its own)."""
    return sorted({kind for router in routers for kind in router.resolve_used_update_types()})


def game_routers() -> list[Router]:
    """Included before the foundation's routers, so the game's commands are answered first."""
    from bot.handlers import game_club, game_private

    return [game_private.create_router(), game_club.create_router()]


def startup(games: GameService, evenings: EveningService, delivery: Delivery,
            username: BotUsername, *, shared: bool) -> Callable[[Bot], Awaitable[None]]:
    """The dispatcher's startup: learn the bot's username (deep links); on one process, start
    the delivery worker, rebuild every running game from its log and re-arm its deadlines and
    the evenings' timers (several processes: the sender and each club's holder start these,
    bot/cluster/sharing.py)."""

    async def start(bot: Bot) -> None:
        username.learn(await bot.me())
        if shared:
            return
        await delivery.start()  # what a previous process left queued goes out first
        await games.restore()
        await evenings.restore()

    return start


def may_host(permissions: Permissions) -> MayHost:
    """The game layer's question "may this account open a table in this club chat":
    ``Power.HOST`` (bot/services/permissions.py)."""

    async def asked(user_id: int, chat_id: int) -> bool:
        return await permissions.may(user_id, Power.HOST, club_id=chat_id)

    return asked


def hosts_there(permissions: Permissions,
                games: GameService) -> Callable[[int, int], Awaitable[bool]]:
    """Who hosts in a club chat (their answers there are never held back:
    bot/telegram/flood.py's ``ClubAnswers``): the staff the database names for it (owners,
    network admins, its club admins and hosts, HOST_IDS), and the host of a table open in it;
    from memory, never asking Telegram (a group's update reads nothing for it)."""

    async def is_host(chat_id: int, user_id: int) -> bool:
        return (any(t.chat_id == chat_id and t.open and t.host_id == user_id
                    for t in games.tables.values())
                or await permissions.stored_host(user_id, chat_id))

    return is_host
