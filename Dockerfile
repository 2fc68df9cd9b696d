# The Mafia club bot: `docker compose up -d` (see docker-compose.yml and .env.example).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/mafia.sqlite3

WORKDIR /app

COPY pyproject.toml README.md ./
COPY engine ./engine
COPY storage ./storage
COPY bot ./bot
# Editable: the code (and bot/locales/) stays in /app, where the bot reads it.
RUN pip install -e . \
    && useradd --system --uid 10001 --home-dir /app mafia \
    && mkdir -p /data \
    && chown mafia /data

USER mafia
VOLUME ["/data"]

# python -m bot stops cleanly on SIGTERM (docker stop) and SIGINT.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
