-- the inbox: every update received, before it is handled (PostgreSQL's several processes)
-- One row per Telegram update, written before the next getUpdates confirms it: a second
-- delivery of the same update_id is dropped, and one received but not handled when its
-- process died is handled by the next (docs/scaling.md). Handled rows are pruned after a day.
CREATE TABLE inbox (
    update_id INTEGER PRIMARY KEY,
    payload   TEXT    NOT NULL,
    received  REAL    NOT NULL,
    handled   REAL
);
CREATE INDEX inbox_pending ON inbox(update_id) WHERE handled IS NULL;
