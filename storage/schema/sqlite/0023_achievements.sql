-- the achievements: each player's counters and the levels earned, and the club's post
-- achievement_progress: a player's running counter of one achievement (standing/achievements.py)
-- over the games that count, and the most it ever was (a streak falls back); achievements: each
-- level earned, with the game that reached it and that game's day. Both written at a game's end
-- in the transaction that rates it, and rebuilt from the games' logs by `python -m storage rerate`.
-- clubs.achievements_public: the club chat hears of a rare achievement earned at its table.
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
