# The Mafia club bot: `docker compose up -d` (see docker-compose.yml and .env.example).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/mafia.sqlite3

WORKDIR /app

# The table picture (bot/services/picture.py) draws Cyrillic nicknames with DejaVu Sans.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

COPY pyproject.toml README.md ./
COPY engine ./engine
COPY storage ./storage
COPY bot ./bot
COPY locales ./locales
COPY web ./web
# Editable: the code (and locales/ next to bot/) stays in /app, where the bot reads it.
RUN pip install -e . \
    && useradd --system --uid 10001 --home-dir /app mafia \
    && mkdir -p /data \
    && chown mafia /data

USER mafia
VOLUME ["/data"]
# The read-only web pages, when WEB_PORT is set (e.g. WEB_PORT=8080 and publish the port).
EXPOSE 8080

# python -m bot stops cleanly on SIGTERM (docker stop) and SIGINT.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
