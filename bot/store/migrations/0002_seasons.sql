-- Schema 2: league seasons. A ranked game may belong to one season of its server.

CREATE TABLE seasons (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    name        TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    ended_at    TEXT                            -- NULL: the season is running
);

-- A server runs at most one season at a time.
CREATE UNIQUE INDEX seasons_one_running ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE INDEX seasons_by_guild ON seasons (guild_id, id);

ALTER TABLE games ADD COLUMN season_id INTEGER REFERENCES seasons (id);

CREATE INDEX games_by_season ON games (season_id);
