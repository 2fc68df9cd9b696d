-- the achievements: each player's counters and the levels earned, and the club's post
-- as SQLite's: the running counters, the levels earned (the game, its day), the club's post
CREATE TABLE achievement_progress (
    tg_id       BIGINT  NOT NULL REFERENCES players(tg_id),
    achievement TEXT    NOT NULL,
    value       INTEGER NOT NULL CHECK (value >= 0),
    best        INTEGER NOT NULL CHECK (best >= value),
    PRIMARY KEY (tg_id, achievement)
);
CREATE TABLE achievements (
    tg_id       BIGINT  NOT NULL REFERENCES players(tg_id),
    achievement TEXT    NOT NULL,
    level       INTEGER NOT NULL CHECK (level > 0),
    game_id     BIGINT  NOT NULL REFERENCES games(id),
    earned_on   TEXT    NOT NULL,
    PRIMARY KEY (tg_id, achievement, level)
);
CREATE INDEX achievements_by_game ON achievements(game_id);
ALTER TABLE clubs ADD COLUMN achievements_public INTEGER NOT NULL DEFAULT 0
    CHECK (achievements_public IN (0, 1));
