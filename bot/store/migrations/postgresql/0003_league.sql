-- Schema 3 for PostgreSQL: the league (as ../0003_league.sql).

ALTER TABLE seasons ADD COLUMN open_ended BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seasons ADD COLUMN rating_model TEXT;
ALTER TABLE seasons ADD COLUMN min_games INTEGER CHECK (min_games >= 0);

CREATE UNIQUE INDEX seasons_unique_name ON seasons (guild_id, lower(name));

CREATE INDEX games_by_guild_season ON games (guild_id, season_id, id);

CREATE TABLE league_settings (
    guild_id           BIGINT PRIMARY KEY,
    min_games          INTEGER NOT NULL CHECK (min_games >= 0),
    all_casual         BOOLEAN NOT NULL,
    rank_custom_rules  BOOLEAN NOT NULL,
    updated_at         TEXT NOT NULL
);

CREATE TABLE league_ratings (
    season_id     BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    guild_id      BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    display_name  TEXT NOT NULL,
    mu            DOUBLE PRECISION NOT NULL,
    sigma         DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    games         INTEGER NOT NULL CHECK (games >= 1),
    wins          INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    last_game_id  BIGINT NOT NULL,
    PRIMARY KEY (season_id, user_id)
);

CREATE INDEX league_ratings_by_player ON league_ratings (guild_id, user_id);

CREATE TABLE league_rating_points (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL,
    season_id  BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX league_rating_points_by_player ON league_rating_points (season_id, user_id, game_id);

CREATE TABLE season_standings (
    season_id     BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL,
    place         INTEGER CHECK (place >= 1),
    display_name  TEXT NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,
    mu            DOUBLE PRECISION NOT NULL,
    sigma         DOUBLE PRECISION NOT NULL,
    games         INTEGER NOT NULL CHECK (games >= 1),
    wins          INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (season_id, user_id),
    UNIQUE (season_id, place)
);
