-- the durable outbox: what the game must deliver, queued with the log event causing it
-- One row per request to the Bot API: a send ('send'), an edit of an earlier send by its key
-- ('edit'). Delivered in id order per chat; 'sent' rows keep Telegram's message_id so edits
-- can find it. A queued edit of a key is coalesced (payload replaced, rev + 1).
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id    INTEGER NOT NULL,
    key        TEXT,
    method     TEXT    NOT NULL CHECK (method IN ('send', 'edit')),
    payload    TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'pending'
               CHECK (status IN ('pending', 'sent', 'failed')),
    message_id INTEGER,
    attempts   INTEGER NOT NULL DEFAULT 0,
    next_at    REAL    NOT NULL DEFAULT 0,
    rev        INTEGER NOT NULL DEFAULT 0,
    error      TEXT,
    created    REAL    NOT NULL,
    sent_at    REAL
);
CREATE INDEX outbox_pending ON outbox(chat_id, id) WHERE status = 'pending';
CREATE UNIQUE INDEX outbox_send_key ON outbox(chat_id, key) WHERE method = 'send';
CREATE INDEX outbox_key ON outbox(chat_id, key, method);
