"""Club chat: the host runs the game; players press Join/Leave. Logic: bot.game.service."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace

from aiogram import F, Router
from aiogram.enums import ChatMemberStatus
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, ChatMemberUpdated, Message

from bot.delivery.replies import Replies
from bot.delivery.sender import TelegramSender, topic_of
from bot.errors import UserError
from bot.game.callbacks import LobbyCb
from bot.game.rooms.fouls import parse_reason
from bot.game.service import GameService, Place, Reply
from bot.services.club_life import ClubLife
from bot.services.permissions import Permissions
from storage.models import Club, Player
from storage.numbers import read_number

log = logging.getLogger("bot.handlers.game")
TAGS = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """Callback answers are plain text (no HTML), at most 200 characters."""
    return TAGS.sub("", text).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")[
        :200]


async def _say(message: Message, games: GameService, replies: Replies, locale: str,
               answer: Reply) -> None:
    await replies.answer(message, games.notifier.t(locale, answer.key, **answer.kwargs))


def _place(message: Message) -> Place:
    """Where the command was typed: which of the club's tables it is for (its topic's, in a
    forum; else the sender's: ``Tables.in_chat``)."""
    return Place(message.chat.id, topic_of(message), bool(message.chat.is_forum))


def _table_place(message: Message, command: CommandObject) -> Place:
    """A command that takes no words but a table's number (``/status 2``, ``/night 2``): the
    table it names, in a chat with several; without one, :func:`_place`'s."""
    arg = (command.args or "").strip().lstrip("№#")
    if not arg:
        return _place(message)
    number = read_number(arg)
    if number is None:
        raise UserError("tables.number_usage", command=command.command)
    return replace(_place(message), number=number)


def _user(message: Message) -> int:
    assert message.from_user is not None
    return message.from_user.id


async def newgame(message: Message, games: GameService, locale: str,
                  club_life: ClubLife | None = None) -> None:
    """Who may open a table: the game layer asks ``Power.HOST`` (bot/wiring.py). A chat the
    network has not approved yet: its admins hear of it (once) and the game is friendly."""
    if club_life is not None:
        user = message.from_user
        await club_life.arrived(
            message.chat.id, message.chat.title or str(message.chat.id), locale=locale,
            by=None if user is None else f"{user.full_name} (id {user.id})", members=None)
    await games.open_lobby(_place(message), message.chat.title or str(message.chat.id),
                           _user(message))


async def invite(message: Message, command: CommandObject, games: GameService,
                 replies: Replies, locale: str) -> None:
    """``/invite``: the host's table invites tonight's signed-up players."""
    answer = await games.invite_at(_table_place(message, command), _user(message))
    await _say(message, games, replies, locale, answer)


async def roles(message: Message, command: CommandObject, games: GameService,
                replies: Replies, locale: str) -> None:
    answer = await games.composition(_place(message), _user(message), (command.args or "").strip())
    await _say(message, games, replies, locale, answer)


async def seat(message: Message, command: CommandObject, games: GameService, replies: Replies,
               locale: str) -> None:
    words = (command.args or "").split()
    to = read_number(words[-1].lstrip("№#")) if len(words) >= 2 else None
    if to is None:
        raise UserError("game.reseat.usage")
    answer = await games.reseat(_place(message), _user(message), " ".join(words[:-1]), to)
    await _say(message, games, replies, locale, answer)


SEXES = {"m": "m", "f": "f", "м": "m", "ж": "f"}


async def addseat(message: Message, command: CommandObject, games: GameService,
                  replies: Replies, locale: str) -> None:
    """``/addseat NICK [m|f]``: a seat the host plays (a Telegram player confirms first)."""
    words = (command.args or "").split()
    sex = SEXES.get(words[-1].casefold()) if len(words) > 1 else None
    nick = " ".join(words[:-1] if sex is not None else words)
    if not nick:
        raise UserError("seats.add.usage")
    answer = await games.add_offline(_place(message), _user(message), nick, sex)
    await _say(message, games, replies, locale, answer)


async def unseat(message: Message, command: CommandObject, games: GameService,
                 replies: Replies, locale: str) -> None:
    nick = (command.args or "").strip()
    if not nick:
        raise UserError("seats.unseat.usage")
    answer = await games.unseat(_place(message), _user(message), nick)
    await _say(message, games, replies, locale, answer)


async def fate_mode(message: Message, command: CommandObject, games: GameService,
                    replies: Replies, locale: str) -> None:
    mode = (command.args or "").strip().lower()
    if mode not in ("host", "bot"):
        raise UserError("game.fate.usage")
    answer = await games.set_fate_mode(_place(message), _user(message), mode == "host")
    await _say(message, games, replies, locale, answer)


async def deal(message: Message, command: CommandObject, games: GameService) -> None:
    await games.deal(_table_place(message, command), _user(message))


async def night(message: Message, command: CommandObject, games: GameService) -> None:
    await games.start_night(_table_place(message, command), _user(message))


async def day(message: Message, command: CommandObject, games: GameService) -> None:
    await games.start_day(_table_place(message, command), _user(message))


async def vote(message: Message, command: CommandObject, games: GameService) -> None:
    await games.start_vote(_table_place(message, command), _user(message))


async def status(message: Message, command: CommandObject, games: GameService,
                 replies: Replies, locale: str) -> None:
    """``/status [TABLE]``: the game of the sender's table, or of the table named."""
    answer = await games.status(_table_place(message, command), _user(message))
    await _say(message, games, replies, locale, answer)


async def tech(message: Message, command: CommandObject, games: GameService) -> None:
    """``/tech SEAT``: the club chat hears the technical death itself (no "done" beside it)."""
    seat = read_number((command.args or "").strip().lstrip("№#"))
    if seat is None:
        raise UserError("game.tech.usage")
    await games.technical_death(_place(message), _user(message), seat)


async def foul(message: Message, command: CommandObject, games: GameService) -> None:
    """``/foul SEAT [reason]`` (here or in private): the answer goes to the host in private;
    the club chat hears of the foul only when the club's settings say so."""
    word, _, rest = (command.args or "").strip().partition(" ")
    seat = read_number(word.lstrip("№#"))
    if seat is None:
        raise UserError("foul.usage")
    reason, note = parse_reason(rest)
    await games.foul(_place(message), _user(message), seat, reason, note, confirm=True)


async def unfoul(message: Message, command: CommandObject, games: GameService) -> None:
    """``/unfoul [NUMBER]``: the foul recorded against the wrong seat (by default the latest
    one that stands) no longer counts; its fine comes back."""
    arg = (command.args or "").strip().lstrip("№#")
    number = read_number(arg) if arg else None
    if arg and number is None:
        raise UserError("foul.unfoul_usage")
    await games.undo_foul(_place(message), _user(message), number, confirm=True)


async def _quiet_discipline(message: Message, club: Club, games: GameService, replies: Replies,
                            user_locale: str, run: Callable[[], Awaitable[None]]) -> None:
    """A host's discipline command typed in the club chat (``/foul``, ``/unfoul``, ``/tech``):
    with the club's fouls kept quiet, a refusal or a usage goes to the host in private, not to
    the club chat ("Foul 3 is undone already" would tell the table of a foul). Anyone else's
    refusal ("only the host...") tells nothing of a foul and is answered where it was typed."""
    try:
        await run()
    except UserError as e:
        if club.foul_public or games.registry.hosted_by(_user(message), message.chat.id) is None:
            raise
        await replies.send_text(_user(message),
                                games.notifier.t(user_locale, e.key, **e.kwargs))


async def club_foul(message: Message, command: CommandObject, games: GameService, club: Club,
                    replies: Replies, user_locale: str) -> None:
    await _quiet_discipline(message, club, games, replies, user_locale,
                            lambda: foul(message, command, games))


async def club_unfoul(message: Message, command: CommandObject, games: GameService, club: Club,
                      replies: Replies, user_locale: str) -> None:
    await _quiet_discipline(message, club, games, replies, user_locale,
                            lambda: unfoul(message, command, games))


async def club_tech(message: Message, command: CommandObject, games: GameService, club: Club,
                    replies: Replies, user_locale: str) -> None:
    await _quiet_discipline(message, club, games, replies, user_locale,
                            lambda: tech(message, command, games))


async def speak(message: Message, command: CommandObject, games: GameService) -> None:
    seats = [read_number(w.lstrip("№#")) for w in (command.args or "").split()]
    if not 1 <= len(seats) <= 2 or None in seats:
        raise UserError("game.speak.usage")
    [seat, *by] = [s for s in seats if s is not None]
    await games.give_word(_place(message), _user(message), seat, by[0] if by else None)


async def pause(message: Message, command: CommandObject, games: GameService) -> None:
    await games.pause(_table_place(message, command), _user(message))


async def resume(message: Message, command: CommandObject, games: GameService) -> None:
    await games.resume(_table_place(message, command), _user(message))


async def extend(message: Message, command: CommandObject, games: GameService) -> None:
    seconds = read_number((command.args or "").strip())  # whole seconds ("nan", "١٢": no)
    if seconds is None:
        raise UserError("game.extend.bad", max=3600)
    await games.extend(_place(message), _user(message), float(seconds))


async def endgame(message: Message, command: CommandObject, games: GameService) -> None:
    await games.end_game(_table_place(message, command), _user(message))


async def lobby_button(query: CallbackQuery, callback_data: LobbyCb, games: GameService,
                       sender: TelegramSender, user_locale: str,
                       account: Player | None = None) -> None:
    if callback_data.action == "join":
        answer = await games.join(callback_data.game, query.from_user.id, account)
    elif callback_data.action == "leave":
        answer = await games.leave(callback_data.game, query.from_user.id)
    else:
        answer = await _another_table(query, games)
    # a popup: in the presser's language, not the club's
    await sender.answer(query, plain(games.notifier.t(user_locale, answer.key, **answer.kwargs)))


async def _another_table(query: CallbackQuery, games: GameService) -> Reply:
    """The lobby's "another table": the presser opens the club's next table (as ``/newgame``
    would, in a topic of its own in a forum when the bot may create one)."""
    message = query.message
    if not isinstance(message, Message):
        raise UserError("game.stale")  # the lobby is too old for Telegram to show it
    table = await games.open_lobby(_place(message), message.chat.title or str(message.chat.id),
                                   query.from_user.id)
    return Reply("tables.opened", {"number": table.number, "game": table.game_id})


async def member_left(message: Message, games: GameService) -> None:
    """"X left the group" (or was removed): a lobby X hosts there closes."""
    if message.left_chat_member is not None:
        await games.host_left(message.chat.id, message.left_chat_member.id)


async def member_changed(update: ChatMemberUpdated, games: GameService,
                         permissions: Permissions) -> None:
    """A member's status changed (the bot sees it as the chat's administrator): what the bot
    kept of their administering the chat is asked again; one who left or was banned closes
    the lobby they host there."""
    permissions.chat_member_changed(update.chat.id, update.new_chat_member.user.id)
    if update.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.KICKED):
        await games.host_left(update.chat.id, update.new_chat_member.user.id)


def create_router() -> Router:
    router = Router(name="game_club")
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.message.register(newgame, Command("newgame"))
    router.message.register(invite, Command("invite"))
    router.message.register(roles, Command("roles"))
    router.message.register(seat, Command("seat"))
    router.message.register(addseat, Command("addseat"))
    router.message.register(unseat, Command("unseat"))
    router.message.register(fate_mode, Command("fate"))
    router.message.register(deal, Command("deal"))
    router.message.register(night, Command("night"))
    router.message.register(day, Command("day"))
    router.message.register(vote, Command("vote"))
    router.message.register(status, Command("status"))
    router.message.register(club_tech, Command("tech"))
    router.message.register(speak, Command("speak"))
    router.message.register(club_foul, Command("foul"))
    router.message.register(club_unfoul, Command("unfoul"))
    router.message.register(pause, Command("pause"))
    router.message.register(resume, Command("resume"))
    router.message.register(extend, Command("extend"))
    router.message.register(endgame, Command("endgame"))
    router.callback_query.register(lobby_button, LobbyCb.filter())
    router.message.register(member_left, F.left_chat_member)
    router.chat_member.register(member_changed)
    return router
