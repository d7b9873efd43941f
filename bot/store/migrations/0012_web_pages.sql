-- Schema 12: a server's public web pages (standings, players, finished games), off
-- until its admins turn them on.

ALTER TABLE guild_settings ADD COLUMN web_public BOOLEAN NOT NULL DEFAULT FALSE;
