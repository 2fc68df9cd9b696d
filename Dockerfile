# The Mafia club bot: `docker compose up -d` (see docker-compose.yml and .env.example).
# A current 3.11 patch release, pinned by the digest of its multi-architecture index (the tag
# names it, the digest fixes the bytes: a re-pushed tag changes nothing here). The lock files
# carry no patch-level marker; bump tag and digest together, with a `scripts/lock` run and a
# test pass.
FROM python:3.11.17-slim-bookworm@sha256:2333bd330d12de02514770b3585cad313644316047cdee24a7acfdece6de6efb

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/mafia.sqlite3

WORKDIR /app

# The table picture (views/picture.py) draws Cyrillic nicknames with DejaVu Sans; the time
# zones (TIMEZONE: an evening's time) come from tzdata.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core tzdata \
    && rm -rf /var/lib/apt/lists/*

# The dependencies exactly as locked (hashes checked), in their own layer.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock

# Then the project itself, as a plain install (its texts, locales, are package data).
COPY pyproject.toml README.md /tmp/src/
COPY engine /tmp/src/engine
COPY record /tmp/src/record
COPY storage /tmp/src/storage
COPY views /tmp/src/views
COPY bot /tmp/src/bot
COPY locales /tmp/src/locales
COPY web /tmp/src/web
RUN pip install --no-deps /tmp/src \
    && rm -rf /tmp/src \
    && useradd --system --uid 10001 --home-dir /app mafia \
    && mkdir -p /data \
    && chown mafia /data

USER mafia
VOLUME ["/data"]
# The read-only web pages, when WEB_PORT is set (e.g. WEB_PORT=8080 and publish the port).
EXPOSE 8080

# Texts load, the database opens and the Bot API answers getMe (one line; exit 0 or 1).
HEALTHCHECK --interval=60s --timeout=30s --start-period=30s --retries=3 \
    CMD ["python", "-m", "bot", "check"]

# python -m bot stops cleanly on SIGTERM (docker stop) and SIGINT.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
