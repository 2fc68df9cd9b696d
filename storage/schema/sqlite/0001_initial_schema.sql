-- initial schema
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
