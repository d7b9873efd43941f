-- Schema 25: tournament nights that run themselves.
--
-- The announcements an event made in its channel (the partner named, check-in opening,
-- the reminder before the start, each round's end), one row each once posted, so that
-- a restarted bot never posts one twice.
CREATE TABLE tournament_announcements (
    tournament_id  BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    announcement   TEXT NOT NULL,
    sent_at        TEXT NOT NULL,
    PRIMARY KEY (tournament_id, announcement)
);

-- The event's Discord scheduled event, and the status and start the bot last gave it
-- ('scheduled', 'active', 'completed', 'cancelled', or 'gone' once deleted by hand), so
-- that a restarted bot carries on with it where it stood.
ALTER TABLE tournaments ADD COLUMN scheduled_event_id BIGINT;
ALTER TABLE tournaments ADD COLUMN scheduled_event_status TEXT;
ALTER TABLE tournaments ADD COLUMN scheduled_event_start TEXT;

-- A late-comer to a running progressive event plays from this round (NULL: from the start).
ALTER TABLE tournament_entrants ADD COLUMN joined_in_round INTEGER;

-- Why a game was archived before its end ('stopped by the round timer'); NULL: it ended.
ALTER TABLE games ADD COLUMN stopped TEXT;

-- Who may direct tournament events besides the rules-admins (NULL: nobody more).
ALTER TABLE guild_settings ADD COLUMN tournament_director_role_id BIGINT;
