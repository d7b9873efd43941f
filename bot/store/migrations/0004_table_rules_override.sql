-- Schema 4: a table remembers whether its host changed the server's house rules for it
-- at /euchre new (such a table is casual for the league).

ALTER TABLE tables ADD COLUMN rules_overridden BOOLEAN NOT NULL DEFAULT FALSE;
