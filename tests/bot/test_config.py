from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.__main__ import describe
from bot.config import PUBLIC_API_URL, Settings

TOKEN = "123456789:AAF-fake-token-for-tests-only-0123456"


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TELEGRAM_API_URL", "DATABASE_PATH", "ADMIN_IDS", "HOST_IDS", "NIGHT_SECONDS",
                 "DEFAULT_LOCALE"):
        monkeypatch.delenv(name, raising=False)
    s = Settings(_env_file=None, bot_token=TOKEN)
    assert s.telegram_api_url == PUBLIC_API_URL
    assert s.database_path == Path("data/mafia.sqlite3")
    assert s.admin_ids == frozenset() and s.host_ids == frozenset()
    assert (s.night_seconds, s.mafia_agree_seconds, s.vote_turn_seconds,
            s.last_word_seconds) == (60, 30, 60, 30)
    assert s.default_locale == "ru"


def test_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("ADMIN_IDS", "1, 2,3")
    monkeypatch.setenv("HOST_IDS", "42")
    monkeypatch.setenv("NIGHT_SECONDS", "0.25")
    monkeypatch.setenv("DEFAULT_LOCALE", "en")
    s = Settings(_env_file=None)
    assert s.bot_token.get_secret_value() == TOKEN
    assert s.admin_ids == {1, 2, 3} and s.host_ids == {42}
    assert s.timers.night == 0.25
    assert s.default_locale == "en"


def test_env_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOT_TOKEN", raising=False)
    env = tmp_path / ".env"
    env.write_text(f"BOT_TOKEN={TOKEN}\nADMIN_IDS=7\n", encoding="utf-8")
    s = Settings(_env_file=env)
    assert s.admin_ids == {7}


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({}, "BOT_TOKEN is not set"),
        ({"bot_token": "nonsense"}, "BOT_TOKEN is malformed"),
        ({"bot_token": TOKEN, "admin_ids": "1,x"}, "ADMIN_IDS is malformed"),
        ({"bot_token": TOKEN, "default_locale": "de"}, "DEFAULT_LOCALE is malformed"),
        ({"bot_token": TOKEN, "night_seconds": "0"}, "NIGHT_SECONDS is malformed"),
        ({"bot_token": TOKEN, "telegram_api_url": "api.telegram.org"},
         "TELEGRAM_API_URL is malformed"),
        ({"bot_token": TOKEN, "webhook_url": "https://bot.example.org/tg"},
         "WEBHOOK_SECRET must be set with WEBHOOK_URL"),
        ({"bot_token": TOKEN, "webhook_url": "https://bot.example.org/tg",
          "webhook_secret": "has spaces"}, "WEBHOOK_SECRET is malformed"),
        ({"bot_token": TOKEN, "webhook_url": "bot.example.org", "webhook_secret": "s"},
         "WEBHOOK_URL is malformed"),
        ({"bot_token": TOKEN, "webhook_port": "0"}, "WEBHOOK_PORT is malformed"),
        ({"bot_token": TOKEN, "timezone": "Nowhere/City"}, "TIMEZONE is malformed"),
    ],
)
def test_bad_settings_are_one_line(
    values: dict[str, str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BOT_TOKEN", raising=False)
    with pytest.raises(ValidationError) as info:
        Settings(_env_file=None, **values)  # type: ignore[arg-type]
    text = describe(info.value)
    assert message in text and "\n" not in text
    assert "nonsense" not in text  # never echo the token


def test_webhook_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("WEBHOOK_URL", "WEBHOOK_SECRET", "WEBHOOK_HOST", "WEBHOOK_PORT"):
        monkeypatch.delenv(name, raising=False)
    polling = Settings(_env_file=None, bot_token=TOKEN, webhook_url="")
    assert polling.webhook_url is None and polling.webhook_secret is None
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org/tg/hook")
    monkeypatch.setenv("WEBHOOK_SECRET", "s3cret_-X")
    monkeypatch.setenv("WEBHOOK_PORT", "8443")
    s = Settings(_env_file=None, bot_token=TOKEN)
    assert s.webhook_url == "https://bot.example.org/tg/hook"
    assert s.webhook_secret is not None and s.webhook_secret.get_secret_value() == "s3cret_-X"
    assert (s.webhook_host, s.webhook_port) == ("0.0.0.0", 8443)


def test_database_url_chooses_postgresql_and_never_shows_its_password(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    sqlite = Settings(_env_file=None, bot_token=TOKEN, database_url="  ")
    assert sqlite.database == sqlite.database_path and sqlite.database_url is None
    url = "postgresql://kim:s3cret@db.example:5433/club"
    s = Settings(_env_file=None, bot_token=TOKEN, database_url=url)
    assert s.database == url
    assert s.database_label == "postgresql://kim@db.example:5433/club"
    assert "s3cret" not in repr(s) + str(s.model_dump())
    for bad in ("mysql://kim@db/club", "postgresql://kim:pw@db.example:5433/",
                "postgresql://kim:pw@db.example:99999/club", "postgresql:///club"):
        with pytest.raises(ValidationError) as err:
            Settings(_env_file=None, bot_token=TOKEN, database_url=bad)
        assert describe(err.value).startswith("DATABASE_URL is malformed")
        assert "pw" not in describe(err.value)


def test_the_pool_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_POOL_SIZE", raising=False)
    assert Settings(_env_file=None, bot_token=TOKEN).database_pool_size == 10
    monkeypatch.setenv("DATABASE_POOL_SIZE", "25")
    assert Settings(_env_file=None, bot_token=TOKEN).database_pool_size == 25
    for bad in ("0", "-3", "1000", "many"):
        monkeypatch.setenv("DATABASE_POOL_SIZE", bad)
        with pytest.raises(ValidationError):
            Settings(_env_file=None, bot_token=TOKEN)


def test_metrics_port_and_log_format(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("METRICS_PORT", "")  # as .env.example leaves it: off
    monkeypatch.setenv("LOG_FORMAT", "json")
    s = Settings(_env_file=None, bot_token=TOKEN)
    assert s.metrics_port is None and s.log_format == "json"
    assert s.metrics_host == "127.0.0.1"  # a stranger reads no counters unless asked for
    monkeypatch.setenv("METRICS_PORT", "9108")
    assert Settings(_env_file=None, bot_token=TOKEN).metrics_port == 9108
    monkeypatch.setenv("LOG_FORMAT", "xml")
    with pytest.raises(ValidationError):
        Settings(_env_file=None, bot_token=TOKEN)


def test_the_clubs_time_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TIMEZONE", raising=False)
    assert Settings(_env_file=None, bot_token=TOKEN).timezone == "Europe/Moscow"
    monkeypatch.setenv("TIMEZONE", "Asia/Yekaterinburg")
    assert Settings(_env_file=None, bot_token=TOKEN).timezone == "Asia/Yekaterinburg"
    monkeypatch.setenv("TIMEZONE", "Moscow/Europe")
    with pytest.raises(ValidationError, match="unknown time zone"):
        Settings(_env_file=None, bot_token=TOKEN)


def test_the_days_a_gift_request_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GIFT_REQUEST_DAYS", raising=False)
    assert Settings(_env_file=None, bot_token=TOKEN).gift_request_days == 14
    monkeypatch.setenv("GIFT_REQUEST_DAYS", "3")
    assert Settings(_env_file=None, bot_token=TOKEN).gift_request_days == 3
    for bad in ("0", "366", "soon"):
        monkeypatch.setenv("GIFT_REQUEST_DAYS", bad)
        with pytest.raises(ValidationError):
            Settings(_env_file=None, bot_token=TOKEN)


def test_metrics_are_served_on_a_port_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("METRICS_PORT", "8080")
    monkeypatch.setenv("WEB_PORT", "8080")
    with pytest.raises(ValidationError, match="METRICS_PORT must differ"):
        Settings(_env_file=None, bot_token=TOKEN)
    monkeypatch.setenv("WEB_PORT", "8081")
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example/hook")
    monkeypatch.setenv("WEBHOOK_SECRET", "s3cret")
    monkeypatch.setenv("WEBHOOK_PORT", "8080")
    with pytest.raises(ValidationError, match="METRICS_PORT must differ"):
        Settings(_env_file=None, bot_token=TOKEN)
    monkeypatch.setenv("WEBHOOK_PORT", "8443")
    assert Settings(_env_file=None, bot_token=TOKEN).metrics_port == 8080
    monkeypatch.setenv("METRICS_PORT", "70000")
    with pytest.raises(ValidationError):
        Settings(_env_file=None, bot_token=TOKEN)
