-- Schema 16: a turn mentions its player only after they have not moved for a while.
-- ping_after (seconds into a turn; 0: at once; NULL: off) replaces mention_on_turn: a
-- server that mentioned players waits the default 8 seconds now, one that did not
-- mentions nobody still.

ALTER TABLE guild_settings ADD COLUMN ping_after DOUBLE PRECISION;

UPDATE guild_settings SET ping_after = CASE WHEN mention_on_turn THEN 8 ELSE NULL END;

ALTER TABLE guild_settings DROP COLUMN mention_on_turn;
