-- Schema 17 for PostgreSQL: the same change as ../0017_web_indexes.sql.

ALTER TABLE games ADD COLUMN deal_outcomes TEXT;

CREATE INDEX games_by_guild_newest ON games (guild_id, id);

CREATE INDEX tables_open_by_guild ON tables (guild_id, id) WHERE status IN ('lobby', 'playing');
