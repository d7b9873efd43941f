-- Schema 20 for PostgreSQL: the same change as ../0020_event_message.sql.

ALTER TABLE tournaments ADD COLUMN message_id BIGINT;
