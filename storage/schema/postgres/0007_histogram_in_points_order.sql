-- the leaderboard's buckets changed in points order (writers side by side)
-- One bucket at a time in points order: two transactions moving players between buckets wait
-- for each other in one order, never in a circle; a new bucket is an upsert (two at once:
-- one inserts, the other adds to it), an emptied one is deleted (the upsert after it inserts).
CREATE OR REPLACE FUNCTION rank_histogram() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE c RECORD;
BEGIN
    FOR c IN
        SELECT points, sum(n) AS n FROM (
            SELECT points, -1 AS n FROM old_rows WHERE ranked = 1 AND points > 0
            UNION ALL
            SELECT points, 1 AS n FROM new_rows WHERE ranked = 1 AND points > 0
        ) changes GROUP BY points HAVING sum(n) <> 0 ORDER BY points
    LOOP
        IF c.n > 0 THEN
            INSERT INTO rank_histogram (points, players) VALUES (c.points, c.n)
            ON CONFLICT (points) DO UPDATE SET players = rank_histogram.players + excluded.players;
        ELSE
            UPDATE rank_histogram SET players = players + c.n WHERE points = c.points;
            DELETE FROM rank_histogram WHERE points = c.points AND players = 0;
        END IF;
    END LOOP;
    RETURN NULL;
END $$;
