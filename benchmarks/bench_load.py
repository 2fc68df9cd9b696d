"""Load benchmark: ``python -m benchmarks.bench_load --games N [--minutes M] [--out FILE]``.

The real bot process (``python -m bot``) runs against the project's fake Bot API server
(``tests/fakes/telegram_server.py``) with Telegram's rate limits on (30 messages a second
overall, 1 a second per private chat after a burst of 3, 20 a minute per group: 429 with
``retry_after`` beyond them). Simulated players in this process play ``N`` concurrent
12-player games to the end with compressed timers: random legal choices (the buttons they are
given), some players slow, some missing their turn. Then it prints (and with ``--out`` writes
as JSON) a table of figures; what each figure means is in docs/benchmarks.md.

Before the games, a 20-player table is dealt alone: the time from ``/deal`` to the last card,
against the minimum Telegram's limits allow.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import platform
import random
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from storage.db import Database
from tests.fakes.telegram_server import FakeTelegram, Request, SentMessage, TelegramLimits

ROOT = Path(__file__).resolve().parents[1]
PLAYERS_PER_GAME = 12
DEAL_TABLE = 20
TIMERS = {"NIGHT_SECONDS": "3", "MAFIA_AGREE_SECONDS": "2", "VOTE_TURN_SECONDS": "2",
          "LAST_WORD_SECONDS": "0.5"}
SETTINGS = ("BOT_TOKEN", "TELEGRAM_API_URL", "DATABASE_PATH", "ADMIN_IDS", "HOST_IDS",
            "NIGHT_SECONDS", "MAFIA_AGREE_SECONDS", "VOTE_TURN_SECONDS", "LAST_WORD_SECONDS",
            "DEFAULT_LOCALE", "WEB_PORT", "WEB_URL")
# club texts (DEFAULT_LOCALE=en) that close a phase
DAY_BEGINS, EVENING, GAME_OVER, BUSY = "☀️ <b>Day", "The vote is over", "Game over", "Finish the"
CHOICE_PREFIXES = ("gn:", "gv:", "gc:")
SENDS = frozenset({"sendMessage", "sendDocument"})
EDITS = frozenset({"editMessageText", "editMessageReplyMarkup"})
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass
class Table:
    """One simulated table: its club chat, host and players, and what happened to it."""

    index: int
    club: int
    host: int
    players: list[int]
    game_id: int = 0
    phases: list[tuple[float, str]] = field(default_factory=list)  # (start, phase kind)
    over: bool = False
    error: str = ""
    finished_at: float = 0.0
    joins: list[str] = field(default_factory=list)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


async def wait_until(cond: Any, timeout: float, what: str) -> None:  # noqa: ASYNC109
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.1)


def buttons_with(message: SentMessage, prefixes: tuple[str, ...]) -> list[str]:
    return [data for _, data in message.buttons() if data.startswith(prefixes)]


class Bench:
    def __init__(self, fake: FakeTelegram, rng: random.Random, deadline: float) -> None:
        self.fake = fake
        self.rng = rng
        self.deadline = deadline
        self.slow: set[int] = set()  # players who answer late (often after their turn)
        self.queries: list[str] = []
        self.tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ players
    async def answer_prompts(self, table: Table) -> None:
        """Each player answers every new choice prompt in private (a random button)."""
        seen: dict[int, int] = defaultdict(int)
        while not table.over:
            for uid in table.players:
                messages = self.fake.messages(uid)
                for message in messages[seen[uid]:]:
                    choices = buttons_with(message, CHOICE_PREFIXES)
                    if choices:
                        task = asyncio.create_task(self.choose(uid, message, choices))
                        self.tasks.add(task)
                        task.add_done_callback(self.tasks.discard)
                seen[uid] = len(messages)
            await asyncio.sleep(0.2)

    async def choose(self, uid: int, message: SentMessage, choices: list[str]) -> None:
        roll = self.rng.random()
        if roll < 0.08:
            return  # misses the turn: the timer acts
        slow = uid in self.slow
        delay = self.rng.uniform(1.0, 3.0) if slow else self.rng.uniform(0.2, 1.0)
        await asyncio.sleep(delay)
        data = self.rng.choice(choices)
        self.queries.append(await self.fake.press(uid, message, data))

    # ------------------------------------------------------------------ the host
    async def host_says(self, table: Table, text: str) -> int:
        before = len(self.fake.messages(table.club))
        await self.fake.send(table.host, text, chat_id=table.club)
        return before

    def club_since(self, table: Table, before: int) -> list[str]:
        return [m.body for m in self.fake.messages(table.club)[before:]]

    async def lobby(self, table: Table) -> None:
        table.phases.append((time.monotonic(), "lobby"))
        await self.host_says(table, "/newgame")
        await wait_until(lambda: any(buttons_with(m, ("gl:",))
                                     for m in self.fake.messages(table.club)),
                         self.remaining(), "the lobby post")
        lobby = next(m for m in self.fake.messages(table.club) if buttons_with(m, ("gl:",)))
        table.game_id = int(buttons_with(lobby, ("gl:",))[0].split(":")[1])
        for uid in table.players:
            await asyncio.sleep(self.rng.uniform(0.05, 0.3))
            query = await self.fake.press(uid, lobby, f"gl:{table.game_id}:join")
            self.queries.append(query)
            table.joins.append(query)

    async def deal(self, table: Table) -> float:
        """/deal once every player is seated; returns when the command was sent."""
        await wait_until(lambda: self.all_joined(table), self.remaining(), "everyone seated")
        table.phases.append((time.monotonic(), "deal"))
        while True:
            before = await self.host_says(table, "/deal")
            sent = time.monotonic()
            await wait_until(lambda b=before: self.club_since(table, b),
                             self.remaining(), "an answer to /deal")
            if not any(BUSY in t for t in self.club_since(table, before)):
                return sent
            await asyncio.sleep(1)

    def all_joined(self, table: Table) -> bool:
        answers = self.fake.callback_answers
        return all("at the table" in str(answers.get(q, {}).get("text", ""))
                   for q in table.joins) and len(table.joins) == len(table.players)

    def has_card(self, uid: int) -> bool:
        return any(m.protect_content for m in self.fake.messages(uid))

    async def play(self, table: Table) -> None:
        players = asyncio.create_task(self.answer_prompts(table))
        try:
            await self.lobby(table)
            await self.deal(table)
            await wait_until(lambda: all(self.has_card(u) for u in table.players),
                             self.remaining(), "the cards")
            night = True
            while not table.over:
                command = "/night" if night else "/vote"
                table.phases.append((time.monotonic(), command[1:]))
                before = await self.host_says(table, command)
                marker = DAY_BEGINS if night else EVENING

                def done(before: int = before, marker: str = marker) -> bool:
                    texts = self.club_since(table, before)
                    return any(marker in t or GAME_OVER in t or BUSY in t for t in texts)

                await wait_until(done, self.remaining(), f"the end of {command}")
                texts = self.club_since(table, before)
                if any(GAME_OVER in t for t in texts):
                    table.over = True
                    table.finished_at = time.monotonic()
                    table.phases.append((time.monotonic(), "end"))
                elif any(BUSY in t for t in texts) and not any(marker in t for t in texts):
                    table.phases.pop()  # not begun: the previous part is still being announced
                    await asyncio.sleep(1)
                    continue
                night = not night
                await asyncio.sleep(self.rng.uniform(0.2, 1.0))  # the host talks
        except TimeoutError as e:
            table.error = f"stuck waiting for {e}"
        finally:
            table.over = True
            players.cancel()

    def remaining(self) -> float:
        return max(0.1, self.deadline - time.monotonic())


# ---------------------------------------------------------------------- set-up
async def prefill(path: Path, tables: list[Table]) -> None:
    """Players registered with nicknames, not newbies; clubs in English."""
    db = await Database.open(path)
    try:
        for table in tables:
            await db.clubs.ensure(table.club, title=f"Club {table.index}", locale="en")
            for uid in table.players:
                await db.players.register(uid, display_name=f"U{uid}", language="en")
                await db.players.set_nickname(uid, f"P{uid}")
            await db.players.record_game_played(table.players, datetime.now(UTC).date())
    finally:
        await db.close()


def make_tables(first: int, count: int, size: int) -> list[Table]:
    return [Table(index=first + g, club=-1_000_000 - (first + g), host=900_000 + first + g,
                  players=[1_000_000 + (first + g) * 100 + i for i in range(size)])
            for g in range(count)]


def introduce(fake: FakeTelegram, tables: list[Table]) -> None:
    for table in tables:
        fake.group(table.club, f"Club {table.index}")
        fake.user(table.host, f"Host{table.index}", language_code="en")
        for uid in table.players:
            fake.user(uid, f"U{uid}", language_code="en")


async def spawn(tmp: Path, fake: FakeTelegram, hosts: list[int]) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if k.upper() not in SETTINGS}
    env.update(PYTHONPATH=str(ROOT), BOT_TOKEN=fake.token, TELEGRAM_API_URL=fake.base_url,
               DATABASE_PATH=str(tmp / "mafia.sqlite3"), HOST_IDS=",".join(map(str, hosts)),
               DEFAULT_LOCALE="en", **TIMERS)
    output = (tmp / "bot.log").open("wb")  # the child's logs (stdout)
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp, env=env,
        stdout=output, stderr=output)


def proc_stats(pid: int) -> tuple[float, float]:
    """(peak RSS in MB, CPU seconds user+system) of a live process, from /proc."""
    peak = 0.0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLK_TCK
    return peak, cpu


# ---------------------------------------------------------------------- the 20-player deal
async def deal_table(bench: Bench, table: Table) -> dict[str, Any]:
    fake = bench.fake
    await bench.lobby(table)
    start_log = len(fake.log)
    sent = await bench.deal(table)
    await wait_until(lambda: all(bench.has_card(u) for u in table.players), 120, "the cards")
    update_id = max(u for u, upd in fake.sent_updates.items()
                    if upd.get("message", {}).get("text") == "/deal"
                    and upd["message"]["chat"]["id"] == table.club)
    delivered = fake.delivered_at.get(update_id, sent)
    cards = [r.at for r in fake.log[start_log:]
             if r.status == 200 and r.method in SENDS and r.params.get("protect_content")
             and r.chat_id in table.players]
    club_posts = sum(1 for r in fake.log[start_log:]
                     if r.status == 200 and r.method in SENDS and r.chat_id == table.club)
    await fake.send(table.host, "/endgame", chat_id=table.club)
    table.over = True
    # the minimum: 20 cards at 30 a second overall (each to its own chat, within its burst)
    minimum = len(table.players) / 30
    took = max(cards) - delivered
    return {"players": len(table.players), "seconds": took, "minimum": minimum,
            "ratio": took / minimum, "club_posts": club_posts}


# ---------------------------------------------------------------------- the figures
def first_request_after(log: list[Request]) -> dict[int, list[float]]:
    by_chat: dict[int, list[float]] = defaultdict(list)
    for r in log:
        if r.chat_id is not None:
            by_chat[r.chat_id].append(r.at)
    return by_chat


def figures(fake: FakeTelegram, tables: list[Table], bench: Bench) -> dict[str, Any]:
    log = fake.log
    answered: dict[str, float] = {}
    for r in log:
        if r.method == "answerCallbackQuery" and r.status == 200:
            answered.setdefault(str(r.params.get("callback_query_id")), r.at)
    press: list[float] = []
    unanswered = 0
    for query in bench.queries:
        update_id = fake.query_updates[query]
        if update_id not in fake.delivered_at:
            continue
        if query in answered:
            press.append(answered[query] - fake.delivered_at[update_id])
        else:
            unanswered += 1
    by_chat = first_request_after(log)
    first: list[float] = []
    for update_id, at in fake.delivered_at.items():
        update = fake.sent_updates[update_id]
        if "callback_query" in update:
            query = update["callback_query"]["id"]
            if query in answered:
                first.append(answered[query] - at)
            continue
        times = by_chat.get(update["message"]["chat"]["id"], [])
        i = bisect.bisect_left(times, at)
        if i < len(times):
            first.append(times[i] - at)
    club_of = {t.club: t for t in tables}
    players_of = {uid: t for t in tables for uid in t.players}
    posts: Counter[str] = Counter()
    edits: Counter[str] = Counter()
    private = 0
    for r in log:
        if r.status != 200 or r.chat_id is None:
            continue
        table = club_of.get(r.chat_id)
        if table is not None and (r.method in SENDS or r.method in EDITS):
            starts = [s for s, _ in table.phases]
            phase = table.phases[max(0, bisect.bisect_right(starts, r.at) - 1)][1] \
                if table.phases else "lobby"
            (posts if r.method in SENDS else edits)[phase] += 1
        elif r.chat_id in players_of and r.method in SENDS:
            private += 1
    too_many = sum(1 for r in log if r.status == 429)
    too_many_club = sum(1 for r in log if r.status == 429 and r.chat_id in club_of)
    # lost: a send that failed and was never repeated successfully, plus expected posts missing
    delivered_texts = {(r.chat_id, r.params.get("text")) for r in log
                       if r.status == 200 and r.method in SENDS}
    failed_never_sent = {(r.chat_id, r.params.get("text")) for r in log
                         if r.status != 200 and r.method in SENDS} - delivered_texts
    missing_cards = sum(1 for t in tables for u in t.players
                        if not any(m.protect_content for m in fake.messages(u)))
    missing_final = sum(1 for t in tables if t.finished_at and not any(
        "Key:" in m.body for m in fake.messages(t.club)))
    phases_per_game: Counter[str] = Counter()
    for t in tables:
        for _, kind in t.phases:
            phases_per_game[kind] += 1
    n = len(tables)
    return {
        "press_answer_ms": (1000 * percentile(press, 50), 1000 * percentile(press, 99),
                            1000 * max(press, default=float("nan"))),
        "presses": len(press), "unanswered": unanswered,
        "update_first_ms": (1000 * percentile(first, 50), 1000 * percentile(first, 99)),
        "club_posts_per_game": sum(posts.values()) / n,
        "club_edits_per_game": sum(edits.values()) / n,
        "club_per_phase": {k: (posts[k] / max(1, phases_per_game[k]),
                               edits[k] / max(1, phases_per_game[k]))
                           for k in ("lobby", "deal", "night", "vote", "end")},
        "private_per_game": private / n,
        "requests": len(log), "too_many": too_many, "too_many_club": too_many_club,
        "lost": len(failed_never_sent) + missing_cards + missing_final,
        "lost_detail": {"failed_never_resent": len(failed_never_sent),
                        "missing_cards": missing_cards, "missing_final_post": missing_final},
    }


async def settle(path: Path, tables: list[Table], within: float = 60) -> None:
    """Wait (at most ``within`` s) until every game that posted "Game over" is finished in the
    database: the ledger is written after the end posts, which queue behind the group limit."""
    ids = [t.game_id for t in tables if t.finished_at]
    deadline = time.monotonic() + within
    async with aiosqlite.connect(path) as conn:
        while ids and time.monotonic() < deadline:
            marks = ",".join("?" * len(ids))
            async with conn.execute(f"SELECT count(*) FROM games WHERE id IN ({marks}) "
                                    "AND status = 'finished'", ids) as cursor:
                row = await cursor.fetchone()
            if row and row[0] == len(ids):
                break
            await asyncio.sleep(1)
    await asyncio.sleep(2)


async def ledger_check(path: Path, tables: list[Table],
                       fake: FakeTelegram) -> tuple[int, list[str]]:
    good, problems = 0, []
    async with aiosqlite.connect(path) as conn:
        for t in tables:
            async with conn.execute("SELECT status FROM games WHERE id = ?", (t.game_id,)) as c:
                row = await c.fetchone()
            async with conn.execute("SELECT count(*) FROM ledger WHERE game_id = ?",
                                    (t.game_id,)) as c:
                rows = await c.fetchone()
            status = row[0] if row else "none"
            ledger = rows[0] if rows else 0
            won = any(GAME_OVER in m.body for m in fake.messages(t.club))
            if status == "finished" and ledger > 0 and won and not t.error:
                good += 1
            else:
                problems.append(f"table {t.index} (game {t.game_id}): status {status}, "
                                f"{ledger} ledger rows, win posted: {won}, {t.error or 'ok'}")
    return good, problems


# ---------------------------------------------------------------------- main
async def run(games: int, minutes: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="bench_load_"))
    deal = make_tables(0, 1, DEAL_TABLE)
    tables = make_tables(1, games, PLAYERS_PER_GAME)
    bench_start = time.monotonic()
    await prefill(tmp / "mafia.sqlite3", deal + tables)
    async with FakeTelegram(limits=TelegramLimits()) as fake:
        introduce(fake, deal + tables)
        proc = await spawn(tmp, fake, [t.host for t in deal + tables])
        peak, cpu = 0.0, 0.0
        try:
            await wait_until(lambda: any(m == "setMyCommands" for m, _ in fake.calls) or
                             proc.returncode is not None, 60, "the bot to start")
            await asyncio.sleep(1)
            start_cpu = proc_stats(proc.pid)[1]
            bench = Bench(fake, rng, time.monotonic() + 120)
            deal_result = await deal_table(bench, deal[0])
            await asyncio.sleep(2)
            fake.log.clear()
            bench = Bench(fake, rng, time.monotonic() + minutes * 60)
            for t in tables:
                if rng.random() < 0.25:
                    bench.slow.update(rng.sample(t.players, 2))
            started = time.monotonic()
            await asyncio.gather(*(bench.play(t) for t in tables))
            wall = time.monotonic() - started
            await settle(tmp / "mafia.sqlite3", tables)  # the last posts and ledger writes
            peak, cpu = proc_stats(proc.pid)
            cpu -= start_cpu
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(proc.wait(), 30)
                except TimeoutError:
                    proc.kill()
        result = figures(fake, tables, bench)
        good, problems = await ledger_check(tmp / "mafia.sqlite3", tables, fake)
    durations = [t.finished_at - t.phases[0][0] for t in tables if t.finished_at]
    log_text = (tmp / "bot.log").read_text(errors="replace")
    result.update(
        games=games, finished=good, stuck=games - good, problems=problems[:10],
        wall_seconds=wall, game_minutes=(statistics.median(durations) / 60 if durations
                                         else float("nan")),
        peak_rss_mb=peak, cpu_seconds=cpu, deal=deal_result,
        tracebacks=log_text.count("Traceback"), workdir=str(tmp),
        total_seconds=time.monotonic() - bench_start,
        machine=f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    )
    return result


def table_text(r: dict[str, Any]) -> str:
    p50, p99, pmax = r["press_answer_ms"]
    u50, u99 = r["update_first_ms"]
    phases = ", ".join(f"{k} {p:.1f}/{e:.1f}" for k, (p, e) in r["club_per_phase"].items())
    d = r["deal"]
    rows = [
        ("games (12 players)", f"{r['games']}"),
        ("finished correctly (win posted, ledger rows)", f"{r['finished']}"),
        ("stuck / not finished in time", f"{r['stuck']}"),
        ("wall time of the games, s", f"{r['wall_seconds']:.0f}"),
        ("median game length, min", f"{r['game_minutes']:.1f}"),
        ("press -> answerCallbackQuery p50 / p99 / max, ms",
         f"{p50:.0f} / {p99:.0f} / {pmax:.0f} ({r['presses']} presses, "
         f"{r['unanswered']} unanswered)"),
        ("update -> first request p50 / p99, ms", f"{u50:.0f} / {u99:.0f}"),
        ("club posts / edits per game", f"{r['club_posts_per_game']:.1f} / "
                                        f"{r['club_edits_per_game']:.1f}"),
        ("club posts/edits per phase", phases),
        ("private messages per game", f"{r['private_per_game']:.1f}"),
        ("requests (all) / 429s received (to club chats)",
         f"{r['requests']} / {r['too_many']} ({r['too_many_club']})"),
        ("messages lost", f"{r['lost']} {r['lost_detail']}"),
        ("bot peak RSS, MB", f"{r['peak_rss_mb']:.0f}"),
        ("bot CPU seconds (games only)", f"{r['cpu_seconds']:.1f}"),
        ("tracebacks in the bot's log", f"{r['tracebacks']}"),
        (f"deal of {d['players']}: /deal -> last card, s",
         f"{d['seconds']:.2f} (minimum {d['minimum']:.2f}, {d['ratio']:.1f}x)"),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--minutes", type=float, default=10,
                        help="give up on games not over after this long (they count as stuck)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args()
    result = asyncio.run(run(args.games, args.minutes, args.seed))
    print(f"bench_load --games {args.games} on {result['machine']}")
    print(table_text(result))
    for problem in result["problems"]:
        print("  ", problem)
    if args.out:
        args.out.write_text(json.dumps(result, indent=2, default=str))


if __name__ == "__main__":
    main()
