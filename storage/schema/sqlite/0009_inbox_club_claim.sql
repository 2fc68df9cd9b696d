-- the inbox's club (which process handles an update) and claim (PostgreSQL's sharing)
-- club: the club whose holder handles the update (NULL: any process); claimed: the lock
-- session of the process handling a club-less update (docs/scaling.md)
ALTER TABLE inbox ADD COLUMN club INTEGER;
ALTER TABLE inbox ADD COLUMN claimed INTEGER;
CREATE INDEX inbox_club_pending ON inbox(club, update_id) WHERE handled IS NULL;
