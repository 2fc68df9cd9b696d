-- the inbox: every update received, before it is handled
CREATE TABLE inbox (
    update_id BIGINT           PRIMARY KEY,
    payload   TEXT             NOT NULL,
    received  DOUBLE PRECISION NOT NULL,
    handled   DOUBLE PRECISION
);
CREATE INDEX inbox_pending ON inbox(update_id) WHERE handled IS NULL;
