-- a player's counted games: the card, the result and the rating after each
-- as SQLite's: one row per player and counted game, written at its end, rebuilt by rerate
CREATE TABLE rating_history (
    tg_id   BIGINT           NOT NULL REFERENCES players(tg_id),
    seq     BIGINT           NOT NULL,
    game_id BIGINT           NOT NULL,
    role    TEXT             COLLATE "C" NOT NULL,
    team    TEXT             NOT NULL CHECK (team IN ('civilians', 'mafia')),
    result  TEXT             NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    mu      DOUBLE PRECISION NOT NULL,
    sigma   DOUBLE PRECISION NOT NULL CHECK (sigma >= 0),
    PRIMARY KEY (tg_id, seq)
);
CREATE INDEX rating_history_game ON rating_history(seq);
CREATE INDEX rating_history_role ON rating_history(role, tg_id, result);
