-- Schema 23 for PostgreSQL: the same change as ../0023_event_waiting.sql.

ALTER TABLE tournament_entrants ADD COLUMN waiting BOOLEAN NOT NULL DEFAULT FALSE;
