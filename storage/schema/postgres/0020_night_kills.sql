-- who killed whom at night in the counted games
-- as SQLite's: a row per night death and shooter, read from the log at the game's end
CREATE TABLE night_kills (
    seq         BIGINT NOT NULL,
    game_id     BIGINT NOT NULL,
    killer_tg   BIGINT NOT NULL,
    killer_role TEXT   COLLATE "C" NOT NULL,
    victim_tg   BIGINT NOT NULL,
    victim_role TEXT   COLLATE "C" NOT NULL,
    PRIMARY KEY (seq, killer_tg, victim_tg)
);
CREATE INDEX night_kills_killer ON night_kills(killer_tg);
CREATE INDEX night_kills_victim ON night_kills(victim_tg);
ALTER TABLE game_outcomes ADD COLUMN kills_read INTEGER NOT NULL DEFAULT 0
    CHECK (kills_read IN (0, 1));
