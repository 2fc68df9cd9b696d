-- voided games (who, when, why), what a void could not take back, players' appeals
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
