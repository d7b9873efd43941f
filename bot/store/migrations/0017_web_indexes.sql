-- Schema 17: what the web pages read, read fast.
--
-- What each archived game's deals came to (makers, loners, tricks, points), taken from
-- the same replay that checks the record when the game is archived, so that a player's
-- statistics are read without replaying every game of theirs. NULL for the games
-- archived before: their records are replayed when they are read.
ALTER TABLE games ADD COLUMN deal_outcomes TEXT;

-- A server's latest games (newest first, a few at a time) without sorting all of them.
CREATE INDEX games_by_guild_newest ON games (guild_id, id);

-- A server's open tables (its page shows them), found among its finished ones.
CREATE INDEX tables_open_by_guild ON tables (guild_id, id) WHERE status IN ('lobby', 'playing');
