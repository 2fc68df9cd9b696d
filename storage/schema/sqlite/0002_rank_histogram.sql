-- rank histogram: ranked players per points value, for O(distinct points) ranks
-- players_at(points) = ranked players (nickname, not blocked) holding exactly that many
-- points (> 0). rank = 1 + sum(players) above one's points; kept by a trigger on balances.
CREATE TABLE rank_histogram (
    points  INTEGER PRIMARY KEY CHECK (points > 0),
    players INTEGER NOT NULL CHECK (players >= 0)
);
INSERT INTO rank_histogram (points, players)
SELECT points, count(*) FROM balances WHERE ranked = 1 AND points > 0 GROUP BY points;
CREATE TRIGGER balances_rank_histogram AFTER UPDATE OF points, ranked ON balances
WHEN OLD.points IS NOT NEW.points OR OLD.ranked IS NOT NEW.ranked
BEGIN
    UPDATE rank_histogram SET players = players - 1
    WHERE OLD.ranked = 1 AND OLD.points > 0 AND points = OLD.points;
    DELETE FROM rank_histogram WHERE points = OLD.points AND players = 0;
    INSERT INTO rank_histogram (points, players)
    SELECT NEW.points, 1 WHERE NEW.ranked = 1 AND NEW.points > 0
    ON CONFLICT (points) DO UPDATE SET players = players + 1;
END;
