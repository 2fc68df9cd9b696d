-- the seasons: the network's own dates, each counted game's season, its ratings
-- seasons: the network's own seasons (standing/seasons.py; the quarters need no row), each a
-- span of days. game_outcomes.ended_on: the day the game ended in its club's time zone (the
-- games before it: their day), season: the first day of the season that day is in (a quarter's
-- for the games before any custom season). season_ratings: each season's own rating, from its
-- counted games alone (side 'all'), written with the overall one and rebuilt by rerate.
-- season_posts: a season's end posted to a club's chat (once); clubs.season_post: whether to.
CREATE TABLE seasons (
    start_day TEXT    PRIMARY KEY,
    end_day   TEXT    NOT NULL CHECK (end_day >= start_day),
    name      TEXT    NOT NULL,
    set_by    INTEGER NOT NULL,
    set_at    TEXT    NOT NULL
) WITHOUT ROWID;
ALTER TABLE game_outcomes ADD COLUMN ended_on TEXT;
ALTER TABLE game_outcomes ADD COLUMN season TEXT;
UPDATE game_outcomes SET ended_on = (SELECT finished_on FROM games WHERE games.id = game_id);
UPDATE game_outcomes SET season = substr(ended_on, 1, 5) || CASE
    WHEN substr(ended_on, 6, 2) <= '03' THEN '01-01'
    WHEN substr(ended_on, 6, 2) <= '06' THEN '04-01'
    WHEN substr(ended_on, 6, 2) <= '09' THEN '07-01' ELSE '10-01' END
    WHERE ended_on IS NOT NULL;
CREATE INDEX game_outcomes_season ON game_outcomes(season, game_id);
CREATE TABLE season_ratings (
    season TEXT    NOT NULL,
    tg_id  INTEGER NOT NULL REFERENCES players(tg_id),
    mu     REAL    NOT NULL,
    sigma  REAL    NOT NULL CHECK (sigma >= 0),
    games  INTEGER NOT NULL CHECK (games > 0),
    wins   INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (season, tg_id)
) WITHOUT ROWID;
CREATE TABLE season_posts (
    season       TEXT    NOT NULL,
    club_chat_id INTEGER NOT NULL,
    posted_at    TEXT    NOT NULL,
    PRIMARY KEY (season, club_chat_id)
) WITHOUT ROWID;
ALTER TABLE clubs ADD COLUMN season_post INTEGER NOT NULL DEFAULT 1
    CHECK (season_post IN (0, 1));
