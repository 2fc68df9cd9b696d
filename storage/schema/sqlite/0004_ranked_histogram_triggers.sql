-- rank histogram triggers fire only for ranked balances (faster burns and sweeps)
DROP TRIGGER balances_rank_histogram;
CREATE TRIGGER balances_rank_histogram_out AFTER UPDATE OF points, ranked ON balances
WHEN OLD.ranked = 1 AND OLD.points > 0
     AND (OLD.points IS NOT NEW.points OR OLD.ranked IS NOT NEW.ranked)
BEGIN
    UPDATE rank_histogram SET players = players - 1 WHERE points = OLD.points;
    DELETE FROM rank_histogram WHERE points = OLD.points AND players = 0;
END;
CREATE TRIGGER balances_rank_histogram_in AFTER UPDATE OF points, ranked ON balances
WHEN NEW.ranked = 1 AND NEW.points > 0
     AND (OLD.points IS NOT NEW.points OR OLD.ranked IS NOT NEW.ranked)
BEGIN
    INSERT INTO rank_histogram (points, players) VALUES (NEW.points, 1)
    ON CONFLICT (points) DO UPDATE SET players = players + 1;
END;
