"""Events carry their audience: nothing secret is ever addressed to everyone."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import AudienceKind, Role, mafia_roster, open_immunities_event, resolve_night
from engine.events import PUBLIC_KINDS
from engine.state import OpenImmunity
from tests.engine.conftest import T10, table
from tests.engine.random_games import play_with_events

ROLE_NAMES = {str(r) for r in Role}


def strings_in(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(k) | strings_in(v) for k, v in value.items()), set())
    if isinstance(value, list | tuple | set | frozenset):
        return set().union(*(strings_in(v) for v in value), set())
    return set()


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_public_events_hold_no_secret(seed: int) -> None:
    _, _, events = play_with_events(random.Random(seed))
    assert events
    for event in events:
        if event.audience.kind is AudienceKind.EVERYONE:
            assert event.kind in PUBLIC_KINDS, event.kind
            if event.kind != "game_over":  # roles are revealed when the game ends
                assert not strings_in(dict(event.data)) & ROLE_NAMES, event
        elif event.kind in ("check_result", "check_no_result"):
            assert event.audience.kind is AudienceKind.SEAT
        elif event.kind == "mafia_team":
            assert event.audience.kind is AudienceKind.MAFIA
        else:
            assert event.audience.kind is AudienceKind.HOST, event.kind
        assert event.kind not in PUBLIC_KINDS or event.audience.kind is AudienceKind.EVERYONE


def test_check_result_goes_to_the_policeman_only() -> None:
    _, night = resolve_night(table(T10), {5: 1})
    checks = [e for e in night.events if e.kind == "check_result"]
    assert len(checks) == 1
    assert checks[0].audience.kind is AudienceKind.SEAT and checks[0].audience.seat == 5
    assert dict(checks[0].data) == {"target": 1, "mafia": True}


def test_blocked_policeman_is_told_no_result() -> None:
    _, night = resolve_night(table(T10), {5: 1, 6: 5})
    kinds = [(e.kind, e.audience.seat) for e in night.events]
    assert ("check_no_result", 5) in kinds
    assert "check_result" not in {k for k, _ in kinds}


def test_mafia_roster_goes_to_the_mafia_with_roles() -> None:
    event = mafia_roster(table(T10))
    assert event.audience.kind is AudienceKind.MAFIA
    assert dict(event.data["members"]) == {1: "mafia_chief", 2: "mafia", 3: "mafia"}


def test_open_immunities_are_announced() -> None:
    state = table(T10, s3={"open": frozenset({OpenImmunity.NEWBIE})})
    event = open_immunities_event(state)
    assert event.audience.kind is AudienceKind.EVERYONE
    assert dict(event.data["holders"]) == {3: ["newbie"]}


def test_friend_save_announces_the_orderer_only_when_allowed() -> None:
    from engine import FriendImmunity

    named = table(T10, s4={"friend": FriendImmunity(announce_by=7)})
    _, night = resolve_night(named, {1: 4, 2: 4, 3: 4})
    saved = [e for e in night.events if e.kind == "friend_saved"]
    assert [dict(e.data) for e in saved] == [{"seat": 4, "by": 7}]
    anonymous = table(T10, s4={"friend": FriendImmunity()})
    _, night = resolve_night(anonymous, {1: 4, 2: 4, 3: 4})
    saved = [e for e in night.events if e.kind == "friend_saved"]
    assert [dict(e.data) for e in saved] == [{"seat": 4, "by": None}]


def test_doctor_and_lucky_saves_stay_with_the_host() -> None:
    _, night = resolve_night(table(T10), {1: 9, 2: 9, 3: 9})
    public = [e for e in night.events if e.audience.kind is AudienceKind.EVERYONE]
    assert all("lucky" not in strings_in(dict(e.data)) for e in public)
    host = [e for e in night.events if e.audience.kind is AudienceKind.HOST]
    assert host and (9, "lucky") in host[0].data["saved"]
