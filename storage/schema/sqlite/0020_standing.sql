-- a player's standing: the finished games' outcomes in their order, the skill ratings
-- game_outcomes: a finished game's winner as its end wrote it, numbered in the order the games
-- ended (the order the ratings fold them: standing/rating.py). The games that ended before this
-- table get a row in their order with winner NULL: `python -m storage rerate` reads it from the
-- log. ratings: a player's skill rating, overall ('all') and per side, over the games that
-- count (standing/counting.py); rebuilt by `python -m storage rerate`.
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
