"""The game log's kinds (record/log_events.py): every event reads back as it was written, through
the JSON the log stores; a literal row of every kind in the shapes older code wrote still
reads; docs/game-flow.md's table of the log lists every class with its fields."""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import FoulReason, OpenImmunity, Phase, Role
from record.log_events import (
    KINDS,
    Aborted,
    Announced,
    CancelWindow,
    Choice,
    Composition,
    DayResolved,
    DayStart,
    Deal,
    DealAnnounced,
    DealtSeat,
    Extend,
    Fate,
    FateMode,
    FateWait,
    FoulCalled,
    FoulOfferClosed,
    FoulUndone,
    Friendly,
    LastWord,
    LastWordOver,
    LobbyMessage,
    LobbyPosted,
    LogEvent,
    MafiaLocked,
    NightResolved,
    NightStart,
    OfflineSeat,
    Pause,
    Resume,
    SeatAskClosed,
    SeatAsked,
    TableNamed,
    Tech,
    Turn,
    VerdictReset,
    Vote,
    VotesDone,
    VoteStart,
    VoteTimeout,
    decode,
    encode,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "game-flow.md"
MSK = timezone(timedelta(hours=3))


def _strategy(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a field's type, every field filled (not only the required ones)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is float:
        return st.floats(allow_nan=False, allow_infinity=False)
    if hint is datetime:
        return st.datetimes(timezones=st.sampled_from([None, UTC, MSK]))
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(_strategy(a) for a in args))
    if origin is tuple:
        return st.lists(_strategy(args[0]), max_size=5).map(tuple)
    if origin in (dict, Mapping) or hint is dict:
        return st.dictionaries(_strategy(args[0]), _strategy(args[1]), max_size=5)
    if is_dataclass(hint):
        return _event(hint)
    if hint is type(None):
        return st.none()
    return st.from_type(hint)


def _event(cls: Any) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls)
    return st.builds(cls, **{f.name: _strategy(hints[f.name]) for f in fields(cls)})


EVENTS = st.one_of(*(_event(cls) for cls in KINDS.values()))


@settings(max_examples=400)
@given(EVENTS)
def test_every_event_reads_back_as_written_through_the_logs_json(event: LogEvent) -> None:
    kind, body = encode(event)
    assert KINDS[kind] is type(event)
    assert decode(kind, json.loads(json.dumps(body))) == event


@pytest.mark.parametrize("cls", list(KINDS.values()), ids=list(KINDS))
@settings(max_examples=30)
@given(data=st.data())
def test_each_kind_reads_back(cls: Any, data: st.DataObject) -> None:
    event = data.draw(_event(cls))
    kind, body = encode(event)
    assert decode(kind, json.loads(json.dumps(body))) == event


AT = "2026-11-02T18:00:00+00:00"
WHEN = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)

# Rows as older code wrote them (and as tests/fixtures/old-database holds them): the fields
# added since are missing, ``lobby_message`` was ``lobby_posted``, ``aborted`` had no reason.
OLD_ROWS: list[tuple[str, str, LogEvent]] = [
    ("lobby_message", '{"message_id": 42}', LobbyMessage(42)),
    ("lobby_posted", "{}", LobbyPosted()),
    ("friendly", "{}", Friendly()),
    ("offline_seat", '{"tg_id": -5}', OfflineSeat(-5, seated=True)),
    ("offline_seat", '{"tg_id": -5, "seated": false}', OfflineSeat(-5, seated=False)),
    ("seat_asked", '{"tg_id": 7, "name": "Anna"}', SeatAsked(7, "Anna")),
    ("seat_ask_closed", '{"tg_id": 7, "how": "no"}', SeatAskClosed(7, "no")),
    ("table_named", "{}", TableNamed()),
    ("composition", '{"roles": ["mafia", "doctor"]}',
     Composition((Role("mafia"), Role("doctor")))),
    ("fate_mode", '{"host": true}', FateMode(True)),
    ("deal", '{"seed": "ab", "commitment": "c1", "cards": ["mafia", "doctor"], "seats": ['
             '{"seat": 1, "tg_id": 11, "name": "A", "role": "mafia"}, '
             '{"seat": 2, "tg_id": 12, "name": "B", "role": "doctor", "sex": "f", '
             '"immunities": ["newbie"], "friend": true, "friend_by": 1, "offline": true}]}',
     Deal("ab", "c1", (Role("mafia"), Role("doctor")), (
         DealtSeat(1, 11, "A", Role("mafia")),
         DealtSeat(2, 12, "B", Role("doctor"), sex="f",
                   immunities=(OpenImmunity.NEWBIE,), friend=True, friend_by=1,
                   offline=True)))),
    ("deal_announced", "{}", DealAnnounced()),
    ("day_start", "{}", DayStart()),
    ("night_start", '{"step": 1}', NightStart(1)),
    ("night_start", f'{{"step": 3, "deadlines": {{"night": "{AT}", "mafia": "{AT}"}}}}',
     NightStart(3, {"night": WHEN, "mafia": WHEN})),
    ("choice", '{"seat": 2, "target": 5}', Choice(2, 5)),
    ("mafia_locked", "{}", MafiaLocked()),
    ("night_resolved", '{"choices": {"2": 5, "10": 1}}', NightResolved({2: 5, 10: 1})),
    ("vote_start", '{"step": 2, "order": [1, 2, 3]}', VoteStart(2, (1, 2, 3))),
    ("turn", f'{{"turn": 1, "deadlines": {{"turn": "{AT}"}}}}', Turn(1, {"turn": WHEN})),
    ("vote", '{"seat": 1, "target": 3}', Vote(1, 3)),
    ("vote_timeout", '{"seat": 4}', VoteTimeout(4)),
    ("votes_done", "{}", VotesDone()),
    ("fate_wait", f'{{"deadlines": {{"fate": "{AT}"}}}}', FateWait({"fate": WHEN})),
    ("fate", '{"seat": 3, "by": "host"}', Fate(3, "host")),
    ("cancel_window", f'{{"lawyers": [6], "deadlines": {{"cancel": "{AT}"}}}}',
     CancelWindow((6,), {"cancel": WHEN})),
    ("day_resolved", '{"votes": {"1": 3}}', DayResolved({1: 3})),
    ("day_resolved", '{"votes": {"1": 3, "2": 4}, "fate": 3, "cancel_by": null}',
     DayResolved({1: 3, 2: 4}, fate=3)),
    ("verdict_reset", "{}", VerdictReset()),
    ("tech", '{"seat": 8}', Tech(8)),
    ("foul", '{"seat": 2, "reason": "other", "points": 0}',
     FoulCalled(2, FoulReason("other"), 0)),
    ("foul", '{"seat": 2, "reason": "other", "points": 5, "phase": null}',
     FoulCalled(2, FoulReason("other"), 5)),
    ("foul", '{"seat": 2, "reason": "other", "points": 5, "offer": 3, "phase": "day", '
             '"note": "loud"}',
     FoulCalled(2, FoulReason("other"), 5, offer=3, phase=Phase.DAY, note="loud")),
    ("foul_undone", '{"number": 1}', FoulUndone(1)),
    ("foul_offer_closed", '{"number": 1, "how": "kept"}', FoulOfferClosed(1, "kept")),
    ("pause", '{"remaining": {"night": 12.5, "mafia": 0}}',
     Pause({"night": 12.5, "mafia": 0.0})),
    ("resume", f'{{"deadlines": {{"night": "{AT}"}}}}', Resume({"night": WHEN})),
    ("extend", f'{{"deadlines": {{"night": "{AT}", "turn": null}}}}',
     Extend({"night": WHEN, "turn": None})),
    ("announced", '{"seq": 17}', Announced(17)),
    ("last_word", f'{{"seats": [3, 5], "index": 0, "until": "{AT}"}}',
     LastWord((3, 5), 0, WHEN)),
    ("last_word_over", '{"index": 0}', LastWordOver(0)),
    ("aborted", "{}", Aborted()),
    ("aborted", '{"why": "expired"}', Aborted("expired")),
]


@pytest.mark.parametrize(("kind", "row", "event"), OLD_ROWS,
                         ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(OLD_ROWS)])
def test_an_old_row_reads(kind: str, row: str, event: LogEvent) -> None:
    assert decode(kind, json.loads(row)) == event


def test_the_phase_number_is_stored_under_the_key_step() -> None:
    """``moment`` in the code, ``step`` in the log: a database written before reads the same."""
    assert encode(NightStart(3, {"night": WHEN})) == (
        "night_start", {"step": 3, "deadlines": {"night": AT}})
    assert encode(VoteStart(4, (1, 2))) == ("vote_start", {"step": 4, "order": [1, 2]})


def test_every_kind_has_an_old_row() -> None:
    assert {kind for kind, _, _ in OLD_ROWS} == set(KINDS)


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="game_over"):
        decode("game_over", {})


def _documented() -> dict[str, set[str]]:
    """docs/game-flow.md's table of the log: kind -> the names in its fields' column."""
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("## The event log"):]
    table = table[:table.index("\n\n", table.index("| kind |"))]
    rows: dict[str, set[str]] = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`(\w+)`", cells[0])
        if match is None:
            continue
        assert match[1] not in rows, f"{match[1]} documented twice"
        rows[match[1]] = set(re.findall(r"\w+", cells[1]))
    return rows


def _names(cls: Any) -> set[str]:
    names = {f.name for f in fields(cls)}
    for f in fields(cls):
        hint = typing.get_type_hints(cls)[f.name]
        for arg in typing.get_args(hint):
            if is_dataclass(arg):
                names |= _names(arg)  # a deal's seats: their fields too
    return names


def test_the_documented_table_lists_every_kind_with_its_fields() -> None:
    documented = _documented()
    assert set(documented) == set(KINDS)
    for kind, cls in KINDS.items():
        assert documented[kind] == _names(cls), kind
