-- the club where a gift request's gift is collected
ALTER TABLE gift_requests ADD COLUMN club_chat_id BIGINT REFERENCES clubs(chat_id);
