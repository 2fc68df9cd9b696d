-- who killed whom at night in the counted games
-- one row per night death and shooter whose shot killed, read from the game's log at its end
-- (standing/facts.py); seq: the game's number in game_outcomes. kills_read: 0 for the games
-- that ended before this table, whose kills `python -m storage rerate` reads from their logs.
CREATE TABLE night_kills (
    seq         INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    killer_tg   INTEGER NOT NULL,
    killer_role TEXT    NOT NULL,
    victim_tg   INTEGER NOT NULL,
    victim_role TEXT    NOT NULL,
    PRIMARY KEY (seq, killer_tg, victim_tg)
) WITHOUT ROWID;
CREATE INDEX night_kills_killer ON night_kills(killer_tg);
CREATE INDEX night_kills_victim ON night_kills(victim_tg);
ALTER TABLE game_outcomes ADD COLUMN kills_read INTEGER NOT NULL DEFAULT 0
    CHECK (kills_read IN (0, 1));
