-- Schema 11 for PostgreSQL (as ../0011_ladder_rebuilds.sql): servers whose ladders the
-- bot rebuilds from the archive, each family on its own.

CREATE TABLE league_rebuilds (
    guild_id  BIGINT PRIMARY KEY
);

INSERT INTO league_rebuilds (guild_id) SELECT DISTINCT guild_id FROM league_ratings;
