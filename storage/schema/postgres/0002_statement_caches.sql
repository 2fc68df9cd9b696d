-- the caches (balances, rank_histogram) kept per statement
-- The caches kept per statement, not per row: a statement's changed rows come as transition
-- tables and each cache row is written once per statement. Row by row, a transaction that
-- burns many players (the expiry catch-up) would update the same few hundred rank_histogram
-- rows once per player, and the versions a transaction leaves cannot be pruned while it is
-- open: every update would walk them all (docs/storage.md).
DROP TRIGGER players_balance_row ON players;
DROP TRIGGER players_ranked ON players;
DROP TRIGGER ledger_balance ON ledger;
DROP TRIGGER balances_rank_histogram_out ON balances;
DROP TRIGGER balances_rank_histogram_in ON balances;
DROP FUNCTION players_balance_row();
DROP FUNCTION players_ranked();
DROP FUNCTION ledger_balance();
DROP FUNCTION rank_histogram_out();
DROP FUNCTION rank_histogram_in();

CREATE FUNCTION players_balance_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO balances (tg_id, points, ranked)
    SELECT tg_id, 0, CASE WHEN nickname_key IS NOT NULL AND blocked = 0 THEN 1 ELSE 0 END
    FROM new_rows;
    RETURN NULL;
END $$;
CREATE TRIGGER players_balance_rows AFTER INSERT ON players
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION players_balance_rows();

CREATE FUNCTION players_ranked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE balances b
    SET ranked = CASE WHEN n.nickname_key IS NOT NULL AND n.blocked = 0 THEN 1 ELSE 0 END
    FROM new_rows n JOIN old_rows o ON o.tg_id = n.tg_id
    WHERE b.tg_id = n.tg_id
      AND (o.nickname_key IS DISTINCT FROM n.nickname_key OR o.blocked <> n.blocked);
    RETURN NULL;
END $$;
CREATE TRIGGER players_ranked AFTER UPDATE ON players
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION players_ranked();

CREATE FUNCTION ledger_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE balances b SET points = b.points + s.delta
    FROM (SELECT tg_id, sum(points) AS delta FROM new_rows GROUP BY tg_id) s
    WHERE b.tg_id = s.tg_id;
    RETURN NULL;
END $$;
CREATE TRIGGER ledger_balances AFTER INSERT ON ledger
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION ledger_balances();

-- (an upsert would check its proposed row, a negative count, before finding the conflict)
CREATE FUNCTION rank_histogram() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS rank_changes (points BIGINT PRIMARY KEY, n BIGINT NOT NULL)
        ON COMMIT DELETE ROWS;
    DELETE FROM rank_changes;
    INSERT INTO rank_changes (points, n)
    SELECT points, sum(n) FROM (
        SELECT points, -1 AS n FROM old_rows WHERE ranked = 1 AND points > 0
        UNION ALL
        SELECT points, 1 AS n FROM new_rows WHERE ranked = 1 AND points > 0
    ) changes GROUP BY points HAVING sum(n) <> 0;
    UPDATE rank_histogram h SET players = h.players + c.n
    FROM rank_changes c WHERE h.points = c.points;
    INSERT INTO rank_histogram (points, players)
    SELECT c.points, c.n FROM rank_changes c
    WHERE NOT EXISTS (SELECT 1 FROM rank_histogram h WHERE h.points = c.points);
    DELETE FROM rank_histogram h USING rank_changes c
    WHERE h.points = c.points AND h.players = 0;
    RETURN NULL;
END $$;
CREATE TRIGGER balances_rank_histogram AFTER UPDATE ON balances
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION rank_histogram();
