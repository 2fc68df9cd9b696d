"""The durable outbox: what the bot must deliver, queued in the database (see docs/delivery.md).

Rows are written in the same transaction as the game's log event that causes them
(:meth:`storage.repos.games.Games.append_events_with_messages`) or on their own
(:meth:`Outbox.enqueue`); the delivery worker (``bot/delivery/worker.py``) reads them per chat in id
order and marks each one ``sent`` (with Telegram's message id) or ``failed`` (a permanent refusal).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from storage.repos.keyed_cache import keep
from storage.sql import Connection, Store
from storage.txn.batcher import Batcher

SEND = "send"
_PRUNED_AT_ONCE = 5_000  # rows one pruning transaction deletes or empties at most
_SENDS_AT_ONCE = 200  # rows of one INSERT (5 values each: far below SQLite's limit)
_MARKS_AT_ONCE = 100  # the delivery's marks written in one transaction at most
_SENT_KEPT = 20_000  # the message ids of keyed sends kept (storage/repos/keyed_cache.py's keep)
EDIT = "edit"


@dataclass(frozen=True)
class Queued:
    """A request to queue: a send (``key`` optional; a second send of the same key is ignored)
    or an edit of the message sent under ``key``. ``throttle``: an edit of that key goes out at
    most once every ``throttle`` seconds (later edits are coalesced). ``lane``: the table (game)
    a club post belongs to; a chat's lanes share its turns (``bot/delivery/worker.py``)."""

    chat_id: int
    method: str
    payload: dict[str, Any] = field(default_factory=dict)
    key: str | None = None
    throttle: float = 0.0
    lane: int | None = None


PRUNED = "pruned"  # a sent keyed send whose words were dropped (Outbox.prune): its id is kept
THROTTLE = "throttle"  # a throttled edit's gap, kept in its row: an edit coalesced in flight waits
MERGED_INTO = "merged_into"  # a send that went out inside an earlier row's post: that row's id
PARTS = "parts"  # the row whose post holds merged sends: [key, text] of each, in order


@dataclass(frozen=True)
class MergedPost:
    """A sent post that holds several queued sends of its chat, merged while the chat waited
    for Telegram's budget (``bot/delivery/merge.py``): the row that holds its parts, the
    message, and each part's key and current text, in order."""

    owner: int
    message_id: int
    parts: tuple[tuple[str | None, str], ...]

    def with_text(self, key: str, text: str) -> tuple[tuple[str | None, str], ...]:
        return tuple((k, text if k == key else t) for k, t in self.parts)

    def without(self, key: str) -> tuple[tuple[str | None, str], ...]:
        return tuple((k, t) for k, t in self.parts if k != key)


@dataclass(frozen=True)
class OutboxRow:
    id: int
    chat_id: int
    key: str | None
    method: str
    payload_json: str  # as stored: decoded when the request is built, not while it waits
    attempts: int
    next_at: float
    rev: int
    lane: int | None = None

    @property
    def payload(self) -> dict[str, Any]:
        decoded: dict[str, Any] = json.loads(self.payload_json)
        return decoded


def _dump(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True)


async def enqueue_in(conn: Connection, messages: Iterable[Queued], now: float) -> list[int]:
    """Queue ``messages`` inside an open transaction; returns the chat of each new row. A text
    coalesced into a queued throttled edit's row is none (its chat's worker reads that row
    again before sending it: nothing to wake it for; an unthrottled one is, as its row goes
    at once now), nor is a send whose key was queued already."""
    new: list[int] = []
    sends: list[tuple[int, str | None, str, float, int | None]] = []
    for m in messages:
        text = _dump({**m.payload, THROTTLE: m.throttle} if m.throttle > 0 else m.payload)
        if m.method == SEND:  # a run of sends goes in one statement (one trip to the thread)
            sends.append((m.chat_id, m.key, text, now, m.lane))
            continue
        new += await _insert_sends(conn, sends)
        sends = []
        if m.method != EDIT or m.key is None:
            raise ValueError(f"bad outbox request: {m.method} {m.key}")
        # an edit without a throttle (the host's own press on the panel) takes the queued
        # edit's place at once; a throttled one keeps its slot, a retry its backoff
        cur = await conn.execute(
            "UPDATE outbox SET payload = ?, rev = rev + 1, next_at = CASE WHEN ? AND attempts = 0"
            " THEN 0 ELSE next_at END WHERE chat_id = ? AND key = ? AND method = 'edit'"
            " AND status = 'pending'", (text, m.throttle <= 0, m.chat_id, m.key))
        if cur.rowcount:
            if m.throttle <= 0:
                new.append(m.chat_id)  # its worker may wait for the slot: it goes now
            continue
        next_at = 0.0
        if m.throttle > 0:
            last = list(await conn.execute_fetchall(
                "SELECT max(sent_at) FROM outbox WHERE chat_id = ? AND key = ? AND method = 'edit'"
                " AND status = 'sent'", (m.chat_id, m.key)))
            if last and last[0][0] is not None:
                next_at = float(last[0][0]) + m.throttle
        await conn.execute(
            "INSERT INTO outbox (chat_id, key, method, payload, created, next_at, lane)"
            " VALUES (?, ?, 'edit', ?, ?, ?, ?)", (m.chat_id, m.key, text, now, next_at, m.lane))
        new.append(m.chat_id)
    return new + await _insert_sends(conn, sends)


async def _insert_sends(conn: Connection,
                        sends: list[tuple[int, str | None, str, float, int | None]]
                        ) -> list[int]:
    new: list[int] = []
    for start in range(0, len(sends), _SENDS_AT_ONCE):
        chunk = sends[start:start + _SENDS_AT_ONCE]
        # one multi-row statement, returning the chat of each row it wrote
        new += [int(r[0]) for r in await conn.execute_fetchall(
            "INSERT INTO outbox (chat_id, key, method, payload, created, lane, next_at) VALUES "
            + ",".join(["(?, ?, 'send', ?, ?, ?, 0)"] * len(chunk))
            + " ON CONFLICT DO NOTHING RETURNING chat_id",
            [v for send in chunk for v in send])]
    return new


async def readdress_in(conn: Connection, old_chat_id: int, new_chat_id: int) -> int:
    # a send whose key the new chat already has stays behind (the unique send key)
    cur = await conn.execute(
        "UPDATE outbox SET chat_id = ?1 WHERE chat_id = ?2 AND status = 'pending'"
        " AND NOT (method = 'send' AND EXISTS (SELECT 1 FROM outbox o WHERE o.chat_id = ?1"
        " AND o.method = 'send' AND o.key = outbox.key))",
        (new_chat_id, old_chat_id))
    return cur.rowcount


class Outbox:
    def __init__(self, db: Store) -> None:
        self._db = db
        # the delivery's marks of sent rows, written in batches: the marks that arrive while
        # a batch is being written go in the next one, one transaction in one trip, in the
        # writer's background lane (a transaction per mark would queue one for every message
        # sent, ahead of the games' steps); a mark whose caller was cancelled before its batch
        # began is not written (the row is sent again, as before)
        self._marks: Batcher[_Mark, bool] = Batcher(self._write_marks, cap=_MARKS_AT_ONCE)
        # the message id of a keyed send this process marked sent, which every edit of it
        # needs (a read an edit): a send's key is its chat's once, so its id never changes
        self._sent: dict[tuple[int, str], int] = {}

    async def enqueue(self, messages: Sequence[Queued], now: float) -> list[int]:
        """Queued on their own (:func:`enqueue_in`: the chat of each new row)."""
        if not messages:
            return []
        async with self._db.transaction() as conn:
            return await enqueue_in(conn, messages, now)

    async def pending_chats(self) -> list[int]:
        return [int(r[0]) for r in await self._db.query(
            "SELECT DISTINCT chat_id FROM outbox WHERE status = 'pending'", background=True)]

    async def backlog(self) -> tuple[int, float | None]:
        """How many rows wait to be sent, and when the oldest of them was queued (None: none)
        (the metrics and /status)."""
        rows = await self._db.query(
            "SELECT count(*), min(created) FROM outbox WHERE status = 'pending'",
            background=True)
        return int(rows[0][0]), None if rows[0][1] is None else float(rows[0][1])

    async def undelivered(self, sends: Sequence[tuple[int, str]]) -> int:
        """How many of these sends ``(chat_id, key)`` are still queued (not yet confirmed by
        Telegram; a refused one counts as done)."""
        if not sends:
            return 0
        pairs = ",".join("(CAST(? AS BIGINT), CAST(? AS TEXT))" for _ in sends)
        rows = await self._db.query(
            "SELECT count(*) FROM outbox WHERE method = 'send' AND status = 'pending'"
            f" AND (chat_id, key) IN (VALUES {pairs})",
            [v for chat_key in sends for v in chat_key])
        return int(rows[0][0])

    async def pending(self, chat_id: int, limit: int = 50, *,
                      per_lane: int | None = None) -> list[OutboxRow]:
        """The chat's queued requests, oldest first; ``per_lane``: at most that many of each
        lane (each table of a club chat: a table's backlog does not hide the others' rows)."""
        columns = "id, chat_id, key, method, payload, attempts, next_at, rev, lane"
        if per_lane is None:
            sql = (f"SELECT {columns} FROM outbox WHERE chat_id = ? AND status = 'pending'"
                   " ORDER BY id LIMIT ?")
            args: tuple[int, ...] = (chat_id, limit)
        else:
            sql = (f"SELECT {columns} FROM (SELECT {columns}, row_number() OVER"
                   " (PARTITION BY lane ORDER BY id) AS place FROM outbox"
                   " WHERE chat_id = ? AND status = 'pending') AS queued WHERE place <= ?"
                   " ORDER BY id LIMIT ?")
            args = (chat_id, per_lane, limit)
        return [OutboxRow(int(r[0]), int(r[1]), r[2], str(r[3]), str(r[4]),
                          int(r[5]), float(r[6]), int(r[7]), None if r[8] is None else int(r[8]))
                for r in await self._db.query(sql, args, background=True)]

    async def message_id(self, chat_id: int, key: str) -> tuple[str, int | None] | None:
        """The send under ``key``: (status, Telegram's message id), or None if never queued."""
        known = self._sent.get((chat_id, key))
        if known is not None:
            return "sent", known
        rows = await self._db.query(
            "SELECT status, message_id FROM outbox WHERE chat_id = ? AND key = ?"
            " AND method = 'send'", (chat_id, key), background=True)
        if not rows:
            return None
        return str(rows[0][0]), None if rows[0][1] is None else int(rows[0][1])

    async def kept_send(self, chat_id: int, key: str) -> str | None:
        """The key of the send under ``key``, or of one sent again under ``key:r<seq>`` (a
        prompt after a restart), that Telegram has or that is still queued — the latest; None
        when there is none (never queued, or refused)."""
        rows = await self._db.query(
            "SELECT key FROM outbox WHERE chat_id = ? AND method = 'send'"
            " AND status IN ('sent', 'pending') AND (key = ? OR (key >= ? AND key < ?))"
            " ORDER BY id DESC LIMIT 1", (chat_id, key, f"{key}:r", f"{key}:s"))
        return None if not rows else str(rows[0][0])

    async def refused(self, chat_id: int, prefix: str) -> bool:
        """Whether the latest send to ``chat_id`` under a key starting with ``prefix`` (one
        ending in ``:``) was refused for good (the chat blocked the bot, or never started
        it)."""
        rows = await self._db.query(
            "SELECT status FROM outbox WHERE chat_id = ? AND method = 'send' AND key >= ?"
            " AND key < ? ORDER BY id DESC LIMIT 1",
            (chat_id, prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)))
        return bool(rows) and rows[0][0] == "failed"

    async def merged_post(self, chat_id: int, key: str) -> MergedPost | None:
        """The merged post the send under ``key`` went out in; None for a post of its own (or
        one not sent)."""
        if (chat_id, key) in self._sent:
            return None  # marked sent alone by this process
        rows = await self._db.query(
            "SELECT id, status, message_id, payload FROM outbox WHERE chat_id = ? AND key = ?"
            " AND method = 'send'", (chat_id, key), background=True)
        if not rows or rows[0][1] != "sent" or rows[0][2] is None:
            return None
        message_id = int(rows[0][2])
        payload = json.loads(rows[0][3])
        owner = int(rows[0][0])
        if MERGED_INTO in payload:
            owner = int(payload[MERGED_INTO])
            found = await self._db.query("SELECT payload FROM outbox WHERE id = ?", (owner,),
                                         background=True)
            payload = json.loads(found[0][0]) if found else {}
        parts = tuple((k, str(t)) for k, t in payload.get(PARTS, ()))
        if all(k != key for k, _ in parts):  # a post of its own (or moved out of one)
            keep(self._sent, (chat_id, key), message_id, _SENT_KEPT)
            return None
        return MergedPost(owner, message_id, parts)

    async def mark_merged(self, head: OutboxRow, message_id: int | None,
                          parts: Sequence[tuple[str | None, str]], text: str,
                          taken: Sequence[OutboxRow], now: float) -> set[int]:
        """``head`` went out as one post with the rows ``taken`` (sends appended, edits of its
        parts folded in): every one of them marked sent, in one transaction. A post of one part
        (a picture with its caption's edits) is not a merged post: its later edits are its
        own. The ids marked (an edit coalesced while in flight is not: its newer text goes as
        an edit)."""
        return await self._db.write(partial(_mark_merged, head, message_id, parts, text, taken,
                                            now), background=True)

    async def mark_part(self, row: OutboxRow, post: MergedPost,
                        parts: Sequence[tuple[str | None, str]], now: float, *,
                        moved_to: int | None = None) -> bool:
        """The edit ``row`` of a part of the merged post ``post`` went out: the post's parts
        are now ``parts``; ``moved_to``: the part no longer fitted and went out as a post of its
        own, that message (its later edits go there). False when the edit was coalesced in
        flight (its newer text goes out again)."""
        return await self._db.write(partial(_mark_part, row, post, tuple(parts), now,
                                            moved_to), background=True)

    async def mark_sent(self, row: OutboxRow, message_id: int | None, now: float) -> bool:
        """Confirmed by Telegram. False when an edit was coalesced meanwhile (send it again).
        Returns once the mark is durable; the marks of several chats' workers are written
        together (:class:`storage.txn.batcher.Batcher`)."""
        marked = await self._marks.put(_Mark(row, message_id, now))
        if marked and row.method == SEND and row.key is not None and message_id is not None:
            keep(self._sent, (row.chat_id, row.key), message_id, _SENT_KEPT)
        return marked

    async def _write_marks(self, batch: list[_Mark]) -> list[bool]:
        return await self._db.write(partial(_mark_all, batch), background=True)

    async def retry_at(self, row: OutboxRow, next_at: float, error: str) -> None:
        await self._db.write(partial(_retry_at, row.id, next_at, error[:500]), background=True)

    async def mark_failed(self, row: OutboxRow, error: str) -> None:
        await self._db.write(partial(_mark_failed, row.id, error[:500]), background=True)

    async def prune(self, before: float) -> int:
        """Rows sent before ``before`` (a wall-clock time, as ``sent_at``) no longer kept
        whole; how many. An edit, or a send without a key, is deleted. A keyed send keeps
        its chat, key, status and Telegram's message id (what a later edit of it and a second
        send of its key need) and loses its words: its payload becomes ``{"pruned": true}``,
        with a merged post's bookkeeping (``merged_into``, ``parts``: a club chat's public
        posts) kept. Pending and failed rows are untouched. In transactions of at most
        ``_PRUNED_AT_ONCE`` rows in the writer's background lane, so a game's step never waits
        behind a big first prune (docs/storage.md, "What is pruned")."""
        total = 0
        while True:
            deleted = await self._db.write(partial(_delete_sent, before), background=True)
            total += deleted
            if deleted < _PRUNED_AT_ONCE:
                break
        while True:
            rows = await self._db.query(
                "SELECT id, payload FROM outbox WHERE status = 'sent' AND sent_at < ?"
                " AND method = 'send' AND key IS NOT NULL AND payload NOT LIKE ?"
                " ORDER BY id LIMIT ?", (before, '%"pruned": true%', _PRUNED_AT_ONCE),
                background=True)
            if not rows:
                break
            stubs = [(_dump(_stub(json.loads(str(payload)))), int(row_id))
                     for row_id, payload in rows]
            await self._db.write(partial(_empty_sent, stubs), background=True)
            total += len(stubs)
            if len(rows) < _PRUNED_AT_ONCE:
                break
        return total

    async def readdress(self, old_chat_id: int, new_chat_id: int) -> int:
        """A group became a supergroup: its queued requests go to the new chat id (sent rows
        stay: their message ids belong to the old chat). Idempotent; how many moved."""
        async with self._db.transaction() as conn:
            return await readdress_in(conn, old_chat_id, new_chat_id)

    async def rows(self, chat_id: int | None = None) -> list[dict[str, Any]]:
        """Every row (tests and diagnostics)."""
        async with self._db.read() as conn:
            sql = ("SELECT id, chat_id, key, method, payload, status, message_id, attempts, error"
                   " FROM outbox")
            args: tuple[Any, ...] = ()
            if chat_id is not None:
                sql += " WHERE chat_id = ?"
                args = (chat_id,)
            async with conn.execute(sql + " ORDER BY id", args) as cur:
                return [dict(r) for r in await cur.fetchall()]


def _stub(payload: dict[str, Any]) -> dict[str, Any]:
    """What a pruned keyed send keeps of its payload. Its ``"pruned": true`` is found by
    ``LIKE``: a text's own quotes are escaped in the JSON, so no text matches it."""
    return {PRUNED: True, **{k: payload[k] for k in (MERGED_INTO, PARTS) if k in payload}}


async def _delete_sent(before: float, conn: Connection) -> int:
    cur = await conn.execute(
        "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status = 'sent'"
        " AND sent_at < ? AND (method = 'edit' OR key IS NULL) ORDER BY id LIMIT ?)",
        (before, _PRUNED_AT_ONCE))
    return int(cur.rowcount)


async def _empty_sent(stubs: list[tuple[str, int]], conn: Connection) -> None:
    await conn.executemany("UPDATE outbox SET payload = ? WHERE id = ? AND status = 'sent'",
                           stubs)


async def _retry_at(row_id: int, next_at: float, error: str, conn: Connection) -> None:
    await conn.execute("UPDATE outbox SET attempts = attempts + 1, next_at = ?, error = ?"
                       " WHERE id = ?", (next_at, error, row_id))


async def _mark_failed(row_id: int, error: str, conn: Connection) -> None:
    await conn.execute("UPDATE outbox SET status = 'failed', attempts = attempts + 1, error = ?"
                       " WHERE id = ?", (error, row_id))


@dataclass(frozen=True)
class _Mark:
    row: OutboxRow
    message_id: int | None
    now: float


async def _mark_all(batch: list[_Mark], conn: Connection) -> list[bool]:
    return [await _mark_sent(conn, m.row, m.message_id, m.now) for m in batch]


async def _mark_sent(conn: Connection, row: OutboxRow, message_id: int | None,
                     now: float) -> bool:
    cur = await conn.execute(
        "UPDATE outbox SET status = 'sent', message_id = ?, sent_at = ?, error = NULL,"
        " attempts = attempts + 1 WHERE id = ? AND rev = ?",
        (message_id, now, row.id, row.rev))
    if cur.rowcount:
        payload = row.payload
        if "photo" in payload or "document" in payload:  # a file's bytes: not kept once sent
            kept = {k: v for k, v in payload.items() if k not in ("photo", "document")}
            await conn.execute("UPDATE outbox SET payload = ? WHERE id = ?",
                               (_dump(kept), row.id))
        return True
    # an edit coalesced while in flight: its newer text goes out again, after its gap
    await conn.execute("UPDATE outbox SET message_id = ?, next_at = ? WHERE id = ?",
                       (message_id, now + float(row.payload.get(THROTTLE, 0)), row.id))
    return False


async def _mark_merged(head: OutboxRow, message_id: int | None,
                       parts: Sequence[tuple[str | None, str]], text: str,
                       taken: Sequence[OutboxRow], now: float, conn: Connection) -> set[int]:
    marked: set[int] = set()
    if len(parts) > 1:
        cur = await conn.execute(
            "UPDATE outbox SET status = 'sent', message_id = ?, sent_at = ?, error = NULL,"
            " attempts = attempts + 1, payload = ? WHERE id = ? AND rev = ?",
            (message_id, now, _dump({"text": text, PARTS: [list(p) for p in parts]}), head.id,
             head.rev))
        if cur.rowcount:
            marked.add(head.id)
    elif await _mark_sent(conn, head, message_id, now):  # one part: its edits folded in
        marked.add(head.id)
    for row in taken:
        payload = row.payload
        if row.method == SEND:
            payload[MERGED_INTO] = head.id
        cur = await conn.execute(
            "UPDATE outbox SET status = 'sent', message_id = ?, sent_at = ?, error = NULL,"
            " attempts = attempts + 1, payload = ? WHERE id = ? AND rev = ?",
            (message_id if row.method == SEND else None, now, _dump(payload), row.id, row.rev))
        if cur.rowcount:
            marked.add(row.id)
        else:
            await _mark_sent(conn, row, None, now)  # (coalesced in flight: its gap, then again)
    return marked


async def _mark_part(row: OutboxRow, post: MergedPost, parts: tuple[tuple[str | None, str], ...],
                     now: float, moved_to: int | None, conn: Connection) -> bool:
    if not await _mark_sent(conn, row, None, now):
        return False
    await conn.execute(
        "UPDATE outbox SET payload = ? WHERE id = ?",
        (_dump({"text": "\n\n".join(t for _, t in parts), PARTS: [list(p) for p in parts]}),
         post.owner))
    if moved_to is not None:  # the part's own row: a post of its own from now on
        found = list(await conn.execute_fetchall(
            "SELECT id, payload FROM outbox WHERE chat_id = ? AND key = ? AND method = 'send'",
            (row.chat_id, row.key)))
        if found and int(found[0][0]) != post.owner:
            payload = {k: v for k, v in json.loads(found[0][1]).items() if k != MERGED_INTO}
            await conn.execute("UPDATE outbox SET message_id = ?, payload = ? WHERE id = ?",
                               (moved_to, _dump(payload), int(found[0][0])))
        elif found:  # the owner keeps the other parts; its own is no longer among them
            await conn.execute("UPDATE outbox SET message_id = ? WHERE id = ?",
                               (moved_to, post.owner))
    return True

