-- Schema 20: the live message of each tournament event, so that after a restart the bot
-- edits the same message instead of posting another. NULL: not known (yet).

ALTER TABLE tournaments ADD COLUMN message_id BIGINT;
