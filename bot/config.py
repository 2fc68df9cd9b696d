"""Settings from the environment and `.env` (names and defaults are part of the interface)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

TOKEN_RE = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{20,}$")
PUBLIC_API_URL = "https://api.telegram.org"
_URL_SHAPE = "expected postgresql://user:password@host:port/dbname"

Locale = Literal["ru", "en"]
LOCALES: tuple[Locale, ...] = ("ru", "en")


class Timers(BaseModel):
    """Game timers in seconds (floats, so tests can use fractions of a second)."""

    night: float
    mafia_agree: float
    vote_turn: float
    last_word: float


def _parse_ids(value: Any) -> Any:
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        return frozenset(int(p) for p in parts if p)
    if isinstance(value, int):
        return frozenset({value})
    return value


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr
    telegram_api_url: str = PUBLIC_API_URL
    database_path: Path = Path("data/mafia.sqlite3")
    # PostgreSQL instead of the SQLite file: postgresql://user:password@host:port/dbname
    database_url: SecretStr | None = None
    # PostgreSQL: this process's connections (its transactions side by side; docs/storage.md)
    database_pool_size: Annotated[int, Field(ge=1, le=200)] = 10
    admin_ids: Annotated[frozenset[int], NoDecode] = frozenset()
    host_ids: Annotated[frozenset[int], NoDecode] = frozenset()
    night_seconds: float = 60
    mafia_agree_seconds: float = 30
    vote_turn_seconds: float = 60
    last_word_seconds: float = 30
    default_locale: Locale = "ru"
    # the clubs' time zone (IANA): an evening's "05.12 19:30" and its reminders are in it
    timezone: str = "Europe/Moscow"
    web_port: int | None = None  # serve the read-only web pages (web/) on this port
    metrics_port: int | None = None  # Prometheus' /metrics of this process (bot/metrics.py)
    # its address: loopback unless a scraper elsewhere must reach it (the compose network)
    metrics_host: str = "127.0.0.1"
    log_format: Literal["text", "json"] = "text"  # json: one JSON object a line
    ops_chat_id: int | None = None  # the operators' chat: alerts (bot/services/alerts.py)
    # each user's updates: a burst, then so many a second (bot/telegram/flood.py; 0: no bound);
    # one a second is what a private chat's answers go out at, so no flood builds a backlog
    flood_burst: Annotated[int, Field(ge=0)] = 10
    flood_per_second: Annotated[float, Field(gt=0)] = 1.0
    web_host: str = "0.0.0.0"
    web_url: str | None = None  # the pages' public address, linked from /stats and /top
    # Webhook mode (long polling when WEBHOOK_URL is unset): Telegram POSTs updates to
    # WEBHOOK_URL, which must reach WEBHOOK_HOST:WEBHOOK_PORT (a reverse proxy usually).
    webhook_url: str | None = None
    webhook_secret: SecretStr | None = None  # required with WEBHOOK_URL
    webhook_host: str = "0.0.0.0"
    webhook_port: int = 8080
    # a gift request not handed over within so many days closes, its points free again
    gift_request_days: Annotated[int, Field(ge=1, le=365)] = 14
    # a message sent more than so many days ago loses its words (the daily prune, docs/storage.md
    # "What is pruned"); the game's log keeps what a dispute needs
    outbox_keep_days: Annotated[int, Field(ge=1, le=3650)] = 7
    # a lobby nobody dealt closes after so many minutes, its seats free (0: never)
    lobby_ttl_minutes: Annotated[int, Field(ge=0, le=10080)] = 180

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not TOKEN_RE.match(value.get_secret_value().strip()):
            raise ValueError("malformed token (expected digits:secret)")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("telegram_api_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if not re.match(r"^https?://[^/\s]+", value):
            raise ValueError("expected an http:// or https:// URL")
        return value

    @field_validator("web_port", "metrics_port", "ops_chat_id", "web_url", "webhook_url",
                     "webhook_secret", "database_url", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^https?://[^/\s]+\S*$", value.strip()):
            raise ValueError("expected an http:// or https:// URL")
        return None if value is None else value.strip()

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        url = value.get_secret_value().strip()
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018  (a bad port raises here)
        except ValueError:
            raise ValueError(_URL_SHAPE) from None
        if parts.scheme not in ("postgresql", "postgres") or not parts.hostname \
                or parts.path.strip("/") == "":
            raise ValueError(_URL_SHAPE)
        return SecretStr(url)

    @property
    def database(self) -> str | Path:
        """Where the data lives: the PostgreSQL URL when set, else the SQLite file."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return self.database_path

    @property
    def database_label(self) -> str:
        """The database named for people and logs (never a password)."""
        if self.database_url is None:
            return str(self.database_path)
        parts = urlsplit(self.database_url.get_secret_value())
        user = f"{parts.username}@" if parts.username else ""
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{user}{parts.hostname}{port}{parts.path}"

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        value = value.strip()
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError("unknown time zone: an IANA name such as Europe/Moscow") from None
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        # Telegram's secret_token: 1-256 characters, A-Z a-z 0-9 _ -
        if value is not None and not re.match(r"^[A-Za-z0-9_-]{1,256}$",
                                              value.get_secret_value()):
            raise ValueError("1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @model_validator(mode="after")
    def _webhook_needs_secret(self) -> Settings:
        if self.webhook_url is not None and self.webhook_secret is None:
            raise ValueError("WEBHOOK_SECRET must be set with WEBHOOK_URL")
        return self

    @model_validator(mode="after")
    def _metrics_port_of_its_own(self) -> Settings:
        # /metrics is for Prometheus, never on the port the public pages or the webhook use
        if self.metrics_port is not None and self.metrics_port in (
                self.web_port, self.webhook_port if self.webhook_url else None):
            raise ValueError("METRICS_PORT must differ from WEB_PORT and WEBHOOK_PORT")
        return self

    @field_validator("web_port", "webhook_port", "metrics_port")
    @classmethod
    def _port(cls, value: int | None) -> int | None:
        if value is not None and not 0 < value < 65536:
            raise ValueError("must be a port number (1-65535)")
        return value

    @field_validator("admin_ids", "host_ids", mode="before")
    @classmethod
    def _comma_ints(cls, value: Any) -> Any:
        return _parse_ids(value)

    @field_validator(
        "night_seconds", "mafia_agree_seconds", "vote_turn_seconds", "last_word_seconds"
    )
    @classmethod
    def _positive(cls, value: float) -> float:
        if value <= 0:
            raise ValueError("must be positive")
        return value

    @property
    def timers(self) -> Timers:
        return Timers(
            night=self.night_seconds,
            mafia_agree=self.mafia_agree_seconds,
            vote_turn=self.vote_turn_seconds,
            last_word=self.last_word_seconds,
        )
