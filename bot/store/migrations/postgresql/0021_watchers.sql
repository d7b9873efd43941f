-- Schema 21 for PostgreSQL: the same change as ../0021_watchers.sql.

ALTER TABLE guild_settings ADD COLUMN watchers_see_hands BOOLEAN NOT NULL DEFAULT TRUE;
