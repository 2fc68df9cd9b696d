-- the achievements' ids compared byte-wise
-- achievements.achievement and achievement_progress.achievement hold the catalogue's ids
-- (standing/achievements.py); a player's levels earned in one game are listed in id order.
-- In the "C" collation, as every other id and SQLite's text, so a database created with
-- another default collation (one that ignores '_') lists "win_streak" before "wins" as
-- SQLite does. The keys holding them are rebuilt with the columns.
ALTER TABLE achievement_progress ALTER COLUMN achievement TYPE TEXT COLLATE "C";
ALTER TABLE achievements ALTER COLUMN achievement TYPE TEXT COLLATE "C";
