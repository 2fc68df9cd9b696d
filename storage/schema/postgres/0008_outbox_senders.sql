-- the sender of each chat's outbox (bot/cluster/share.py)
-- UNLOGGED: a claim is good while its sender's session lives; a server crash ends every session
CREATE UNLOGGED TABLE outbox_senders (
    chat_id BIGINT  PRIMARY KEY,
    sender  INTEGER NOT NULL
);
