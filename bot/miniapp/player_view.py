"""What the player's Mini App shows, as JSON: the player's own record (profile, the skill
rating, the finished games with their pages), the gift shop as ``/gifts`` sees it, and the
evenings to sign up for. Every text is rendered here in the player's language and sent as
plain text (the page puts it in with ``textContent``).

Only the asking account's rows are read, and only what the bot's commands already tell that
player: ``/profile`` (the achievements too), ``/stats``, ``/gifts``, ``/evenings``. Nothing
of a running game: the games are the finished ones (``StatsService.of``), the rating and the
achievements are written at a game's end.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.evenings.service import EveningService
from bot.services.accounts import Accounts
from bot.services.shop import Shop
from standing.rating import Side
from standing.roles import MIN_ROLE_GAMES, Compared
from storage.dates import local_day, zone_of
from storage.db import Database
from storage.models import EVENING_OPEN, Club, Evening, Player
from storage.standing.seasons import FAME_PLACES
from views import evenings as evening_texts
from views.achievements import nearest
from views.i18n import Translator
from views.seasons import SeasonPage, board_lines, season_dates, season_name, season_page
from views.standing import percent, roles_and_rivals
from views.stats import GameLine, PlayerStats, StatsService

TAGS = re.compile(r"<[^>]*>")
GAMES_SHOWN = 50  # the latest finished games listed (the counts are over all of them)
EVENINGS_SHOWN = 20
SIDES = (Side.ALL, Side.CIVILIANS, Side.MAFIA)
# the page's fixed words (``miniapp.player.KEY``)
PAGE_TEXTS = ("title", "tab_profile", "tab_roles", "tab_games", "tab_shop", "tab_evenings",
              "rating", "graph", "roles", "sides", "roles_none", "rivals", "killed_by",
              "killed",
              "requests", "collect", "no", "my_page", "how", "games_none", "evenings_none",
              "close", "refused", "offline", "no_init_data")


def plain(text: str) -> str:
    """The translator's HTML as text."""
    return html.unescape(TAGS.sub("", text))


class Words:
    """The translator in one language, giving plain text."""

    def __init__(self, translator: Translator, locale: str) -> None:
        self.translator, self.locale = translator, locale

    def __call__(self, key: str, /, **kwargs: Any) -> str:
        return plain(self.translator.t(self.locale, key, **kwargs))

    def refusal(self, error: UserError) -> str:
        return self(error.key, **error.kwargs)


@dataclass
class PlayerReads:
    """The services the player's Mini App reads through: the same the commands use."""

    db: Database
    accounts: Accounts
    stats: StatsService
    shop: Shop
    evenings: EveningService | None  # None: the game layer is off (no evenings either)
    translator: Translator
    zone: str = "UTC"  # the network's TIMEZONE: the season's calendar without a home club

    def words(self, player: Player | None, language_code: str | None) -> Words:
        """The player's language: its setting, else Telegram's, else the bot's default."""
        return Words(self.translator, self.accounts.locale_of(player, language_code))

    async def everything(self, player: Player, w: Words) -> dict[str, Any]:
        record = await self.stats.of(player)
        return {
            "locale": w.locale,
            "texts": {key: w(f"miniapp.player.{key}") for key in PAGE_TEXTS},
            "profile": profile_json(player, record, w),
            "rating": rating_json(record, w),
            "achievements": achievements_json(record, w),
            "season": await self.season_json(player, w),
            "graph": await self.graph_json(player),
            "roles": await self.roles_json(player, w),
            "games": [game_json(g, w, record.sex) for g in record.games[:GAMES_SHOWN]],
            "shop": await self.shop_json(player, w),
            "evenings": await self.evenings_json(player, w),
        }

    async def season_json(self, player: Player, w: Words) -> dict[str, Any]:
        """The season under way on the home club's calendar (``/season``'s): the player's
        line, and the Hall of Fame of the season that ended last (the network's)."""
        club = await self.stats.home_club(player.tg_id)
        zone = zone_of(club.time_zone if club is not None else None, self.zone)
        page = await season_page(self.db, local_day(self.accounts.clock(), zone), club=None,
                                 tg_id=player.tg_id)
        return season_json(page, w)

    async def graph_json(self, player: Player) -> dict[str, Any] | None:
        """The overall rating after each counted game, oldest first (None: under two games,
        no line to draw)."""
        points = await self.db.history.points(player.tg_id)
        if len(points) < 2:
            return None
        return {"points": [round(p.ordinal, 2) for p in points],
                "games": [p.game_id for p in points]}

    async def roles_json(self, player: Player, w: Words) -> dict[str, Any]:
        """The counted games by card and by side, each beside everyone's win rate with it;
        the players met most; the night kills by card (as ``/profile`` reads them:
        :func:`views.standing.roles_and_rivals`)."""
        found = await roles_and_rivals(self.db, player.tg_id)
        played = bool(found.cards)

        def row(c: Compared, name: str) -> dict[str, Any]:
            return {"name": name, "games": c.mine.games, "won": percent(c.mine.rate),
                    "everyone": percent(c.everyone.rate), "few": c.mine.games < MIN_ROLE_GAMES}
        return {
            "none": None if played else w("miniapp.player.roles_none"),
            "head": [w("miniapp.player.role_card"), w("web.standing.games"),
                     w("miniapp.player.role_won"), w("miniapp.player.role_everyone")],
            "side_head": [w("web.standing.side"), w("web.standing.games"),
                          w("miniapp.player.role_won"), w("miniapp.player.role_everyone")],
            "cards": [row(c, w(f"game.role.{c.name}")) for c in found.cards],
            "sides": [row(c, w(f"stats.side.{c.name}")) for c in found.sides],
            "note": w("miniapp.player.roles_note", games=MIN_ROLE_GAMES) if played else None,
            # named as the public page names them: by nickname only, never a Telegram name
            "rivals": [{"nickname": r.nickname or "—", "line": w(
                "miniapp.player.rival", together=r.together, won_together=r.won_together,
                against=r.against, won_against=r.won_against)} for r in found.rivals],
            "killed_by": _kills(found.killed_by, w),
            "killed": _kills(found.killed, w),
        }

    async def shop_json(self, player: Player, w: Words) -> dict[str, Any]:
        """``/gifts`` as the player sees it: each gift with why it cannot be taken now, the
        open requests, the clubs where a gift may be collected (its own first)."""
        view = await self.shop.view(player.tg_id)
        home = await self.shop.home_club(player.tg_id)
        try:
            clubs = await self.shop.clubs(player.tg_id)
        except UserError:  # no approved club: nothing can be collected anywhere
            clubs = []
        closed = None
        if player.blocked:
            closed = w("misc.account_blocked")
        elif not view.handing:
            closed = w("shop.no_admins")
        elif not clubs:
            closed = w("shop.refused.no_clubs")
        return {
            "balance": w("shop.balance", points=view.points, reserved=view.reserved,
                         available=view.available),
            "closed": closed,
            "empty": None if view.gifts else w("shop.empty"),
            "gifts": [{
                "id": g.id, "name": g.name, "price": g.price, "left": g.left,
                "photo": g.photo is not None,
                "line": w("miniapp.player.gift", price=g.price, left=g.left),
                "why": None if (why := view.why_not(g)) is None else w(
                    f"shop.why.{why}", missing=g.price - view.available),
                "exchange": w("shop.button.exchange", price=g.price),
                "confirm": w("shop.button.confirm", price=g.price, name=g.name),
            } for g in view.gifts],
            "requests": [{
                "id": r.id,
                "line": w("shop.mine_line", id=r.id, gift=r.gift_name, points=r.points,
                          date=r.created_at.date()),
                "withdraw": w("shop.button.withdraw", id=r.id, gift=r.gift_name),
            } for r in view.requests],
            "clubs": [{"id": c.chat_id, "label": c.label} for c in clubs],
            "home": None if home is None else home.chat_id,
        }

    async def evenings_json(self, player: Player, w: Words) -> list[dict[str, Any]]:
        """The open evenings of the clubs the player plays at (none played yet: every club's),
        and those the player is on the list of, soonest first, with the player's place."""
        if self.evenings is None:
            return []
        mine = {e.evening.id for e in await self.evenings.mine(player.tg_id)}
        played = {g.club_chat_id for g in await self.db.stats.played_games(player.tg_id,
                                                                           limit=50)}
        chosen = [e for e in await self.db.evenings.live()
                  if e.id in mine or (e.status == EVENING_OPEN
                                      and (not played or e.club_chat_id in played))]
        return [await self._evening(e, player, w) for e in chosen[:EVENINGS_SHOWN]]

    async def _evening(self, evening: Evening, player: Player, w: Words) -> dict[str, Any]:
        listed = await self.db.evenings.get(evening.id)
        club = await self.db.clubs.get(evening.club_chat_id)
        signups = listed.signups if listed is not None else ()
        me = listed.of(player.tg_id) if listed is not None else None
        open_ = evening.status == EVENING_OPEN
        return {
            "id": evening.id,
            "when": plain(evening_texts.starts(self.translator, w.locale, evening)),
            "club": _club_name(club),
            "line": w("miniapp.player.evening", tables=evening.tables, seats=evening.seats,
                      count=min(len(signups), evening.capacity), capacity=evening.capacity,
                      waiting=max(0, len(signups) - evening.capacity)),
            "place": None if me is None else plain(evening_texts.place(
                self.translator, w.locale, me.place, evening.capacity)),
            "open": open_,
            "in": w("evening.button.in") if open_ and me is None else None,
            "out": w("evening.button.out") if open_ and me is not None else None,
        }


def _kills(by_role: dict[str, int], w: Words) -> list[str]:
    """``{role: count}`` as lines, the most first."""
    return [w("miniapp.player.kill", role=w(f"game.role.{role}"), count=n)
            for role, n in sorted(by_role.items(), key=lambda kv: (-kv[1], kv[0]))]


def _club_name(club: Club | None) -> str:
    return "" if club is None else club.label


def profile_json(player: Player, record: PlayerStats, w: Words) -> dict[str, Any]:
    lines = [w("web.player.balance", balance=record.balance),
             w("web.player.rank", rank=record.rank) if record.rank is not None
             else w("web.player.unranked"),
             w("web.player.earned", earned=record.earned, spent=record.spent),
             w("web.player.expires", date=record.expires_on) if record.expires_on
             else w("web.player.no_expiry")]
    if record.games:
        lines.append(w("miniapp.player.played", games=record.played))
        lines += [w("web.player.team_row", team=w(f"stats.side.{team}"), played=n, won=won)
                  for team, (n, won) in record.by_team.items()]
        if record.draws:
            lines.append(w("web.player.draws", draws=record.draws))
        if record.survival_rate is not None:
            lines.append(w("web.player.survival", rate=record.survival_rate,
                           sex=record.sex))
    lines.append(w("evening.no_shows", no_shows=record.no_shows))
    return {
        "nickname": player.nickname or "—",
        "blocked": w("misc.account_blocked") if player.blocked else None,
        "lines": lines,
        # the public page, where anyone may read the same record
        "page": None if player.nickname is None else f"player/{player.nickname}",
    }


def season_json(page: SeasonPage, w: Words) -> dict[str, Any]:
    """The season's lines as plain text: its name and dates, the player's line, the Hall of
    Fame's title and lines (None: no season ended yet, ``fame_none`` says so)."""
    tr, locale, season = w.translator, w.locale, page.season
    mine = page.mine
    line = (w("season.mine.none") if mine is None or mine.rating is None else
            w("season.mine", ordinal=mine.rating.ordinal, games=mine.rating.games,
              points=mine.points))
    fame = page.fame[0] if page.fame else None
    return {
        "title": w("season.head", name=season_name(tr, locale, season),
                   dates=season_dates(season)),
        "mine": line,
        "fame_title": None if fame is None else w(
            "season.fame.head", name=season_name(tr, locale, fame.season), places=FAME_PLACES),
        "fame": [] if fame is None else [plain(x) for x in board_lines(tr, locale, fame, {})],
        "fame_none": w("season.fame.none") if fame is None else None,
        "link": "season",
        "link_text": w("web.season.title"),
    }


def rating_json(record: PlayerStats, w: Words) -> dict[str, Any]:
    rows = []
    for side in SIDES:
        rating = record.ratings.get(side)
        if rating is None:
            continue
        rows.append({
            "side": w("web.standing.overall") if side is Side.ALL
            else w(f"stats.side.{side.value}"),
            "value": w("web.standing.value", ordinal=rating.ordinal),
            "games": rating.games, "wins": rating.wins,
            "provisional": w("web.standing.provisional") if rating.provisional else None,
        })
    return {"rows": rows, "none": None if rows else w("web.standing.none"),
            "head": [w("web.standing.side"), w("web.standing.title"), w("web.standing.games"),
                     w("web.standing.wins")]}


def achievements_json(record: PlayerStats, w: Words) -> dict[str, Any]:
    """The achievements earned (each at its highest level; ``level`` None: one without
    levels), then the levelled ones on their way to the next level, the nearest first."""
    earned = [{"id": a.achievement.id, "icon": a.achievement.icon,
               "name": w(f"achievement.{a.achievement.id}.name"),
               "level": a.level if a.levelled else None,
               "text": w(f"achievement.{a.achievement.id}.text")}
              for a in record.achievements if a.level is not None]
    return {
        "title": w("web.achievements.title"),
        "none": None if earned else w("web.achievements.none"),
        "earned": earned,
        "next_title": w("web.achievements.next"),
        "next": [{"id": a.achievement.id, "value": a.value, "next": a.next,
                  "line": w("achievement.progress", icon=a.achievement.icon,
                            name=w(f"achievement.{a.achievement.id}.name"), value=a.value,
                            next=a.next or 0)}
                 for a in nearest(record.achievements, limit=len(record.achievements))],
    }


def game_json(game: GameLine, w: Words, sex: str) -> dict[str, Any]:
    result = ("web.player.draw" if game.won is None
              else "web.player.won" if game.won else "web.player.lost")
    parts = [w(f"game.role.{game.role}") if game.role else "",
             w(result),
             w("miniapp.player.alive" if game.survived else "miniapp.player.dead", sex=sex)]
    if game.fouls:
        parts.append(w("miniapp.player.fouls", fouls=game.fouls))
    return {
        "id": game.game_id,
        "title": w("web.game_link", game=game.game_id, day=game.finished_on)
        if game.finished_on else w("miniapp.player.game", game=game.game_id),
        "club": game.club_title,
        "line": " · ".join(p for p in parts if p),
        "won": game.won,
        "page": f"game/{game.game_id}",
    }
