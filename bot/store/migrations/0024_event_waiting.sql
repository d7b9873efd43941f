-- Schema 24: an event's waiting list. People who join an event that is full (its
-- settings' max_players) are kept as entrants marked waiting, in sign-up order; the
-- first moves up when a place opens before the start.

ALTER TABLE tournament_entrants ADD COLUMN waiting BOOLEAN NOT NULL DEFAULT FALSE;
