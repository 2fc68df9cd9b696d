-- a club's preference: shoot-outs drawn by the host (1) or by the bot (0)
ALTER TABLE clubs ADD COLUMN fate_by_host INTEGER NOT NULL DEFAULT 0
    CHECK (fate_by_host IN (0, 1));
