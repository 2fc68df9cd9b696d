"""Versioned schema migrations, applied in order at open.

``PRAGMA user_version`` holds the number of applied migrations. Each migration runs in its own
``BEGIN IMMEDIATE`` transaction that re-reads the version first, so two processes opening the
same file at once apply each migration exactly once. Append new migrations; never edit old ones.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Protocol

from storage.sql import Connection


class MigratingConnection(Connection, Protocol):
    """What the migrations need of a connection (the backend's has it)."""

    @property
    def in_transaction(self) -> bool: ...


# A lobby's post is logged as 'lobby_posted' in the step that queues it; a lobby without one is
# posted by the restore (its process died between the game's row and its post). Every lobby
# open before the event existed had its post.
LOBBY_POSTED = """
INSERT INTO game_events (game_id, seq, kind, payload, at)
SELECT g.id, coalesce((SELECT max(e.seq) FROM game_events e WHERE e.game_id = g.id), 0) + 1,
       'lobby_posted', '{}', NULL
FROM games g WHERE g.status = 'lobby';
"""

# The network's trust (docs/bot.md, "Roles"): a club is 'pending' until a network admin approves
# (or refuses, or later suspends) it; ``status_by``/``status_at``: who changed it last, when.
# Every club that has finished a game was trusted before the status existed: it is 'approved'
# (nothing a running network holds is lost); every other chat is 'pending'. ``chat_admins_host``:
# the chat's administrators may host in the approved club (its club admins may turn it off).
# Network admins and club admins are rows (the network's owners, ADMIN_IDS, never are); a club's
# hosts stay in club_hosts.
NETWORK_TRUST = """
ALTER TABLE clubs ADD COLUMN status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'approved', 'refused', 'suspended'));
ALTER TABLE clubs ADD COLUMN name TEXT;
ALTER TABLE clubs ADD COLUMN city TEXT;
ALTER TABLE clubs ADD COLUMN time_zone TEXT;
ALTER TABLE clubs ADD COLUMN status_by INTEGER;
ALTER TABLE clubs ADD COLUMN status_at TEXT;
ALTER TABLE clubs ADD COLUMN chat_admins_host INTEGER NOT NULL DEFAULT 1
    CHECK (chat_admins_host IN (0, 1));
UPDATE clubs SET status = 'approved'
    WHERE EXISTS (SELECT 1 FROM games g WHERE g.club_chat_id = clubs.chat_id
                  AND g.status = 'finished');
CREATE TABLE network_admins (
    tg_id      INTEGER PRIMARY KEY,
    granted_by INTEGER NOT NULL,
    granted_at TEXT    NOT NULL
);
CREATE TABLE club_admins (
    chat_id    INTEGER NOT NULL REFERENCES clubs(chat_id) ON DELETE CASCADE,
    tg_id      INTEGER NOT NULL,
    granted_by INTEGER NOT NULL,
    granted_at TEXT    NOT NULL,
    PRIMARY KEY (chat_id, tg_id)
) WITHOUT ROWID;
CREATE INDEX club_admins_member ON club_admins(tg_id);
CREATE INDEX club_hosts_member ON club_hosts(tg_id);
"""

# A club's announced evenings (docs/game-flow.md, "The evening before the lobby"). Times are
# UTC ISO text to the second; ``timezone`` is the zone the time was announced in. A sign-up's
# place is its ``seq`` order among the evening's rows (a cancel deletes the row, the next one
# moves up); ``came`` is written when the evening ends: 1 seated at one of the club's games of
# the night (or checked in), 0 a no-show, NULL on the waitlist and absent.
EVENINGS = """
CREATE TABLE evenings (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    club_chat_id  INTEGER NOT NULL REFERENCES clubs(chat_id),
    host_id       INTEGER NOT NULL,
    starts_at     TEXT    NOT NULL,
    timezone      TEXT    NOT NULL,
    tables        INTEGER NOT NULL CHECK (tables > 0),
    seats         INTEGER NOT NULL CHECK (seats > 0),
    status        TEXT    NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'started', 'closed', 'cancelled')),
    created_at    TEXT    NOT NULL,
    reminded_day  TEXT,
    reminded_soon TEXT,
    closed_at     TEXT
);
CREATE UNIQUE INDEX evenings_club_start ON evenings(club_chat_id, starts_at)
    WHERE status <> 'cancelled';
CREATE INDEX evenings_live ON evenings(club_chat_id) WHERE status IN ('open', 'started');
CREATE TABLE evening_signups (
    evening_id   INTEGER NOT NULL REFERENCES evenings(id),
    tg_id        INTEGER NOT NULL REFERENCES players(tg_id),
    seq          INTEGER NOT NULL CHECK (seq > 0),
    signed_at    TEXT    NOT NULL,
    invited_game INTEGER REFERENCES games(id),
    checked_in   INTEGER NOT NULL DEFAULT 0 CHECK (checked_in IN (0, 1)),
    came         INTEGER CHECK (came IN (0, 1)),
    PRIMARY KEY (evening_id, tg_id),
    UNIQUE (evening_id, seq)
) WITHOUT ROWID;
CREATE INDEX evening_signups_player ON evening_signups(tg_id);
"""

# game_outcomes: a finished game's winner as its end wrote it, numbered in the order the games
# ended (the order the ratings fold them: standing/rating.py). The games that ended before this
# table get a row in their order with winner NULL: `python -m storage rerate` reads it from the
# log. ratings: a player's skill rating, overall ('all') and per side, over the games that
# count (standing/counting.py); rebuilt by `python -m storage rerate`.
STANDING = """
CREATE TABLE game_outcomes (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL UNIQUE REFERENCES games(id),
    winner  TEXT    CHECK (winner IN ('civilians', 'mafia', 'draw'))
);
INSERT INTO game_outcomes (game_id)
    SELECT id FROM games WHERE status = 'finished' AND friendly = 0 ORDER BY finished_on, id;
CREATE TABLE ratings (
    tg_id INTEGER NOT NULL REFERENCES players(tg_id),
    side  TEXT    NOT NULL CHECK (side IN ('all', 'civilians', 'mafia')),
    mu    REAL    NOT NULL,
    sigma REAL    NOT NULL CHECK (sigma >= 0),
    games INTEGER NOT NULL CHECK (games > 0),
    wins  INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (tg_id, side)
) WITHOUT ROWID;
CREATE INDEX ratings_by_side ON ratings(side);
"""

# achievement_progress: a player's running counter of one achievement (standing/achievements.py)
# over the games that count, and the most it ever was (a streak falls back); achievements: each
# level earned, with the game that reached it and that game's day. Both written at a game's end
# in the transaction that rates it, and rebuilt from the games' logs by `python -m storage rerate`.
# clubs.achievements_public: the club chat hears of a rare achievement earned at its table.
ACHIEVEMENTS = """
CREATE TABLE achievement_progress (
    tg_id       INTEGER NOT NULL REFERENCES players(tg_id),
    achievement TEXT    NOT NULL,
    value       INTEGER NOT NULL CHECK (value >= 0),
    best        INTEGER NOT NULL CHECK (best >= value),
    PRIMARY KEY (tg_id, achievement)
) WITHOUT ROWID;
CREATE TABLE achievements (
    tg_id       INTEGER NOT NULL REFERENCES players(tg_id),
    achievement TEXT    NOT NULL,
    level       INTEGER NOT NULL CHECK (level > 0),
    game_id     INTEGER NOT NULL REFERENCES games(id),
    earned_on   TEXT    NOT NULL,
    PRIMARY KEY (tg_id, achievement, level)
) WITHOUT ROWID;
CREATE INDEX achievements_by_game ON achievements(game_id);
ALTER TABLE clubs ADD COLUMN achievements_public INTEGER NOT NULL DEFAULT 0
    CHECK (achievements_public IN (0, 1));
"""

MIGRATIONS: list[tuple[str, str]] = [
    (
        "initial schema",
        """
CREATE TABLE players (
    tg_id              INTEGER PRIMARY KEY,
    display_name       TEXT    NOT NULL DEFAULT '',
    nickname           TEXT,
    nickname_key       TEXT    UNIQUE,
    language           TEXT,
    sex                TEXT    CHECK (sex IN ('m', 'f')),
    spouse_id          INTEGER REFERENCES players(tg_id),
    spouse_proposed_to INTEGER REFERENCES players(tg_id),
    first_game_date    TEXT,
    last_game_date     TEXT,
    games_played       INTEGER NOT NULL DEFAULT 0 CHECK (games_played >= 0),
    blocked            INTEGER NOT NULL DEFAULT 0 CHECK (blocked IN (0, 1)),
    blocked_reason     TEXT,
    bot_blocked        INTEGER NOT NULL DEFAULT 0 CHECK (bot_blocked IN (0, 1)),
    expiry_warned_for  TEXT,
    expiry_warned_on   TEXT,
    expired_for        TEXT,
    CHECK ((nickname IS NULL) = (nickname_key IS NULL))
);
CREATE INDEX players_last_game ON players(last_game_date);

CREATE TABLE clubs (
    chat_id INTEGER PRIMARY KEY,
    title   TEXT NOT NULL,
    locale  TEXT NOT NULL,
    timers  TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE club_hosts (
    chat_id INTEGER NOT NULL REFERENCES clubs(chat_id) ON DELETE CASCADE,
    tg_id   INTEGER NOT NULL,
    PRIMARY KEY (chat_id, tg_id)
) WITHOUT ROWID;
CREATE TABLE club_presets (
    chat_id INTEGER NOT NULL REFERENCES clubs(chat_id) ON DELETE CASCADE,
    size    INTEGER NOT NULL CHECK (size > 0),
    roles   TEXT    NOT NULL,
    PRIMARY KEY (chat_id, size)
) WITHOUT ROWID;

CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    club_chat_id INTEGER NOT NULL REFERENCES clubs(chat_id),
    host_id      INTEGER NOT NULL,
    created_at   TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'running', 'paused', 'finished', 'aborted')),
    commitment   TEXT,
    finished_on  TEXT
);
CREATE INDEX games_status ON games(status);
CREATE TABLE game_seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL CHECK (seat > 0),
    tg_id   INTEGER NOT NULL REFERENCES players(tg_id),
    role    TEXT,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, tg_id)
) WITHOUT ROWID;
CREATE TABLE game_events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL CHECK (seq > 0),
    kind    TEXT    NOT NULL,
    payload TEXT    NOT NULL CHECK (json_valid(payload)),
    at      TEXT,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER game_events_append_only_u BEFORE UPDATE ON game_events
BEGIN SELECT RAISE(ABORT, 'game_events is append-only'); END;
CREATE TRIGGER game_events_append_only_d BEFORE DELETE ON game_events
BEGIN SELECT RAISE(ABORT, 'game_events is append-only'); END;

-- One row per game whose points were written: the idempotency key of record_game/finish.
CREATE TABLE game_points_applied (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    day     TEXT NOT NULL
);

-- The points ledger: the source of truth. A balance is the sum of a player's rows.
CREATE TABLE ledger (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    tg_id    INTEGER NOT NULL REFERENCES players(tg_id),
    points   INTEGER NOT NULL CHECK (points <> 0),
    kind     TEXT    NOT NULL
             CHECK (kind IN ('game', 'adjust', 'redeem', 'expiry_burn', 'block_burn')),
    reason   TEXT    NOT NULL,
    game_id  INTEGER REFERENCES games(id),
    phase    TEXT,
    admin_id INTEGER,
    day      TEXT    NOT NULL,
    at       TEXT
);
CREATE INDEX ledger_player ON ledger(tg_id, id);
CREATE INDEX ledger_game ON ledger(game_id) WHERE game_id IS NOT NULL;
CREATE TRIGGER ledger_append_only_u BEFORE UPDATE ON ledger
BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
CREATE TRIGGER ledger_append_only_d BEFORE DELETE ON ledger
BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;

-- Cached balance per player, maintained by triggers in the same transaction as the ledger
-- rows. ``ranked`` = the player has a nickname and is not blocked (is on the leaderboard).
CREATE TABLE balances (
    tg_id  INTEGER PRIMARY KEY REFERENCES players(tg_id),
    points INTEGER NOT NULL CHECK (points >= 0),
    ranked INTEGER NOT NULL CHECK (ranked IN (0, 1))
);
CREATE INDEX balances_rank ON balances(points) WHERE ranked = 1 AND points > 0;
CREATE TRIGGER players_balance_row AFTER INSERT ON players
BEGIN
    INSERT INTO balances (tg_id, points, ranked)
    VALUES (NEW.tg_id, 0, NEW.nickname_key IS NOT NULL AND NEW.blocked = 0);
END;
CREATE TRIGGER players_ranked AFTER UPDATE OF nickname_key, blocked ON players
BEGIN
    UPDATE balances SET ranked = (NEW.nickname_key IS NOT NULL AND NEW.blocked = 0)
    WHERE tg_id = NEW.tg_id;
END;
CREATE TRIGGER ledger_balance AFTER INSERT ON ledger
BEGIN
    UPDATE balances SET points = points + NEW.points WHERE tg_id = NEW.tg_id;
END;

CREATE TABLE immunity_orders (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id       INTEGER NOT NULL REFERENCES games(id),
    orderer_id    INTEGER NOT NULL REFERENCES players(tg_id),
    holder_id     INTEGER NOT NULL REFERENCES players(tg_id),
    announce_name INTEGER NOT NULL CHECK (announce_name IN (0, 1)),
    accepted      INTEGER NOT NULL DEFAULT 0 CHECK (accepted IN (0, 1)),
    used          INTEGER NOT NULL DEFAULT 0 CHECK (used IN (0, 1)),
    UNIQUE (game_id, orderer_id)
);

CREATE TABLE first_day_killed (
    club_chat_id INTEGER NOT NULL REFERENCES clubs(chat_id),
    day          TEXT    NOT NULL,
    tg_id        INTEGER NOT NULL,
    PRIMARY KEY (club_chat_id, day, tg_id)
) WITHOUT ROWID;

CREATE TABLE complaints (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    from_id  INTEGER NOT NULL REFERENCES players(tg_id),
    about_id INTEGER NOT NULL REFERENCES players(tg_id),
    text     TEXT    NOT NULL,
    at       TEXT    NOT NULL
);
CREATE INDEX complaints_about ON complaints(about_id);

CREATE TABLE admin_log (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    admin_id INTEGER NOT NULL,
    action   TEXT    NOT NULL,
    details  TEXT    NOT NULL,
    at       TEXT    NOT NULL
);
""",
    ),
    (
        "rank histogram: ranked players per points value, for O(distinct points) ranks",
        """
-- players_at(points) = ranked players (nickname, not blocked) holding exactly that many
-- points (> 0). rank = 1 + sum(players) above one's points; kept by a trigger on balances.
CREATE TABLE rank_histogram (
    points  INTEGER PRIMARY KEY CHECK (points > 0),
    players INTEGER NOT NULL CHECK (players >= 0)
);
INSERT INTO rank_histogram (points, players)
SELECT points, count(*) FROM balances WHERE ranked = 1 AND points > 0 GROUP BY points;
CREATE TRIGGER balances_rank_histogram AFTER UPDATE OF points, ranked ON balances
WHEN OLD.points IS NOT NEW.points OR OLD.ranked IS NOT NEW.ranked
BEGIN
    UPDATE rank_histogram SET players = players - 1
    WHERE OLD.ranked = 1 AND OLD.points > 0 AND points = OLD.points;
    DELETE FROM rank_histogram WHERE points = OLD.points AND players = 0;
    INSERT INTO rank_histogram (points, players)
    SELECT NEW.points, 1 WHERE NEW.ranked = 1 AND NEW.points > 0
    ON CONFLICT (points) DO UPDATE SET players = players + 1;
END;
""",
    ),
    (
        "index of players whose current absence has not been swept yet",
        """
CREATE INDEX players_expiry_pending ON players(last_game_date)
WHERE expired_for IS NOT last_game_date;
""",
    ),
    (
        "rank histogram triggers fire only for ranked balances (faster burns and sweeps)",
        """
DROP TRIGGER balances_rank_histogram;
CREATE TRIGGER balances_rank_histogram_out AFTER UPDATE OF points, ranked ON balances
WHEN OLD.ranked = 1 AND OLD.points > 0
     AND (OLD.points IS NOT NEW.points OR OLD.ranked IS NOT NEW.ranked)
BEGIN
    UPDATE rank_histogram SET players = players - 1 WHERE points = OLD.points;
    DELETE FROM rank_histogram WHERE points = OLD.points AND players = 0;
END;
CREATE TRIGGER balances_rank_histogram_in AFTER UPDATE OF points, ranked ON balances
WHEN NEW.ranked = 1 AND NEW.points > 0
     AND (OLD.points IS NOT NEW.points OR OLD.ranked IS NOT NEW.ranked)
BEGIN
    INSERT INTO rank_histogram (points, players) VALUES (NEW.points, 1)
    ON CONFLICT (points) DO UPDATE SET players = players + 1;
END;
""",
    ),
    (
        "a club's preference: shoot-outs drawn by the host (1) or by the bot (0)",
        """
ALTER TABLE clubs ADD COLUMN fate_by_host INTEGER NOT NULL DEFAULT 0
    CHECK (fate_by_host IN (0, 1));
""",
    ),
    (
        "look-alike keys of nicknames; players imported from a club's old records",
        """
-- storage.lookalike.skeleton(nickname), written by the code (and back-filled at open):
-- two nicknames with the same skeleton look the same. Stale where nickname_key is NULL.
ALTER TABLE players ADD COLUMN nickname_skeleton TEXT;
CREATE INDEX players_skeleton ON players(nickname_skeleton) WHERE nickname_key IS NOT NULL;

-- One row per imported nickname (docs/storage.md, "Moving a club in"). The record waits here
-- until a Telegram account is linked (claimed_by); then its points become an 'adjust' ledger
-- row with reason 'import' and its games count. row_hash makes a re-import a no-op.
CREATE TABLE imported_players (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    nickname       TEXT    NOT NULL,
    nickname_key   TEXT    NOT NULL UNIQUE,
    skeleton       TEXT    NOT NULL,
    points         INTEGER NOT NULL CHECK (points >= 0),
    games_played   INTEGER NOT NULL CHECK (games_played >= 0),
    last_game_date TEXT,
    link_tg_id     INTEGER,
    link_username  TEXT,
    row_hash       TEXT    NOT NULL,
    imported_on    TEXT    NOT NULL,
    admin_id       INTEGER NOT NULL,
    claim_tg_id    INTEGER,
    claimed_by     INTEGER REFERENCES players(tg_id),
    claimed_on     TEXT
);
CREATE INDEX imported_skeleton ON imported_players(skeleton);
CREATE INDEX imported_link_tg ON imported_players(link_tg_id) WHERE claimed_by IS NULL;
CREATE INDEX imported_link_username ON imported_players(link_username) WHERE claimed_by IS NULL;
""",
    ),
    (
        "the durable outbox: what the game must deliver, queued with the log event causing it",
        """
-- One row per request to the Bot API: a send ('send'), an edit of an earlier send by its key
-- ('edit'). Delivered in id order per chat; 'sent' rows keep Telegram's message_id so edits
-- can find it. A queued edit of a key is coalesced (payload replaced, rev + 1).
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id    INTEGER NOT NULL,
    key        TEXT,
    method     TEXT    NOT NULL CHECK (method IN ('send', 'edit')),
    payload    TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'pending'
               CHECK (status IN ('pending', 'sent', 'failed')),
    message_id INTEGER,
    attempts   INTEGER NOT NULL DEFAULT 0,
    next_at    REAL    NOT NULL DEFAULT 0,
    rev        INTEGER NOT NULL DEFAULT 0,
    error      TEXT,
    created    REAL    NOT NULL,
    sent_at    REAL
);
CREATE INDEX outbox_pending ON outbox(chat_id, id) WHERE status = 'pending';
CREATE UNIQUE INDEX outbox_send_key ON outbox(chat_id, key) WHERE method = 'send';
CREATE INDEX outbox_key ON outbox(chat_id, key, method);
""",
    ),
    (
        "the inbox: every update received, before it is handled (PostgreSQL's several processes)",
        """
-- One row per Telegram update, written before the next getUpdates confirms it: a second
-- delivery of the same update_id is dropped, and one received but not handled when its
-- process died is handled by the next (docs/scaling.md). Handled rows are pruned after a day.
CREATE TABLE inbox (
    update_id INTEGER PRIMARY KEY,
    payload   TEXT    NOT NULL,
    received  REAL    NOT NULL,
    handled   REAL
);
CREATE INDEX inbox_pending ON inbox(update_id) WHERE handled IS NULL;
""",
    ),
    (
        "the inbox's club (which process handles an update) and claim (PostgreSQL's sharing)",
        """
-- club: the club whose holder handles the update (NULL: any process); claimed: the lock
-- session of the process handling a club-less update (docs/scaling.md)
ALTER TABLE inbox ADD COLUMN club INTEGER;
ALTER TABLE inbox ADD COLUMN claimed INTEGER;
CREATE INDEX inbox_club_pending ON inbox(club, update_id) WHERE handled IS NULL;
""",
    ),
    (
        "the lobbies open before 'lobby_posted' was logged had their post",
        LOBBY_POSTED,
    ),
    (
        "the gift shop: the catalogue, the players' requests, the admins' dialog",
        """
-- The network's gifts. stock: items on the shelf; the open requests reserve some of them.
CREATE TABLE gifts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    name_key   TEXT    NOT NULL UNIQUE,
    price      INTEGER NOT NULL CHECK (price > 0),
    stock      INTEGER NOT NULL CHECK (stock >= 0),
    photo      TEXT,
    active     INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at TEXT    NOT NULL
);
-- A request reserves its points (the price when asked) and one item while it is open; handed
-- over, its 'redeem' row is ledger_id. card: the message its Exchange was pressed on (a double
-- press is one request). announced_at / told_at: the admins told of it / its end told.
CREATE TABLE gift_requests (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    gift_id      INTEGER NOT NULL REFERENCES gifts(id),
    tg_id        INTEGER NOT NULL REFERENCES players(tg_id),
    points       INTEGER NOT NULL CHECK (points > 0),
    card         INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'handed_over', 'cancelled', 'withdrawn', 'expired',
                                   'burned')),
    created_at   TEXT    NOT NULL,
    closed_at    TEXT,
    closed_by    INTEGER,
    ledger_id    INTEGER REFERENCES ledger(id),
    announced_at TEXT,
    told_at      TEXT,
    UNIQUE (tg_id, card),
    CHECK ((status = 'open') = (closed_at IS NULL)),
    CHECK ((status = 'handed_over') = (ledger_id IS NOT NULL))
);
CREATE INDEX gift_requests_open_player ON gift_requests(tg_id) WHERE status = 'open';
CREATE INDEX gift_requests_open_gift ON gift_requests(gift_id) WHERE status = 'open';
CREATE INDEX gift_requests_untold ON gift_requests(id)
    WHERE announced_at IS NULL OR (status <> 'open' AND told_at IS NULL);
-- An admin's catalogue dialog waiting for a typed value (one per admin).
CREATE TABLE gift_drafts (
    admin_id INTEGER PRIMARY KEY,
    field    TEXT    NOT NULL CHECK (field IN ('name', 'price', 'stock', 'photo')),
    gift_id  INTEGER REFERENCES gifts(id),
    name     TEXT,
    price    INTEGER,
    at       TEXT    NOT NULL
);
""",
    ),
    (
        "a club's fouls: the fine, the foul that offers the technical death, the club's line",
        """
ALTER TABLE clubs ADD COLUMN foul_points INTEGER NOT NULL DEFAULT 0 CHECK (foul_points >= 0);
ALTER TABLE clubs ADD COLUMN foul_limit INTEGER NOT NULL DEFAULT 4 CHECK (foul_limit >= 0);
ALTER TABLE clubs ADD COLUMN foul_public INTEGER NOT NULL DEFAULT 0
    CHECK (foul_public IN (0, 1));
""",
    ),
    (
        "a club's evenings and their sign-ups (the waitlist, the check-ins, the no-shows)",
        EVENINGS,
    ),
    (
        "several tables in one club: a game's table number and forum topic; the outbox's lane",
        """
-- table_no: the table's number in its club chat ("Стол 2"); thread_id: the forum topic the
-- table speaks in (NULL: the chat itself); own_topic: the bot created that topic (and closes
-- it at the end). outbox.lane: the table (game) a club post belongs to: the chat's posts are
-- shared between its tables by turns (docs/delivery.md).
ALTER TABLE games ADD COLUMN table_no INTEGER NOT NULL DEFAULT 1 CHECK (table_no > 0);
ALTER TABLE games ADD COLUMN thread_id INTEGER;
ALTER TABLE games ADD COLUMN own_topic INTEGER NOT NULL DEFAULT 0 CHECK (own_topic IN (0, 1));
ALTER TABLE outbox ADD COLUMN lane INTEGER;
""",
    ),
    (
        "voided games (who, when, why), what a void could not take back, players' appeals",
        """
-- A finished game taken back: its ledger rows reversed in the void's transaction (docs/bot.md,
-- "Voids and appeals"). A reversal never takes a balance below what open gift requests hold:
-- what it could not take back is kept per player in game_void_shortfalls.
ALTER TABLE games ADD COLUMN voided_at TEXT;
ALTER TABLE games ADD COLUMN voided_by INTEGER;
ALTER TABLE games ADD COLUMN void_reason TEXT;
CREATE TABLE game_void_shortfalls (
    game_id INTEGER NOT NULL REFERENCES games(id),
    tg_id   INTEGER NOT NULL REFERENCES players(tg_id),
    points  INTEGER NOT NULL CHECK (points > 0),
    PRIMARY KEY (game_id, tg_id)
) WITHOUT ROWID;
-- One appeal per seated player and game; closed once: 'voided' (any void of the game closes
-- its open appeals) or 'kept'.
CREATE TABLE appeals (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    tg_id      INTEGER NOT NULL REFERENCES players(tg_id),
    reason     TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'voided', 'kept')),
    created_at TEXT    NOT NULL,
    closed_at  TEXT,
    closed_by  INTEGER,
    UNIQUE (game_id, tg_id),
    CHECK ((status = 'open') = (closed_at IS NULL))
);
""",
    ),
    (
        "the club where a gift request's gift is collected",
        """
-- NULL: a request made before the club was asked (any admin of the network hands it over)
ALTER TABLE gift_requests ADD COLUMN club_chat_id INTEGER REFERENCES clubs(chat_id);
""",
    ),
    (
        "the network's trust: a club's status, name, city, time zone; network and club admins",
        NETWORK_TRUST,
    ),
    (
        "the network's settings: the caps on one foul's fine and on a player's fines in a game",
        """
-- one row per setting the network's admins changed (/network); a setting without a row is
-- the code's default (DEFAULT_FINE_CAPS in storage/models.py)
CREATE TABLE network_settings (
    name   TEXT    PRIMARY KEY,
    value  INTEGER NOT NULL CHECK (value >= 0),
    set_by INTEGER NOT NULL,
    set_at TEXT    NOT NULL
);
-- a club's fine above the default cap on one foul's fine is lowered to it
UPDATE clubs SET foul_points = 10 WHERE foul_points > 10;
""",
    ),
    (
        "a friendly game: played in a club the network has not approved, it counts for nothing",
        """
-- fixed when the lobby opens: the game writes no ledger row and counts toward nothing
ALTER TABLE games ADD COLUMN friendly INTEGER NOT NULL DEFAULT 0 CHECK (friendly IN (0, 1));
""",
    ),
    (
        "a player's standing: the finished games' outcomes in their order, the skill ratings",
        STANDING,
    ),
    (
        "a player's counted games: the card, the result and the rating after each",
        """
-- one row per player and counted game (standing/counting.py), written at the game's end with
-- the ratings and rebuilt by `python -m storage rerate`: the card dealt, its team, the result
-- and the overall rating after the game (the graph; roles and rivals are summed from it).
-- seq: the game's number in game_outcomes. Empty until the first rerate after an upgrade.
CREATE TABLE rating_history (
    tg_id   INTEGER NOT NULL REFERENCES players(tg_id),
    seq     INTEGER NOT NULL,
    game_id INTEGER NOT NULL,
    role    TEXT    NOT NULL,
    team    TEXT    NOT NULL CHECK (team IN ('civilians', 'mafia')),
    result  TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    mu      REAL    NOT NULL,
    sigma   REAL    NOT NULL CHECK (sigma >= 0),
    PRIMARY KEY (tg_id, seq)
) WITHOUT ROWID;
CREATE INDEX rating_history_game ON rating_history(seq);
CREATE INDEX rating_history_role ON rating_history(role, tg_id, result);
""",
    ),
    (
        "who killed whom at night in the counted games",
        """
-- one row per night death and shooter whose shot killed, read from the game's log at its end
-- (standing/facts.py); seq: the game's number in game_outcomes. kills_read: 0 for the games
-- that ended before this table, whose kills `python -m storage rerate` reads from their logs.
CREATE TABLE night_kills (
    seq         INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    killer_tg   INTEGER NOT NULL,
    killer_role TEXT    NOT NULL,
    victim_tg   INTEGER NOT NULL,
    victim_role TEXT    NOT NULL,
    PRIMARY KEY (seq, killer_tg, victim_tg)
) WITHOUT ROWID;
CREATE INDEX night_kills_killer ON night_kills(killer_tg);
CREATE INDEX night_kills_victim ON night_kills(victim_tg);
ALTER TABLE game_outcomes ADD COLUMN kills_read INTEGER NOT NULL DEFAULT 0
    CHECK (kills_read IN (0, 1));
""",
    ),
    (
        "the achievements: each player's counters and the levels earned, and the club's post",
        ACHIEVEMENTS,
    ),
]

SCHEMA_VERSION = len(MIGRATIONS)


def statements(script: str) -> Iterator[str]:
    """Split a script into complete statements (trigger bodies stay whole)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            yield buffer.strip()
            buffer = ""
    if buffer.strip():
        raise ValueError(f"incomplete SQL statement in migration: {buffer[:80]!r}")


async def user_version(conn: MigratingConnection) -> int:
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def migrate(
    conn: MigratingConnection, migrations: list[tuple[str, str]] | None = None
) -> int:
    """Apply the missing migrations, each atomically; returns the resulting version."""
    todo = MIGRATIONS if migrations is None else migrations
    while True:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            version = await user_version(conn)
            if version > len(todo):
                raise RuntimeError(
                    f"database schema version {version} is newer than this code ({len(todo)})"
                )
            if version == len(todo):
                await conn.execute("COMMIT")
                return version
            _name, script = todo[version]
            for statement in statements(script):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {version + 1}")
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
