-- the seasons: the network's own dates, each counted game's season, its ratings
-- as SQLite's: the custom seasons, each outcome's day and season, the seasons' ratings, posts
CREATE TABLE seasons (
    start_day TEXT   COLLATE "C" PRIMARY KEY,
    end_day   TEXT   COLLATE "C" NOT NULL CHECK (end_day >= start_day),
    name      TEXT   COLLATE "C" NOT NULL,
    set_by    BIGINT NOT NULL,
    set_at    TEXT   COLLATE "C" NOT NULL
);
ALTER TABLE game_outcomes ADD COLUMN ended_on TEXT COLLATE "C";
ALTER TABLE game_outcomes ADD COLUMN season TEXT COLLATE "C";
UPDATE game_outcomes o SET ended_on = g.finished_on FROM games g WHERE g.id = o.game_id;
UPDATE game_outcomes SET season = substr(ended_on, 1, 5) || CASE
    WHEN substr(ended_on, 6, 2) <= '03' THEN '01-01'
    WHEN substr(ended_on, 6, 2) <= '06' THEN '04-01'
    WHEN substr(ended_on, 6, 2) <= '09' THEN '07-01' ELSE '10-01' END
    WHERE ended_on IS NOT NULL;
CREATE INDEX game_outcomes_season ON game_outcomes(season, game_id);
CREATE TABLE season_ratings (
    season TEXT             COLLATE "C" NOT NULL,
    tg_id  BIGINT           NOT NULL REFERENCES players(tg_id),
    mu     DOUBLE PRECISION NOT NULL,
    sigma  DOUBLE PRECISION NOT NULL CHECK (sigma >= 0),
    games  INTEGER          NOT NULL CHECK (games > 0),
    wins   INTEGER          NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (season, tg_id)
);
CREATE TABLE season_posts (
    season       TEXT   COLLATE "C" NOT NULL,
    club_chat_id BIGINT NOT NULL,
    posted_at    TEXT   COLLATE "C" NOT NULL,
    PRIMARY KEY (season, club_chat_id)
);
ALTER TABLE clubs ADD COLUMN season_post INTEGER NOT NULL DEFAULT 1
    CHECK (season_post IN (0, 1));
