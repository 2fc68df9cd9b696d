-- the inbox's club (which process handles an update) and claim
ALTER TABLE inbox ADD COLUMN club BIGINT;
ALTER TABLE inbox ADD COLUMN claimed INTEGER;
CREATE INDEX inbox_club_pending ON inbox(club, update_id) WHERE handled IS NULL;
