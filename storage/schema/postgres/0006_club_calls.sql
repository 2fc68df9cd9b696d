-- club calls: a request for a club's holder (the host's Mini App, a block) and its answer
-- UNLOGGED: a call lives for seconds and its waiter gives up on its own, so none of its four
-- commits waits for the WAL's flush (a server crash empties the table: the waiters time out)
CREATE UNLOGGED TABLE club_calls (
    id       BIGSERIAL        PRIMARY KEY,
    club     BIGINT           NOT NULL,
    kind     TEXT             NOT NULL,
    request  TEXT             NOT NULL,
    created  DOUBLE PRECISION NOT NULL,
    taken    INTEGER,
    answer   TEXT,
    answered DOUBLE PRECISION
);
CREATE INDEX club_calls_open ON club_calls(club, id) WHERE answered IS NULL AND taken IS NULL;
