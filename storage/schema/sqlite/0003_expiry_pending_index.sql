-- index of players whose current absence has not been swept yet
CREATE INDEX players_expiry_pending ON players(last_game_date)
WHERE expired_for IS NOT last_game_date;
