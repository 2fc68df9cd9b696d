"""A season's end in each club's chat: the closed season's club board as a picture, queued
once through the outbox (durable: a restart sends what is queued).

An hourly job (``bot.jobs.Jobs.arm``, on the one process that runs the daily jobs) looks at each
approved club whose ``season_post`` is on: once its own calendar has passed the last season's
last day (by ``POST_AFTER`` into the next, so a game ending at 23:59 is in before), and for
``POST_WITHIN_DAYS`` days after, the picture of that season's club board goes to its chat, if
the club played a counted game in it. The post and its mark (``season_posts``) are written in
one transaction, so it goes once whatever the job's runs, retries and processes. A job rather
than the first game's end after the season: a club that plays no more still gets its picture,
and no game's end waits for a drawing's read.

The same job tells each player of a closed season's top ten (the ``season_top`` achievement)
in private, once: when the season is over on every clock (``standing.seasons.closed``, as the
achievement reads it) and for ``POST_WITHIN_DAYS`` days after, under the outbox key
``season_top:<season>`` (a second send of a key is never queued, whatever the runs).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from datetime import datetime, timedelta
from datetime import time as clock_time

from bot.clock import Clock, utc_now
from bot.delivery.payload import Picture, encode, send_payload
from standing.seasons import LAST_CLOCK, closes_at, previous, season_of
from storage.dates import zone_of
from storage.db import Database
from storage.models import is_offline_account
from storage.repos.outbox import SEND, Queued
from views.achievements import season_told
from views.i18n import Translator, pick_locale
from views.seasons import season_chart, season_name

POST_AFTER = clock_time(0, 15)  # on the club's clock, the day after the season's last
POST_WITHIN_DAYS = 7  # after that, a season's end is no news (a long outage, a first start)
BOARD_LINES = 10  # each column of the picture

Queue = Callable[[Sequence[Queued], Collection[int]], None]


class SeasonEnds:
    def __init__(self, db: Database, translator: Translator, *, zone: str,
                 queued: Queue | None = None, clock: Clock = utc_now,
                 wall: Callable[[], float] = time.time) -> None:
        self.db = db
        self.tr = translator
        self.zone = zone  # the network's TIMEZONE: a club without its own
        self.clock = clock
        self.wall = wall
        self.queued = queued  # wakes the delivery (the application's ``Delivery.queued``)

    async def run(self) -> int:
        """Queue each due club's picture of the season that ended, and the top ten's private
        messages once it is over everywhere; how many pictures were queued."""
        now = self.clock()
        await self.tell_top_ten(now)
        customs = await self.db.seasons.customs()
        posted = 0
        for listed in await self.db.stats.clubs():
            club = await self.db.clubs.get(listed.chat_id)
            if club is None or not club.approved or not club.season_post:
                continue
            local = now.astimezone(zone_of(club.time_zone, self.zone))
            ended = previous(season_of(local.date(), customs), customs)
            after = local - datetime.combine(ended.end + timedelta(days=1), POST_AFTER,
                                             tzinfo=local.tzinfo)
            if after < timedelta(0) or after > timedelta(days=POST_WITHIN_DAYS):
                continue
            boards = await self.db.seasons.boards(ended, club_chat_id=club.chat_id,
                                                  limit=BOARD_LINES)
            if not boards.rating and not boards.points:  # no counted game there: no news
                continue
            chart = season_chart(self.tr, club.locale, boards, club.label)
            caption = self.tr.t(club.locale, "season.post.caption",
                                name=season_name(self.tr, club.locale, ended), club=club.label)
            message = Queued(club.chat_id, SEND,
                             encode(Picture(picture=chart.to_json(), caption=caption)),
                             key=f"season_end:{ended.key}")
            new = await self.db.network.post_season_end(ended.key, club.chat_id, [message],
                                                        now=now, wall=self.wall())
            if new is None:
                continue
            posted += 1
            if self.queued is not None:
                self.queued([message], new)
        return posted

    async def tell_top_ten(self, now: datetime) -> int:
        """Each player of the top ten of the season that closed last (within
        ``POST_WITHIN_DAYS`` of its close) told once; how many messages were queued."""
        customs = await self.db.seasons.customs()
        ended = previous(season_of(now.astimezone(LAST_CLOCK).date(), customs), customs)
        since = now - closes_at(ended)
        if since < timedelta(0) or since > timedelta(days=POST_WITHIN_DAYS):
            return 0
        messages: list[Queued] = []
        for line in await self.db.seasons.top_ten(ended.key):
            player = await self.db.players.get(line.tg_id)
            if player is None or is_offline_account(line.tg_id):  # nobody to tell
                continue
            locale = pick_locale(player.language, None, self.tr.default)
            seasons = len(await self.db.seasons.top_tens(line.tg_id, now))
            text = season_told(self.tr, locale, season_name(self.tr, locale, ended),
                               line.rank, seasons)
            messages.append(Queued(line.tg_id, SEND, send_payload(text),
                                   key=f"season_top:{ended.key}"))
        new = await self.db.outbox.enqueue(messages, self.wall())
        if new and self.queued is not None:
            self.queued(messages, new)
        return len(new)
