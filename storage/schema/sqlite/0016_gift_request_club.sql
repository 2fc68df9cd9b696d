-- the club where a gift request's gift is collected
-- NULL: a request made before the club was asked (any admin of the network hands it over)
ALTER TABLE gift_requests ADD COLUMN club_chat_id INTEGER REFERENCES clubs(chat_id);
