-- Schema 23: what a server's web pages show of it, numbers that count per server, and
-- its ladders ranked by an index.
--
-- A server's name and icon as Discord last showed them to the bot (it writes them when
-- it joins a server, at start-up and when the server changes): the pages' titles and
-- link previews name the server. The icon is kept as a small PNG, so the pages never
-- fetch anything from Discord; NULL until the bot fetched the one ``icon_key`` names.
CREATE TABLE guild_profiles (
    guild_id    BIGINT PRIMARY KEY,
    name        TEXT NOT NULL,
    icon_key    TEXT,
-- [sqlite]
    icon        BLOB,
-- [postgresql]
    icon        BYTEA,
-- [end]
    updated_at  TEXT NOT NULL
);

-- Tables and finished games numbered per server (its 1st, 2nd... game), from a counter
-- per server taken in the transaction that writes the row; the rows already there are
-- numbered in the order they were made.
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
