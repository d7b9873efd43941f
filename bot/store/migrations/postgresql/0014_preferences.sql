-- Schema 14 for PostgreSQL: the same change as ../0014_preferences.sql.

CREATE TABLE preferences (
    user_id           BIGINT PRIMARY KEY,
    pings             TEXT NOT NULL CHECK (pings IN ('always', 'when_away', 'never')),
    play_forced_card  BOOLEAN NOT NULL,
    four_colour       BOOLEAN NOT NULL,
    hide_from_web     BOOLEAN NOT NULL,
    updated_at        TEXT NOT NULL
);

CREATE INDEX preferences_hidden ON preferences (user_id) WHERE hide_from_web;
