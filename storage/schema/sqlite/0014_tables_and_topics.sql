-- several tables in one club: a game's table number and forum topic; the outbox's lane
-- table_no: the table's number in its club chat ("Стол 2"); thread_id: the forum topic the
-- table speaks in (NULL: the chat itself); own_topic: the bot created that topic (and closes
-- it at the end). outbox.lane: the table (game) a club post belongs to: the chat's posts are
-- shared between its tables by turns (docs/delivery.md).
ALTER TABLE games ADD COLUMN table_no INTEGER NOT NULL DEFAULT 1 CHECK (table_no > 0);
ALTER TABLE games ADD COLUMN thread_id INTEGER;
ALTER TABLE games ADD COLUMN own_topic INTEGER NOT NULL DEFAULT 0 CHECK (own_topic IN (0, 1));
ALTER TABLE outbox ADD COLUMN lane INTEGER;
