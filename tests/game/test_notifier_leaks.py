"""No secret leaks: every engine event of whole games, routed and rendered by the notifier."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.game.messages.notifier import Notifier
from engine import AudienceKind, Event
from engine.events import PUBLIC_KINDS
from record.table import Table
from storage.db import Database
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, HOST, role_names
from tests.sqlite_template import migrated
from views.i18n import Translator


class Spy:
    """Wraps ``Notifier.events`` to keep every engine event with the chats it went to."""

    def __init__(self, notifier: Notifier) -> None:
        self.seen: list[tuple[Event, list[int], dict[str, Any]]] = []
        original = notifier.events

        async def spied(table: Table, events: Iterable[Event]) -> None:
            evs = list(events)
            for e in evs:
                mafia = {table.tg_of(p.seat) for p in table.game if p.is_mafia and p.alive}
                self.seen.append((e, notifier.chats(table, e), {
                    "seats": {s: i.tg_id for s, i in table.seats.items()}, "mafia": mafia,
                    "texts": {loc: notifier.render(table, e, loc) for loc in ("ru", "en")}}))
            await original(table, evs)

        notifier.events = spied  # type: ignore[method-assign]


@pytest.mark.parametrize("size", [6, 8, 10, 13, 16, 20, 24])
@pytest.mark.parametrize("locale", ["ru", "en"])
async def test_whole_games_leak_nothing(size: int, locale: str, tmp_path: Path,
                                        translator: Translator, fake_clock: FakeClock) -> None:
    db = await Database.open(migrated(tmp_path / "leak.sqlite3"))
    await db.clubs.ensure(CHAT, title="Club", locale=locale)
    h = make_harness(db, fake_clock, translator, tmp_path, seed=size)
    spy = Spy(h.service.notifier)
    await h.dealt(size, lang=locale)
    await h.play_to_end(start_with_day=size % 2 == 1)
    names = role_names(translator)
    assert spy.seen
    for event, chats, ctx in spy.seen:
        kind = event.audience.kind
        if kind is AudienceKind.EVERYONE:
            assert event.kind in PUBLIC_KINDS, event
            assert chats == [CHAT]
            if event.kind != "game_over":
                for text in ctx["texts"].values():
                    assert not any(n.casefold() in text.casefold() for n in names), text
        elif kind is AudienceKind.SEAT:
            assert chats == [ctx["seats"][event.audience.seat]]
        elif kind is AudienceKind.MAFIA:
            assert set(chats) == ctx["mafia"] and CHAT not in chats
        else:
            assert chats == [HOST]
    # and every club-chat message of the game, up to the end
    texts = h.club_texts()
    end = next(i for i, t in enumerate(texts) if "🏁" in t)
    for text in texts[:end]:
        assert not any(n.casefold() in text.casefold() for n in names), text
    # a private message with a role never went to the club chat: role cards are protected
    cards = [s for s in h.sender.sent if s.protect]
    assert len(cards) == size and all(s.chat_id != CHAT for s in cards)
    await db.close()
