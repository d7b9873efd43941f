-- Schema 6 for PostgreSQL (as ../0006_action_actors.sql).

ALTER TABLE table_actions ADD COLUMN actor TEXT;
