-- a club's fouls: the fine, the foul that offers the technical death, the club's line
ALTER TABLE clubs ADD COLUMN foul_points INTEGER NOT NULL DEFAULT 0 CHECK (foul_points >= 0);
ALTER TABLE clubs ADD COLUMN foul_limit INTEGER NOT NULL DEFAULT 4 CHECK (foul_limit >= 0);
ALTER TABLE clubs ADD COLUMN foul_public INTEGER NOT NULL DEFAULT 0
    CHECK (foul_public IN (0, 1));
