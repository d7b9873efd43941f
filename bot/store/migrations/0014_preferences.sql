-- Schema 14: each person's preferences, kept by their user id across every server. A
-- person with no row has the defaults; one column per preference, named as the fields
-- of bot.server.preferences.Preferences.

CREATE TABLE preferences (
    user_id           BIGINT PRIMARY KEY,
    pings             TEXT NOT NULL CHECK (pings IN ('always', 'when_away', 'never')),
    play_forced_card  BOOLEAN NOT NULL,
    four_colour       BOOLEAN NOT NULL,
    hide_from_web     BOOLEAN NOT NULL,
    updated_at        TEXT NOT NULL
);

-- The web pages ask which of a page's players hide from them.
CREATE INDEX preferences_hidden ON preferences (user_id) WHERE hide_from_web;
