-- the network's settings: the caps on one foul's fine and on a player's fines in a game
-- one row per setting the network's admins changed (/network); a setting without a row is
-- the code's default (DEFAULT_FINE_CAPS in storage/models.py)
CREATE TABLE network_settings (
    name   TEXT    PRIMARY KEY,
    value  INTEGER NOT NULL CHECK (value >= 0),
    set_by INTEGER NOT NULL,
    set_at TEXT    NOT NULL
);
-- a club's fine above the default cap on one foul's fine is lowered to it
UPDATE clubs SET foul_points = 10 WHERE foul_points > 10;
