-- Schema 19 for PostgreSQL: the same change as ../0019_event_message.sql.

ALTER TABLE tournaments ADD COLUMN message_id BIGINT;
