-- Schema 3: the league. Each server's league settings, the ratings of each season,
-- every player's rating after each rated game, and the frozen standings of ended
-- seasons. An archived game is taken into the league by setting its season_id
-- (its ranked column then holds the league's decision); games with no season are
-- waiting to be taken in, in archive order.

-- A season the bot opened by itself (no season command used, or between seasons).
ALTER TABLE seasons ADD COLUMN open_ended BOOLEAN NOT NULL DEFAULT FALSE;
-- The rating model the season is rated with (JSON: model name and parameters).
ALTER TABLE seasons ADD COLUMN rating_model TEXT;
-- The minimum of ranked games the frozen standings were placed with (set when it ends).
ALTER TABLE seasons ADD COLUMN min_games INTEGER CHECK (min_games >= 0);

CREATE UNIQUE INDEX seasons_unique_name ON seasons (guild_id, lower(name));

CREATE INDEX games_by_guild_season ON games (guild_id, season_id, id);

-- One row per server that changed a league setting; the others use the defaults.
CREATE TABLE league_settings (
    guild_id           BIGINT PRIMARY KEY,
    min_games          INTEGER NOT NULL CHECK (min_games >= 0),
    all_casual         BOOLEAN NOT NULL,   -- no game of the server is rated
    rank_custom_rules  BOOLEAN NOT NULL,   -- games under other rules than the server's are rated too
    updated_at         TEXT NOT NULL
);

-- Every rated player's current rating in a season (the latest of their points).
CREATE TABLE league_ratings (
    season_id     BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    guild_id      BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    display_name  TEXT NOT NULL,                  -- as in their latest rated game
    mu            DOUBLE PRECISION NOT NULL,
    sigma         DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    games         INTEGER NOT NULL CHECK (games >= 1),
    wins          INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    last_game_id  BIGINT NOT NULL,
    PRIMARY KEY (season_id, user_id)
);

CREATE INDEX league_ratings_by_player ON league_ratings (guild_id, user_id);

-- A player's rating after each rated game: the rating-over-time picture.
CREATE TABLE league_rating_points (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL,
    season_id  BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX league_rating_points_by_player ON league_rating_points (season_id, user_id, game_id);

-- The standings of an ended season as they were when it ended.
CREATE TABLE season_standings (
    season_id     BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL,
    place         INTEGER CHECK (place >= 1),     -- NULL: fewer ranked games than the minimum
    display_name  TEXT NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,      -- the conservative estimate shown
    mu            DOUBLE PRECISION NOT NULL,
    sigma         DOUBLE PRECISION NOT NULL,
    games         INTEGER NOT NULL CHECK (games >= 1),
    wins          INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (season_id, user_id),
    UNIQUE (season_id, place)
);
