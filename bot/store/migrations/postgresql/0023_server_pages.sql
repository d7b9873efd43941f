-- Schema 23 for PostgreSQL: the same change as ../0023_server_pages.sql.

CREATE TABLE guild_profiles (
    guild_id    BIGINT PRIMARY KEY,
    name        TEXT NOT NULL,
    icon_key    TEXT,
    icon        BYTEA,
    updated_at  TEXT NOT NULL
);

CREATE TABLE guild_counters (
    guild_id  BIGINT PRIMARY KEY,
    tables    BIGINT NOT NULL DEFAULT 0,
    games     BIGINT NOT NULL DEFAULT 0
);

ALTER TABLE games ADD COLUMN number BIGINT;
ALTER TABLE tables ADD COLUMN number BIGINT;

UPDATE games SET number = counted.number
FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY guild_id ORDER BY id) AS number FROM games)
    AS counted
WHERE games.id = counted.id;

UPDATE tables SET number = counted.number
FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY guild_id ORDER BY id) AS number FROM tables)
    AS counted
WHERE tables.id = counted.id;

INSERT INTO guild_counters (guild_id, tables, games)
SELECT guild_id, MAX(tables), MAX(games) FROM (
    SELECT guild_id, COUNT(*) AS tables, 0 AS games FROM tables GROUP BY guild_id
    UNION ALL
    SELECT guild_id, 0 AS tables, COUNT(*) AS games FROM games GROUP BY guild_id
) AS counts
GROUP BY guild_id;

CREATE UNIQUE INDEX games_number_by_guild ON games (guild_id, number);
CREATE UNIQUE INDEX tables_number_by_guild ON tables (guild_id, number);

-- A ladder ranked in the store: its leaders, and the players ahead of one, read in the
-- order of the conservative rating at the usual z (3), not by sorting the whole ladder.
CREATE INDEX league_ratings_ranked
    ON league_ratings (season_id, family, (mu - 3.0 * sigma) DESC, games DESC, wins DESC, user_id);
