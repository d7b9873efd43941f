-- Schema 28: tournament events numbered per server (its 1st, 2nd... event), as its tables
-- and games are (schema 23): from the server's counter, taken in the transaction that
-- writes the event; the events already there are numbered in the order they were made.
ALTER TABLE guild_counters ADD COLUMN events BIGINT NOT NULL DEFAULT 0;

ALTER TABLE tournaments ADD COLUMN number BIGINT;

UPDATE tournaments SET number = counted.number
FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY guild_id ORDER BY id) AS number FROM tournaments)
    AS counted
WHERE tournaments.id = counted.id;

INSERT INTO guild_counters (guild_id, events)
SELECT guild_id, COUNT(*) FROM tournaments WHERE TRUE GROUP BY guild_id
ON CONFLICT (guild_id) DO UPDATE SET events = excluded.events;

CREATE UNIQUE INDEX tournaments_number_by_guild ON tournaments (guild_id, number);
