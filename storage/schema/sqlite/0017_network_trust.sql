-- the network's trust: a club's status, name, city, time zone; network and club admins
-- The network's trust (docs/bot.md, "Roles"): a club is 'pending' until a network admin approves
-- (or refuses, or later suspends) it; status_by/status_at: who changed it last, when.
-- Every club that has finished a game was trusted before the status existed: it is 'approved'
-- (nothing a running network holds is lost); every other chat is 'pending'. chat_admins_host:
-- the chat's administrators may host in the approved club (its club admins may turn it off).
-- Network admins and club admins are rows (the network's owners, ADMIN_IDS, never are); a club's
-- hosts stay in club_hosts.
ALTER TABLE clubs ADD COLUMN status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'approved', 'refused', 'suspended'));
ALTER TABLE clubs ADD COLUMN name TEXT;
ALTER TABLE clubs ADD COLUMN city TEXT;
ALTER TABLE clubs ADD COLUMN time_zone TEXT;
ALTER TABLE clubs ADD COLUMN status_by INTEGER;
ALTER TABLE clubs ADD COLUMN status_at TEXT;
ALTER TABLE clubs ADD COLUMN chat_admins_host INTEGER NOT NULL DEFAULT 1
    CHECK (chat_admins_host IN (0, 1));
UPDATE clubs SET status = 'approved'
    WHERE EXISTS (SELECT 1 FROM games g WHERE g.club_chat_id = clubs.chat_id
                  AND g.status = 'finished');
CREATE TABLE network_admins (
    tg_id      INTEGER PRIMARY KEY,
    granted_by INTEGER NOT NULL,
    granted_at TEXT    NOT NULL
);
CREATE TABLE club_admins (
    chat_id    INTEGER NOT NULL REFERENCES clubs(chat_id) ON DELETE CASCADE,
    tg_id      INTEGER NOT NULL,
    granted_by INTEGER NOT NULL,
    granted_at TEXT    NOT NULL,
    PRIMARY KEY (chat_id, tg_id)
) WITHOUT ROWID;
CREATE INDEX club_admins_member ON club_admins(tg_id);
CREATE INDEX club_hosts_member ON club_hosts(tg_id);
