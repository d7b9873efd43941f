-- Schema 16 for PostgreSQL: the same change as ../0016_ping_after.sql.

ALTER TABLE guild_settings ADD COLUMN ping_after DOUBLE PRECISION;

UPDATE guild_settings SET ping_after = CASE WHEN mention_on_turn THEN 8 ELSE NULL END;

ALTER TABLE guild_settings DROP COLUMN mention_on_turn;
