-- Schema 18: the daily deal of each server.
-- daily_hour: the hour (UTC) at which a server's day turns over. daily_par: the expert's
-- result on the day's deal from the day's seat, computed once. daily_results: one row a
-- person and day, made when they start (so a second try is refused, whichever process
-- answers); ``actions`` is their play so far, ``points`` is set once the deal ends.

ALTER TABLE guild_settings ADD COLUMN daily_hour INTEGER NOT NULL DEFAULT 0;

CREATE TABLE daily_par (
    guild_id     BIGINT NOT NULL,
    day          TEXT NOT NULL,
    par          INTEGER NOT NULL,
    PRIMARY KEY (guild_id, day)
);

CREATE TABLE daily_results (
    guild_id     BIGINT NOT NULL,
    day          TEXT NOT NULL,
    user_id      BIGINT NOT NULL,
    display_name TEXT NOT NULL,
    actions      TEXT NOT NULL,
    points       INTEGER,
    par          INTEGER,
    started_at   TEXT NOT NULL,
    PRIMARY KEY (guild_id, day, user_id)
);

CREATE INDEX daily_results_by_player ON daily_results (guild_id, user_id, day);
