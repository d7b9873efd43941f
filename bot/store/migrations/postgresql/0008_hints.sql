-- Schema 8 for PostgreSQL: the same change as ../0008_hints.sql.

ALTER TABLE guild_settings ADD COLUMN allow_hints BOOLEAN NOT NULL DEFAULT TRUE;

ALTER TABLE tables ADD COLUMN hinted BOOLEAN NOT NULL DEFAULT FALSE;
