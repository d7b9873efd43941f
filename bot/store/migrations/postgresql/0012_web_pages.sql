-- Schema 12 for PostgreSQL: the same change as ../0012_web_pages.sql.

ALTER TABLE guild_settings ADD COLUMN web_public BOOLEAN NOT NULL DEFAULT FALSE;
