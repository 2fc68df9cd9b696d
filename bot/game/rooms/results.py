"""Announcing a result: engine events, the dead's last words, what comes next, and the end.

A night, a day or a technical death resolves into a :data:`Result`; :meth:`ResultsRoom.announce`
sends it and logs ``announced``. When the game is over, :meth:`ResultsRoom.finish` posts the points,
reveals the deal and writes the ledger once, with the achievements its players earned told in
the same transaction; ``/endgame`` reveals the deal too.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import engine
from bot.delivery.payload import send_payload
from bot.game.answers import secs
from bot.game.messages.notifier import Notifier, message_ref
from bot.game.messages.pictures import table_picture
from bot.game.prompts import Prompts
from bot.game.rooms.offers import end_offers
from bot.game.steps import Steps
from bot.game.tables import TableDefaults, Tables
from bot.game.timekeeper import Timekeeper
from record.log_events import Announced, LastWord, LastWordOver
from record.posts import Post
from record.table import Result, Stage, Table
from standing.achievements import BY_ID, Earned
from storage.db import Database
from storage.models import GamePoints, is_offline_account
from storage.repos.outbox import SEND, Queued
from views import achievements as achievement_texts
from views.stats import reason_lines

if TYPE_CHECKING:
    from views.picture import TableView


class ResultsRoom:
    """What a resolution announces, and the end of the game (``/endgame`` reveals too)."""

    def __init__(self, db: Database, tables: Tables, steps: Steps, timekeeper: Timekeeper,
                 defaults: TableDefaults, notifier: Notifier, prompts: Prompts,
                 pages_url: str | None = None) -> None:
        self.db = db
        self.tables = tables
        self.steps = steps
        self.timekeeper = timekeeper
        self.clock = timekeeper.clock
        self.defaults = defaults  # the day a game ends on, in its club's time zone
        self.notifier = notifier
        self.tr = notifier.tr
        self.prompts = prompts
        self.pages_url = pages_url.rstrip("/") if pages_url else None  # WEB_URL

    async def announce(self, table: Table, result: Result) -> None:
        """The outcome of a resolution: engine events, last words, then what comes next."""
        told = {kind for moment, kind in table.memory.told if moment == table.moment}
        morning = isinstance(result, engine.NightResult) and not table.game.over
        picture = None
        if morning:
            day = table.game.current_day
            picture = table_picture(table, self.tr, "seats.picture.day", game=table.game_id,
                                    day=day)
        await self.notifier.events(table, [
            e for e in result.events
            if not (isinstance(result, engine.DayResult) and e.kind in told)])
        # never after a technical death, nor after the end: nobody waits for them then
        if not isinstance(result, engine.TechnicalDeathResult) and result.died \
                and not table.game.over:
            await self._last_words(table, list(result.died), 0)
        if isinstance(result, engine.DayResult) and not table.game.over:
            held = all(e.kind != "vote_impossible" for e in result.events)
            key = "game.evening" if held else "game.evening_no_vote"
            await self.notifier.club(table, key + ("_typed" if await self.prompts.host_types(table)
                                                   else ""), night=table.game.night_number + 1)
        ref = message_ref(table, f"r{table.resolved_seq}")
        vote_post = None
        if isinstance(result, engine.DayResult):  # the verdict goes in the vote's tally post
            vote_post, table.memory.vote_post = self.vote_post(table), None
        if table.game.over:
            await self.finish(table)  # the end's posts join the outcome's
            return
        if morning:
            await self._morning(table, picture, day, ref)
        else:
            table.memory.last_post = await self.notifier.tell(table.chat_id, vote_post, ref)
        await self.steps.record(table, Announced(table.resolved_seq))

    async def _morning(self, table: Table, picture: TableView | None, day: int, ref: str) -> None:
        """The morning is one post: the day's picture, its caption the night's news and the
        day's start (the last words' ends are edited into it); without a picture, or when the
        news is too long for a caption, the news is a post and the picture follows it."""
        start = self.notifier.t(table.locale, await self.day_start(table), day=day)
        if picture is None:
            await self.notifier.send(table.chat_id, start)
            table.memory.last_post = await self.notifier.tell(table.chat_id, None, ref)
            return
        news = self.notifier.take_post(table.chat_id, Post(ref, start, caption=True).room())
        if news is None:  # too long for a caption (or nothing said)
            table.memory.last_post = await self.notifier.tell(table.chat_id, None, ref)
            await self.notifier.club_photo(table, picture, start)
            return
        caption = f"{news}\n\n{start}"
        await self.notifier.club_photo(table, picture, caption, ref=ref)
        table.memory.last_post = Post(ref, caption, caption=True)

    async def day_start(self, table: Table) -> str:
        """The day's start: who starts the vote (its command when the host has no panel)."""
        return "game.day.start_typed" if await self.prompts.host_types(table) else "game.day.start"

    def tally_ref(self, table: Table) -> str:
        return message_ref(table, f"s{table.moment}", "tally")

    def vote_post(self, table: Table) -> Post | None:
        """The tally's post of the vote under way, if it was posted (not an earlier vote's)."""
        post = table.memory.vote_post
        return post if post is not None and post.ref == self.tally_ref(table) else None

    async def _last_words(self, table: Table, seats: list[int], index: int) -> None:
        """The dead speak one after another, LAST_WORD_SECONDS each (docs/rules.md#44-last-word).

        The timer is logged (``last_word``) while the game runs, so a restart re-arms it
        (:meth:`rearm_last_word`) and "the last word is over" is still posted. Words still
        under way (the morning's, when the vote's verdict comes quickly) go on: the new dead
        speak after them, in the same logged sequence (never replacing it)."""
        running = table.last_words
        if running is not None and index == 0 and not table.game.over:
            earlier, current, until = running
            queued = [*earlier, *(s for s in seats if s not in earlier)]
            await self.steps.record(table, LastWord(tuple(queued), current, until))
            self._arm_last_word(table, queued, current, until)  # the same key: replaced
            await self.notifier.club(table, "game.last_word.after", who=", ".join(
                self.notifier.seat(table, s) for s in queued if s not in earlier))
            return
        seconds = self.timekeeper.timers(table).last_word
        until = self.timekeeper.at(seconds)
        await self.notifier.club(table, "game.last_word.start",
                                 who=self.notifier.seat(table, seats[index]),
                                 seconds=secs(seconds), until=until)
        if not table.game.over:  # a finished game's log is closed: its last words are not kept
            await self.steps.record(table, LastWord(tuple(seats), index, until))
        self._arm_last_word(table, seats, index, until)

    def _arm_last_word(self, table: Table, seats: list[int], index: int,
                       until: datetime) -> None:
        self.timekeeper.schedule(table, f"last_word_{seats[index]}",
                                 max(until, self.clock()),
                                 partial(self._last_word_over, table, seats, index,
                                         table.game.night_number))

    async def end_last_word(self, table: Table) -> None:
        """The night falls (``/night``, inside its step): a last word still under way ends
        first, said before the night in the same post, and its timer is stopped; the dead not
        heard yet are not called. The table then reads the word's end, then the night."""
        if table.last_words is None:
            return
        seats, index, _ = table.last_words
        self.timekeeper.cancel(table, f"last_word_{seats[index]}")
        await self.steps.record(table, LastWordOver(index))
        await self.notifier.club(table, "game.last_word.over",
                                 who=self.notifier.seat(table, seats[index]))

    def rearm_last_word(self, table: Table) -> None:
        """After a restart: the last word under way when the bot stopped ends on time (or at
        once, when its time passed while the bot was down)."""
        if table.last_words is not None and table.open:
            seats, index, until = table.last_words
            self._arm_last_word(table, seats, index, until)

    async def _last_word_over(self, table: Table, seats: list[int], index: int,
                              night: int) -> None:
        async with self.steps.lock(table.game_id):
            if table.stage is Stage.NIGHT or table.game.night_number > night \
                    or table.game.over:
                return  # a night fell since this word began (end_last_word), or the game ended
            t = self.notifier.t
            loc = table.locale
            lines = [t(loc, "game.last_word.over", who=self.notifier.seat(table, seats[index]))]
            # logged with the post it causes (one step): a stop before it re-arms the timer
            if table.last_words is not None and self.tables.by_id.get(table.game_id) is table:
                await self.steps.record(table, LastWordOver(index))
            if index + 1 < len(seats):
                until = self.timekeeper.at(self.timekeeper.timers(table).last_word)
                lines.append(self.notifier.timed(
                    table, loc, "game.last_word.start",
                    until, who=self.notifier.seat(table, seats[index + 1]),
                    seconds=secs(self.timekeeper.timers(table).last_word)))
                if not table.game.over and self.tables.by_id.get(table.game_id) is table:
                    await self.steps.record(table, LastWord(tuple(seats), index + 1, until))
                self._arm_last_word(table, seats, index + 1, until)
            await self.notifier.send(table.chat_id, "\n\n".join(lines))
            # said in the outcome's post, not a new one (a new one when it no longer fits)
            table.memory.last_post = await self.notifier.tell(
                table.chat_id, table.memory.last_post,
                message_ref(table, f"r{table.resolved_seq}", "w", index))

    async def reveal(self, table: Table, *, cards: bool = True) -> None:
        """The deal's key (the fair-deal check) and, for ``/endgame``, every seat's card; at
        the end ``cards=False``: its "Game over" has just listed them (said once)."""
        assert table.seed is not None
        game = table.game
        # one line on how to check: the game's page explains it (a finished game's only)
        check = ("game.end.check_link" if self.pages_url and not cards
                 else "game.end.check")
        key: dict[str, Any] = {
            "seed": table.seed.hex(), "commitment": table.commitment or "",
            "check": lambda loc: self.tr.t(loc, check,
                                           url=f"{self.pages_url}/game/{table.game_id}#deal")}
        if not cards:
            await self.notifier.club(table, "game.end.key", **key)
            return
        await self.notifier.club(
            table, "game.end.seed", **key,
            lines=lambda loc: "\n".join(
                f"{self.notifier.seat(table, p.seat)} — {self.tr.t(loc, f'game.role.{p.role}')}"
                for p in game))

    async def finish(self, table: Table) -> None:
        """ResultsRoom, the seed, the points (once), first-day-killed marks, games played."""
        self.timekeeper.disarm(table)
        game = table.game
        totals: dict[int, list[engine.LedgerEntry]] = {}
        for entry in game.ledger:
            totals.setdefault(entry.seat, []).append(entry)

        def points(loc: str) -> str:
            lines = []
            for seat in game.seats:
                entries = totals.get(seat, [])
                reasons: dict[str, int] = {}
                for e in entries:  # a seat's fines and their reversals: one net line
                    why = "fines" if isinstance(e.reason, engine.FineReason) else str(e.reason)
                    reasons[why] = reasons.get(why, 0) + e.points
                detail = ", ".join(f"{self.tr.t(loc, f'game.reason.{r}')} {p:+}"
                                   for r, p in reason_lines(reasons) if p or r != "fines")
                # nothing to explain (no points, or a fine given back): the total alone
                lines.append(self.tr.t(loc, "game.end.points_line" if detail else
                                       "game.end.points_line_none",
                                       who=self.notifier.seat(table, seat),
                                       total=sum(e.points for e in entries), detail=detail))
            return "\n".join(lines)
        if table.friendly:  # said plainly: nothing of this game is counted
            await self.notifier.club(table, "game.end.friendly")
        else:
            await self.notifier.club(table, "game.end.points", lines=points)
        await self.reveal(table, cards=False)  # "Game over" listed the cards
        # one post: the outcome, the points and the deal (the last words' ends go in too)
        table.memory.last_post = await self.notifier.tell(table.chat_id, None,
                                                   message_ref(table, "end"))
        picture = table_picture(table, self.tr, "seats.picture.end", game=table.game_id)
        await self.notifier.club_photo(
            table, picture, self.notifier.t(table.locale, "seats.picture.end", game=table.game_id))
        for seat in sorted(table.first_day_dead):
            await self.db.first_day_killed.mark(table.chat_id, table.day, table.tg_of(seat))
        await end_offers(table, self.notifier)
        # the fines are written already, each with its foul's step (bot/game/rooms/fouls.py);
        # a friendly game has none and counts for nobody (the storage refuses its points)
        rows_ = [] if table.friendly else [
            GamePoints(table.tg_of(e.seat), e.points, str(e.reason), e.phase)
            for e in game.ledger if not isinstance(e.reason, engine.FineReason)]
        await self.steps.flush(table)  # the end's posts are queued before the game is closed
        club = await self.db.clubs.cached(table.chat_id)
        sent: list[Queued] = []
        sender = self.notifier.sender

        def tell(earned: Sequence[Earned]) -> list[Queued]:
            sent[:] = self.achievements_told(table, earned, public=club is not None
                                             and club.achievements_public)
            # a durable sender's messages are rows of the end's transaction; another's go
            # out after it
            return sent if sender.durable else []

        # the outcome rates the game in the same transaction, never before its end; the
        # achievements it earns are told in that transaction too (an end applied already,
        # after a restart, earns and tells nothing again)
        # the day it ends on in the club's time zone decides its season (storage/standing/)
        ended_on = self.defaults.day_of(club, self.clock())
        await self.db.games.finish(table.game_id, status="finished", points=rows_, day=table.day,
                                   winner=None if game.winner is None else str(game.winner),
                                   ended_on=ended_on, tell=tell, wall=time.time())
        if sent:
            await sender.queued(sent, {m.chat_id for m in sent})
        table.stage = Stage.OVER
        self.tables.drop(table.game_id)

    def achievements_told(self, table: Table, earned: Sequence[Earned], *,
                          public: bool) -> list[Queued]:
        """The game's end in private: each player who earned a level hears of all of theirs
        in one message (an account without Telegram: nobody to tell); with ``public`` (the
        club's setting) the club chat hears of the rare ones in one post."""
        mine: dict[int, list[tuple[str, int]]] = {}
        for e in earned:
            mine.setdefault(e.tg_id, []).append((e.achievement, e.level))
        out = [Queued(tg, SEND, send_payload(achievement_texts.told(
                   self.tr, self.notifier.locale_of(tg), table.game_id, levels)),
                   key=f"g{table.game_id}:achievements:{tg}")
               for tg, levels in mine.items() if not is_offline_account(tg)]
        rare = [(self.notifier.seat(table, seat), e.achievement, e.level) for e in earned
                if BY_ID[e.achievement].rare and (seat := table.seat_of(e.tg_id)) is not None]
        if public and rare:
            post = Queued(table.chat_id, SEND, send_payload(achievement_texts.club_post(
                self.tr, table.locale, table.game_id, rare)),
                key=message_ref(table, "achievements"))
            out += self.notifier.placed(table, [post])
        return out
