-- a club's evenings and their sign-ups (the waitlist, the check-ins, the no-shows)
-- A club's announced evenings (docs/game-flow.md, "The evening before the lobby"). Times are
-- UTC ISO text to the second; timezone is the zone the time was announced in. A sign-up's
-- place is its seq order among the evening's rows (a cancel deletes the row, the next one
-- moves up); came is written when the evening ends: 1 seated at one of the club's games of
-- the night (or checked in), 0 a no-show, NULL on the waitlist and absent.
CREATE TABLE evenings (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    club_chat_id  INTEGER NOT NULL REFERENCES clubs(chat_id),
    host_id       INTEGER NOT NULL,
    starts_at     TEXT    NOT NULL,
    timezone      TEXT    NOT NULL,
    tables        INTEGER NOT NULL CHECK (tables > 0),
    seats         INTEGER NOT NULL CHECK (seats > 0),
    status        TEXT    NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'started', 'closed', 'cancelled')),
    created_at    TEXT    NOT NULL,
    reminded_day  TEXT,
    reminded_soon TEXT,
    closed_at     TEXT
);
CREATE UNIQUE INDEX evenings_club_start ON evenings(club_chat_id, starts_at)
    WHERE status <> 'cancelled';
CREATE INDEX evenings_live ON evenings(club_chat_id) WHERE status IN ('open', 'started');
CREATE TABLE evening_signups (
    evening_id   INTEGER NOT NULL REFERENCES evenings(id),
    tg_id        INTEGER NOT NULL REFERENCES players(tg_id),
    seq          INTEGER NOT NULL CHECK (seq > 0),
    signed_at    TEXT    NOT NULL,
    invited_game INTEGER REFERENCES games(id),
    checked_in   INTEGER NOT NULL DEFAULT 0 CHECK (checked_in IN (0, 1)),
    came         INTEGER CHECK (came IN (0, 1)),
    PRIMARY KEY (evening_id, tg_id),
    UNIQUE (evening_id, seq)
) WITHOUT ROWID;
CREATE INDEX evening_signups_player ON evening_signups(tg_id);
