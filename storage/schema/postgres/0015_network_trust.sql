-- the network's trust: a club's status, name, city, time zone; network and club admins
-- as SQLite's: a club's status (every club that has finished a game: 'approved'), who changed
-- it last and when; the network's admins and each club's admins (the owners are ADMIN_IDS)
ALTER TABLE clubs ADD COLUMN status TEXT COLLATE "C" NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'approved', 'refused', 'suspended'));
ALTER TABLE clubs ADD COLUMN name TEXT;
ALTER TABLE clubs ADD COLUMN city TEXT;
ALTER TABLE clubs ADD COLUMN time_zone TEXT COLLATE "C";
ALTER TABLE clubs ADD COLUMN status_by BIGINT;
ALTER TABLE clubs ADD COLUMN status_at TEXT COLLATE "C";
ALTER TABLE clubs ADD COLUMN chat_admins_host INTEGER NOT NULL DEFAULT 1
    CHECK (chat_admins_host IN (0, 1));
UPDATE clubs SET status = 'approved'
    WHERE EXISTS (SELECT 1 FROM games g WHERE g.club_chat_id = clubs.chat_id
                  AND g.status = 'finished');
CREATE TABLE network_admins (
    tg_id      BIGINT PRIMARY KEY,
    granted_by BIGINT NOT NULL,
    granted_at TEXT   COLLATE "C" NOT NULL
);
CREATE TABLE club_admins (
    chat_id    BIGINT NOT NULL REFERENCES clubs(chat_id) ON DELETE CASCADE,
    tg_id      BIGINT NOT NULL,
    granted_by BIGINT NOT NULL,
    granted_at TEXT   COLLATE "C" NOT NULL,
    PRIMARY KEY (chat_id, tg_id)
);
CREATE INDEX club_admins_member ON club_admins(tg_id);
CREATE INDEX club_hosts_member ON club_hosts(tg_id);
