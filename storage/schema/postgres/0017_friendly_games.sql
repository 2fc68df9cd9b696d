-- a friendly game: played in a club the network has not approved, it counts for nothing
-- as SQLite's: fixed when the lobby opens; no ledger row, counts toward nothing
ALTER TABLE games ADD COLUMN friendly INTEGER NOT NULL DEFAULT 0 CHECK (friendly IN (0, 1));
