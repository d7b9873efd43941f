-- Schema 8: hints for learners. A server may let players of casual games ask for the
-- expert's advice (on unless turned off); a table remembers whether anyone did, which
-- keeps its game casual in the league.

ALTER TABLE guild_settings ADD COLUMN allow_hints BOOLEAN NOT NULL DEFAULT TRUE;

ALTER TABLE tables ADD COLUMN hinted BOOLEAN NOT NULL DEFAULT FALSE;
