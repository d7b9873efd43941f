-- Schema 4 for PostgreSQL (as ../0004_table_rules_override.sql).

ALTER TABLE tables ADD COLUMN rules_overridden BOOLEAN NOT NULL DEFAULT FALSE;
