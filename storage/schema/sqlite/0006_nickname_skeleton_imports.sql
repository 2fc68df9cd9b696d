-- look-alike keys of nicknames; players imported from a club's old records
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
