-- Schema 21: whether anyone may ask to see every hand of a casual game's deal once it
-- has ended (on by default).

ALTER TABLE guild_settings ADD COLUMN watchers_see_hands BOOLEAN NOT NULL DEFAULT TRUE;
