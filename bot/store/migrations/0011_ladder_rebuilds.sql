-- Schema 11: ladders to rebuild. Schema 10 could not read the rules inside archived
-- records, so every rating it kept became four-hand euchre's, six-hand and Bid Euchre
-- games included. Each server that has ratings is marked here; the bot rebuilds its
-- ladders from the archive, classifying each rated game by its record's rules
-- (bot.league.rebuild), and deletes the server's row in the same transaction.

CREATE TABLE league_rebuilds (
    guild_id  BIGINT PRIMARY KEY
);

INSERT INTO league_rebuilds (guild_id) SELECT DISTINCT guild_id FROM league_ratings;
