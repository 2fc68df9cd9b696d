"""The Mini App's authentication: Telegram's initData signature, its age, the header."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.miniapp.auth import AuthError, check_init_data, host_user, init_data_of
from tests.web.initdata import forge, sign_init_data

TOKEN = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678"
NOW = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


def test_a_signed_init_data_names_its_user() -> None:
    data = sign_init_data(TOKEN, 500, NOW - timedelta(minutes=5), first_name="Vera <b>")
    user = check_init_data(TOKEN, data, NOW)
    assert user.id == 500
    assert user.first_name == "Vera <b>"
    assert user.language_code == "en"


def test_another_bots_token_is_refused() -> None:
    data = sign_init_data("654321:ZYXdefGHIjklMNOpqrSTUvwxYZ012345678", 500, NOW)
    with pytest.raises(AuthError, match="bad signature"):
        check_init_data(TOKEN, data, NOW)


def test_a_changed_user_is_refused() -> None:
    data = forge(sign_init_data(TOKEN, 1001, NOW), 500)
    assert "500" in data
    with pytest.raises(AuthError, match="bad signature"):
        check_init_data(TOKEN, data, NOW)


@pytest.mark.parametrize("data", ["", "hash=", "user=%7B%7D", "a=b&hash=00", "%%%", "auth_date"])
def test_malformed_init_data_is_refused(data: str) -> None:
    with pytest.raises(AuthError):
        check_init_data(TOKEN, data, NOW)


def test_auth_date_at_most_an_hour_old() -> None:
    hour = timedelta(hours=1)
    assert check_init_data(TOKEN, sign_init_data(TOKEN, 500, NOW - hour), NOW).id == 500
    with pytest.raises(AuthError, match="expired"):
        check_init_data(TOKEN, sign_init_data(TOKEN, 500, NOW - hour - timedelta(seconds=1)),
                        NOW)


def test_auth_date_from_the_future_is_refused_beyond_the_skew() -> None:
    assert check_init_data(TOKEN, sign_init_data(TOKEN, 500, NOW + timedelta(minutes=4)),
                           NOW).id == 500
    with pytest.raises(AuthError, match="future"):
        check_init_data(TOKEN, sign_init_data(TOKEN, 500, NOW + timedelta(minutes=6)), NOW)


def test_the_header() -> None:
    data = sign_init_data(TOKEN, 500, NOW)
    assert init_data_of(f"tma {data}") == data
    assert init_data_of(f"TMA  {data} ") == data
    assert host_user(TOKEN, f"tma {data}", NOW).id == 500
    for header in (None, "", "tma", "tma ", f"Bearer {data}", data):
        with pytest.raises(AuthError):
            init_data_of(header)
