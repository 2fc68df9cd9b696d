"""The load benchmark's figures: what is computed from the fake server's request log, the
ledger check against the bot's database, and the report's table text (what each figure means
is in docs/benchmarks.md). ``python -m benchmarks.load.figures WORKDIR/requests.jsonl`` lists
a run's lost sends and edits from the request log it leaves.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.load.lag import LoopLag
from benchmarks.load.machine import FULL, MachineLoad
from benchmarks.load.players import GAME_OVER, Bench, SimTable
from storage import Database
from tests.fakes.telegram_server import FakeTelegram, Request

SENDS = frozenset({"sendMessage", "sendDocument", "sendPhoto"})
EDITS = frozenset({"editMessageText", "editMessageCaption", "editMessageReplyMarkup"})


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]



# ---------------------------------------------------------------------- the figures
def first_request_after(log: list[Request]) -> dict[int, list[float]]:
    by_chat: dict[int, list[float]] = defaultdict(list)
    for r in log:
        if r.chat_id is not None:
            by_chat[r.chat_id].append(r.at)
    return by_chat


def figures(fake: FakeTelegram, tables: list[SimTable], bench: Bench,
            lag: LoopLag | None = None, machine: MachineLoad | None = None) -> dict[str, Any]:
    log = fake.log
    answered: dict[str, float] = {}
    for r in log:
        if r.method == "answerCallbackQuery" and r.status == 200:
            answered.setdefault(str(r.params.get("callback_query_id")), r.at)
    press: list[float] = []
    press_by_kind: dict[str, list[float]] = {}  # the lobby's "I play" vs the game's choices
    # the same without the benchmark's own loop's stalls within each press (the bot's share)
    bot_share: dict[str, list[float]] = {}
    panel_by_action: dict[str, list[float]] = {}
    # whether the machine's cores had CPU to spare in the second the press arrived
    by_room: dict[str, list[float]] = {}
    unanswered = 0
    for query in bench.queries:
        update_id = fake.query_updates[query]
        if update_id not in fake.delivered_at:
            continue
        if query in answered:
            waited = answered[query] - fake.delivered_at[update_id]
            press.append(waited)
            data = str(fake.sent_updates[update_id]["callback_query"].get("data", ""))
            kind = ("lobby" if data.startswith("gl:") else "panel" if data.startswith("gh:")
                    else "game")
            press_by_kind.setdefault(kind, []).append(waited)
            full = None if machine is None else machine.full_at(fake.delivered_at[update_id])
            if full is not None:
                by_room.setdefault("full" if full else "spare", []).append(waited)
            if kind == "panel":  # gh:GAME:MOMENT:ACTION:ARG: which of the host's presses
                action = [*data.split(":"), "", "", ""][3]
                panel_by_action.setdefault(action, []).append(waited)
            if lag is not None:
                own = waited - lag.overlap(fake.delivered_at[update_id], answered[query])
                bot_share.setdefault(kind, []).append(own)
                bot_share.setdefault("all", []).append(own)
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
    refused = lost(log)
    missing_cards = sum(1 for t in tables for u in t.players
                        if not any(m.protect_content for m in fake.messages(u)))
    # the end's post gives the deal's key and its fingerprint (the deal's own post says
    # "Fingerprint of the deal")
    missing_final = sum(1 for t in tables if t.finished_at and not any(
        "Fingerprint:" in m.body for m in fake.messages(t.club)))
    phases_per_game: Counter[str] = Counter()
    for t in tables:
        for _, kind in t.phases:
            phases_per_game[kind] += 1
    n = len(tables)
    return {
        "press_answer_ms": (1000 * percentile(press, 50), 1000 * percentile(press, 99),
                            1000 * max(press, default=float("nan"))),
        "presses": len(press), "unanswered": unanswered,
        "press_answer_ms_by_kind": {k: (len(v), 1000 * percentile(v, 50), 1000 * percentile(v, 99))
                                    for k, v in sorted(press_by_kind.items())},
        "panel_by_action_ms": {k: (len(v), 1000 * percentile(v, 50),
                                   1000 * max(v, default=float("nan")))
                               for k, v in sorted(panel_by_action.items())},
        "press_bot_ms_by_kind": {k: (len(v), 1000 * percentile(v, 50), 1000 * percentile(v, 99))
                                 for k, v in sorted(bot_share.items())},
        "press_answer_ms_by_room": {k: (len(v), 1000 * percentile(v, 50),
                                        1000 * percentile(v, 99))
                                    for k, v in sorted(by_room.items())},
        "machine_full_seconds": (0, 0, 0) if machine is None else (
            machine.full_seconds(), machine.process_full_seconds(), len(machine.seconds)),
        "update_first_ms": (1000 * percentile(first, 50), 1000 * percentile(first, 99)),
        "club_posts_per_game": sum(posts.values()) / n,
        "club_edits_per_game": sum(edits.values()) / n,
        "club_per_phase": {k: (posts[k] / max(1, phases_per_game[k]),
                               edits[k] / max(1, phases_per_game[k]))
                           for k in ("lobby", "deal", "night", "vote", "end")},
        "private_per_game": private / n,
        "requests": len(log), "too_many": too_many, "too_many_club": too_many_club,
        "lost": len(refused) + missing_cards + missing_final,
        "lost_detail": {"failed_never_resent": sum(r.method in SENDS for r in refused),
                        "failed_edit_never_redone": sum(r.method in EDITS for r in refused),
                        "missing_cards": missing_cards, "missing_final_post": missing_final},
    }


def _body(r: Request) -> str:
    return str(r.params.get("text") if "text" in r.params else r.params.get("caption", ""))


def _heading(text: str) -> str:
    return text.strip().split("\n", 1)[0]


def lost(log: Sequence[Request]) -> list[Request]:
    """The sends and edits the fake refused that nothing delivered afterwards, each once (its
    first refusal), in log order.

    A refused send is delivered by a later successful send to its chat that holds its text (sent
    again, or merged with the posts queued behind it: ``bot/delivery/merge.py``), or by the
    chat's next successful send when that one opens with the same heading: the same row with its
    own later edits folded in (a chat's rows go out in order and a refused one keeps its place,
    docs/delivery.md). A refused edit is delivered by a later successful edit of the same message
    (chat and message id), which carries the newer text. Nothing else counts."""
    missing: list[Request] = []
    seen: set[tuple[int, str, str, object]] = set()
    for i, r in enumerate(log):
        if r.status == 200 or r.chat_id is None or r.method not in SENDS | EDITS:
            continue
        later = [x for x in log[i + 1:] if x.status == 200 and x.chat_id == r.chat_id]
        if r.method in SENDS:
            text = _body(r)
            sends = [_body(x) for x in later if x.method in SENDS]
            delivered = any(text in body for body in sends) or (
                bool(sends) and _heading(sends[0]) == _heading(text) != "")
        else:
            delivered = any(x.method in EDITS and x.params.get("message_id")
                            == r.params.get("message_id") for x in later)
        what = (r.chat_id, r.method, _body(r), r.params.get("message_id"))
        if not delivered and what not in seen:
            seen.add(what)
            missing.append(r)
    return missing


def write_log(log: list[Request], path: Path) -> None:
    """The fake's requests, one JSON line each (a file's bytes as their length), so that a
    "lost" send can be traced after the run (``read_log``, ``lost``)."""
    def plain(value: Any) -> Any:
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes | bytearray):
            return f"<file {value[0]}, {len(value[1])} bytes>"
        return value

    with path.open("w") as out:
        for r in log:
            out.write(json.dumps({"at": r.at, "method": r.method, "chat_id": r.chat_id,
                                  "status": r.status,
                                  "params": {k: plain(v) for k, v in r.params.items()}},
                                 default=str) + "\n")


def read_log(path: Path) -> list[Request]:
    """The requests ``bench_load`` wrote to its work directory (``requests.jsonl``)."""
    with path.open() as lines:
        return [Request(**json.loads(line)) for line in lines]


async def settle(target: str | Path, tables: list[SimTable], within: float = 60) -> None:
    """Wait (at most ``within`` s) until every game that posted "Game over" is finished in the
    database: the ledger is written after the end posts, which queue behind the group limit."""
    ids = [t.game_id for t in tables if t.finished_at]
    deadline = time.monotonic() + within
    db = await Database.open(target)
    try:
        while ids and time.monotonic() < deadline:
            marks = ",".join("?" * len(ids))
            rows = await db.query(f"SELECT count(*) FROM games WHERE id IN ({marks}) "
                                  "AND status = 'finished'", ids)
            if rows and rows[0][0] == len(ids):
                break
            await asyncio.sleep(1)
    finally:
        await db.close()
    await asyncio.sleep(2)


async def ledger_check(target: str | Path, tables: list[SimTable],
                       fake: FakeTelegram) -> tuple[int, list[str]]:
    good, problems = 0, []
    db = await Database.open(target)
    try:
        for t in tables:
            found = await db.query("SELECT status FROM games WHERE id = ?", (t.game_id,))
            counted = await db.query("SELECT count(*) FROM ledger WHERE game_id = ?",
                                     (t.game_id,))
            status = found[0][0] if found else "none"
            ledger = counted[0][0] if counted else 0
            won = any(GAME_OVER in m.body for m in fake.messages(t.club))
            if status == "finished" and ledger > 0 and won and not t.error:
                good += 1
            else:
                problems.append(f"table {t.index} (game {t.game_id}): status {status}, "
                                f"{ledger} ledger rows, win posted: {won}, {t.error or 'ok'}")
    finally:
        await db.close()
    return good, problems



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
        ("  of which (presses, p50 / p99 ms)", "; ".join(
            f"{k} {n}: {a:.0f} / {b:.0f}"
            for k, (n, a, b) in r.get("press_answer_ms_by_kind", {}).items())),
        ("  the panel's presses by action (n, p50 / max ms)", "; ".join(
            f"{k} {n}: {a:.0f} / {b:.0f}"
            for k, (n, a, b) in r.get("panel_by_action_ms", {}).items())),
        ("  without the benchmark loop's stalls", "; ".join(
            f"{k} {a:.0f} / {b:.0f}"
            for k, (n, a, b) in r.get("press_bot_ms_by_kind", {}).items())),
        ("update -> first request p50 / p99, ms", f"{u50:.0f} / {u99:.0f}"),
        ("the benchmark's own loop late p50 / p99 / max, ms", " / ".join(
            f"{v:.0f}" for v in r.get("harness_lag_ms", ()))),
        ("  arriving when the machine and each bot had CPU to spare or not (n, p50/p99 ms)",
         "; ".join(
            f"{k} {n}: {a:.0f} / {b:.0f}"
            for k, (n, a, b) in r.get("press_answer_ms_by_room", {}).items())),
        (f"seconds of the games with {FULL:.0%} of the cores used or stolen / of a core used"
         " by a bot", "{} / {} of {}".format(*r.get("machine_full_seconds", (0, 0, 0)))),
        ("the machine's cores used / stolen during the games, %",
         f"{_percent(r.get('used_percent'))} / {_percent(r.get('steal_percent'))}"),
        ("CPU seconds (games): bots / PostgreSQL / the benchmark",
         " / ".join(_cpu(r.get(k)) for k in ("cpu_seconds_per_process", "postgres_cpu_seconds",
                                                "harness_cpu_seconds"))),
        ("PostgreSQL during the games: write transactions / WAL flushes (a second)",
         _writes(r.get("postgres_writes"), r["wall_seconds"])),
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


def _percent(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.1f}"


def _cpu(value: float | list[float] | None) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, list):
        return " + ".join(f"{v:.1f}" for v in value)
    return f"{value:.1f}"


def _writes(value: list[int] | tuple[int, int] | None, seconds: float) -> str:
    if not value:
        return "unknown"
    writes, flushes = value
    return (f"{writes:,} / {flushes:,} ({writes / max(seconds, 1e-9):.1f} /"
            f" {flushes / max(seconds, 1e-9):.1f})")


def main() -> None:
    """``python -m benchmarks.load.figures WORKDIR/requests.jsonl``: each refused send or edit
    nothing delivered afterwards (what "messages lost" counts besides missing cards and posts)."""
    import sys

    log = read_log(Path(sys.argv[1]))
    start = log[0].at if log else 0.0
    missing = lost(log)
    for r in missing:
        print(f"{r.at - start:9.1f} s  {r.method} {r.chat_id} -> {r.status}"
              f" (message {r.params.get('message_id', '-')}): {_body(r)[:300]!r}")
    refused = sum(r.status != 200 and r.method in SENDS | EDITS for r in log)
    print(f"{len(missing)} lost of {refused} refused sends and edits")


if __name__ == "__main__":
    main()
