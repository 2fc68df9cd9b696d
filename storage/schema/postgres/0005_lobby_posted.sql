-- the lobbies open before 'lobby_posted' was logged had their post
-- A lobby's post is logged as 'lobby_posted' in the step that queues it; a lobby without one is
-- posted by the restore (its process died between the game's row and its post). Every lobby
-- open before the event existed had its post.
INSERT INTO game_events (game_id, seq, kind, payload, at)
SELECT g.id, coalesce((SELECT max(e.seq) FROM game_events e WHERE e.game_id = g.id), 0) + 1,
       'lobby_posted', '{}', NULL
FROM games g WHERE g.status = 'lobby';
