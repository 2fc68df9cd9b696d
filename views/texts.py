"""Rendering of the longer answers (profile, balance, top, stats, complaints) from service data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import quote

from standing.rating import PROVISIONAL_GAMES, Rating, Side
from storage.models import BalanceView, LedgerRow, Player, TopEntry
from views.i18n import Safe, Translator, sex_of
from views.stats import Leaderboard, PlayerStats, RatingBoard


def profile(tr: Translator, locale: str, player: Player, spouse: str | None,
            spouse_sex: str | None = None) -> str:
    none = tr.t(locale, "misc.none")
    lang = tr.t(locale, f"lang.name_{player.language}") if player.language else none
    return tr.t(
        locale,
        "profile.text",
        name=player.display_name,
        nick=player.nickname or tr.t(locale, "profile.no_nick"),
        lang=lang,
        sex=tr.t(locale, f"sex.{player.sex}") if player.sex else none,
        spouse=spouse or none,
        spouse_sex=sex_of(spouse_sex if spouse else None),
        games=player.games_played,
        status=tr.t(locale, "profile.status_blocked" if player.blocked else "profile.status_ok"),
    )


def rating_lines(tr: Translator, locale: str, ratings: Mapping[Side, Rating]) -> list[str]:
    """The skill rating: overall (marked provisional while it is), then each side played."""
    overall = ratings.get(Side.ALL)
    if overall is None:
        return [tr.t(locale, "standing.unrated")]
    lines = [tr.t(locale, "standing.rating", ordinal=overall.ordinal, games=overall.games,
                  wins=overall.wins)]
    for side in (Side.CIVILIANS, Side.MAFIA):
        r = ratings.get(side)
        if r is not None:
            lines.append(tr.t(locale, "standing.side", side=tr.t(locale, f"stats.side.{side}"),
                              ordinal=r.ordinal, games=r.games, wins=r.wins))
    if overall.provisional:
        lines.append(tr.t(locale, "standing.provisional.note", games=PROVISIONAL_GAMES))
    return lines


def rating_board(tr: Translator, locale: str, board: RatingBoard) -> str:
    """One table of ``/top rating``: the club's or the network's."""
    header = (tr.t(locale, "standing.top.network") if board.club_chat_id is None
              else tr.t(locale, "standing.top.club", club=board.title))
    lines = [header]
    lines += [tr.t(locale, "standing.top.row", rank=e.rank, nick=e.nickname or "—",
                   ordinal=e.rating.ordinal, games=e.rating.games) for e in board.entries] \
        or [tr.t(locale, "standing.top.empty", games=PROVISIONAL_GAMES)]
    return "\n".join(lines)


def ledger_reason(tr: Translator, locale: str, row: LedgerRow) -> str:
    reason = row.reason
    # a game's reasons read as the end's post says them; an admin's reason is their own text
    if row.kind == "game" and tr.has(locale, f"game.reason.{reason}"):
        reason = tr.t(locale, f"game.reason.{reason}")
    key = f"ledger.{row.kind}"
    if not tr.has(locale, key):
        return reason
    return tr.t(locale, key, reason=reason, game=row.game_id or "?")


def balance(tr: Translator, locale: str, view: BalanceView) -> str:
    info = view.info
    lines = [tr.t(locale, "balance.text", points=info.points)]
    if view.reserved:  # open gift requests hold some: what is free apart
        lines.append(tr.t(locale, "shop.balance_reserved", reserved=view.reserved,
                          available=view.available))
    if info.rank is not None:
        lines.append(tr.t(locale, "balance.rank", rank=info.rank, total=info.players_ranked))
    else:
        lines.append(tr.t(locale, "balance.unranked"))
    if view.expires_on is not None:
        lines.append(tr.t(locale, "balance.expires", date=view.expires_on))
    else:
        lines.append(tr.t(locale, "balance.no_expiry"))
    lines.append("")
    if view.rows:
        lines.append(tr.t(locale, "balance.recent"))
        for row in view.rows:
            reason = ledger_reason(tr, locale, row)
            # the reason is already escaped by the translator: mark it as safe
            lines.append(tr.t(locale, "balance.row", day=row.day, points=row.points,
                              reason=Safe(reason)))
    else:
        lines.append(tr.t(locale, "balance.no_rows"))
    return "\n".join(lines)


def top(tr: Translator, locale: str, entries: list[TopEntry]) -> str:
    if not entries:
        return tr.t(locale, "top.empty")
    lines = [tr.t(locale, "top.header")]
    lines += [
        tr.t(locale, "top.row", rank=e.rank, nick=e.nickname, points=e.points) for e in entries
    ]
    return "\n".join(lines)


def complaints(tr: Translator, locale: str, counts: list[tuple[Player, int]]) -> str:
    if not counts:
        return tr.t(locale, "admin.complaints_empty")
    lines = [tr.t(locale, "admin.complaints_header")]
    for player, count in counts:
        lines.append(tr.t(locale, "admin.complaints_row",
                          nick=player.nickname or player.display_name, count=count))
    return "\n".join(lines)



def status(tr: Translator, locale: str, *, uptime_s: float, version: str,
           processes: Sequence[tuple[int, Sequence[str], int, bool]], games_open: int,
           updates_per_minute: int, messages_per_minute: int, outbox_pending: int,
           outbox_oldest_s: float | None) -> str:
    """``/status``: processes are (session, roles, clubs, whether it is this one)."""
    minutes = int(uptime_s // 60)
    lines = [tr.t(locale, "admin.status_header", version=version,
                  days=minutes // 1440, hours=minutes % 1440 // 60, minutes=minutes % 60)]
    if not processes:
        lines.append(tr.t(locale, "admin.status_one_process"))
    for session, roles, clubs, this in processes:
        names = ", ".join(tr.t(locale, f"admin.status_role_{r}") for r in roles)
        key = "admin.status_process_this" if this else "admin.status_process"
        lines.append(tr.t(locale, key, session=str(session), clubs=clubs, roles=names or "—"))
    lines.append(tr.t(locale, "admin.status_load", games=games_open,
                      updates=updates_per_minute, messages=messages_per_minute))
    if outbox_oldest_s is None:
        lines.append(tr.t(locale, "admin.status_outbox_empty"))
    else:
        lines.append(tr.t(locale, "admin.status_outbox", pending=outbox_pending,
                          seconds=round(outbox_oldest_s)))
    return "\n".join(lines)


def leaderboard(tr: Translator, locale: str, board: Leaderboard) -> str:
    """One table of ``/top``: the club's (with its period) or the network's."""
    if board.since is None:
        header = tr.t(locale, "stats.top.network", until=board.until)
    else:
        header = tr.t(locale, "stats.top.club", club=board.title, since=board.since,
                      until=board.until)
    lines = [header]
    lines += [tr.t(locale, "stats.top.row", rank=e.rank, nick=e.nickname, points=e.points)
              for e in board.entries] or [tr.t(locale, "stats.top.empty")]
    return "\n".join(lines)


def player_stats(tr: Translator, locale: str, s: PlayerStats, web_url: str | None) -> str:
    """``/stats``: games, wins per team, cards, survival, points, last reasons, expiry."""
    lines = [tr.t(locale, "stats.header", nick=s.nickname)]
    if s.games:
        lines.append(tr.t(locale, "stats.games", games=s.played))
        lines += rating_lines(tr, locale, s.ratings)
        for team, (played, won) in s.by_team.items():
            lines.append(tr.t(locale, "stats.team", team=tr.t(locale, f"stats.side.{team}"),
                              played=played, won=won))
        if s.draws:
            lines.append(tr.t(locale, "stats.draws", draws=s.draws))
        cards = ", ".join(tr.t(locale, "stats.card", card=tr.t(locale, f"game.role.{c}"),
                               count=n) for c, n in s.cards.most_common())
        lines.append(tr.t(locale, "stats.cards", cards=Safe(cards)))
        lines.append(tr.t(locale, "stats.survival", rate=s.survival_rate or 0,
                          survived=s.survived, games=s.played, sex=s.sex))
        lines.append(tr.t(locale, "stats.fouls", fouls=s.fouls, rate=s.fouls_per_game or 0.0))
    else:
        lines.append(tr.t(locale, "stats.no_games"))
    lines.append(tr.t(locale, "evening.no_shows", no_shows=s.no_shows))
    lines.append("")
    lines.append(tr.t(locale, "stats.points", balance=s.balance, earned=s.earned,
                      spent=s.spent))
    if s.rank is not None:
        lines.append(tr.t(locale, "stats.rank", rank=s.rank))
    if s.recent:
        lines.append(tr.t(locale, "stats.recent"))
        lines += [tr.t(locale, "stats.row", day=row.day, points=row.points,
                       reason=Safe(ledger_reason(tr, locale, row))) for row in s.recent]
    if s.expires_on is not None:
        lines.append(tr.t(locale, "stats.expires", date=s.expires_on))
    else:
        lines.append(tr.t(locale, "stats.no_expiry"))
    if web_url:
        lines.append(tr.t(locale, "stats.web", url=f"{web_url.rstrip('/')}/player/"
                          f"{quote(s.nickname)}"))
    return "\n".join(lines)
