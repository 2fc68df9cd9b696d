-- several tables in one club: a game's table number and forum topic; the outbox's lane
-- as SQLite's: the table's number in its club chat, its forum topic (NULL: the chat itself),
-- whether the bot created that topic; the table (game) a club post belongs to
ALTER TABLE games ADD COLUMN table_no INTEGER NOT NULL DEFAULT 1 CHECK (table_no > 0);
ALTER TABLE games ADD COLUMN thread_id BIGINT;
ALTER TABLE games ADD COLUMN own_topic INTEGER NOT NULL DEFAULT 0 CHECK (own_topic IN (0, 1));
ALTER TABLE outbox ADD COLUMN lane BIGINT;
