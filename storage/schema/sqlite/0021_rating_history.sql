-- a player's counted games: the card, the result and the rating after each
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
