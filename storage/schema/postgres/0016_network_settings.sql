-- the network's settings: the caps on one foul's fine and on a player's fines in a game
-- as SQLite's: one row per setting the network's admins changed; none: the code's default
CREATE TABLE network_settings (
    name   TEXT    COLLATE "C" PRIMARY KEY,
    value  INTEGER NOT NULL CHECK (value >= 0),
    set_by BIGINT  NOT NULL,
    set_at TEXT    COLLATE "C" NOT NULL
);
UPDATE clubs SET foul_points = 10 WHERE foul_points > 10;
