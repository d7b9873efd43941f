-- Schema 10: rating families. Four-hand euchre, six-hand euchre and Bid Euchre are
-- rated on ladders of their own, so ratings, rating points and frozen standings name
-- their family ('euchre4', 'euchre6', 'bid_euchre') and it is part of their keys.
-- Reading the archived record's JSON is not portable SQL, so existing rows become
-- 'euchre4' (re-rating a season from the archive recomputes each family's ladder).
-- SQLite can't change a primary key: each table is rebuilt, its rows copied, renamed.
-- PostgreSQL adds the column (last) and replaces the keys under the names it gave them.

-- [sqlite]
CREATE TABLE league_ratings_v10 (
    season_id     BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    family        TEXT NOT NULL,                  -- the ladder: euchre4, euchre6, bid_euchre
    guild_id      BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    display_name  TEXT NOT NULL,                  -- as in their latest rated game
    mu            DOUBLE PRECISION NOT NULL,
    sigma         DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    games         INTEGER NOT NULL CHECK (games >= 1),
    wins          INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    last_game_id  BIGINT NOT NULL,
    PRIMARY KEY (season_id, family, user_id)
);

INSERT INTO league_ratings_v10
    (season_id, family, guild_id, user_id, display_name, mu, sigma, games, wins, last_game_id)
SELECT season_id, 'euchre4', guild_id, user_id, display_name, mu, sigma, games, wins, last_game_id
FROM league_ratings;

DROP TABLE league_ratings;

ALTER TABLE league_ratings_v10 RENAME TO league_ratings;

CREATE INDEX league_ratings_by_player ON league_ratings (guild_id, user_id);
-- [postgresql]
ALTER TABLE league_ratings ADD COLUMN family TEXT NOT NULL DEFAULT 'euchre4';
ALTER TABLE league_ratings ALTER COLUMN family DROP DEFAULT;
ALTER TABLE league_ratings DROP CONSTRAINT league_ratings_pkey;
ALTER TABLE league_ratings ADD CONSTRAINT league_ratings_pkey PRIMARY KEY (season_id, family, user_id);
-- [end]

-- [sqlite]
CREATE TABLE league_rating_points_v10 (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL,
    season_id  BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    family     TEXT NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    PRIMARY KEY (game_id, user_id)
);

INSERT INTO league_rating_points_v10 (game_id, user_id, season_id, family, mu, sigma)
SELECT game_id, user_id, season_id, 'euchre4', mu, sigma FROM league_rating_points;

DROP TABLE league_rating_points;

ALTER TABLE league_rating_points_v10 RENAME TO league_rating_points;
-- [postgresql]
ALTER TABLE league_rating_points ADD COLUMN family TEXT NOT NULL DEFAULT 'euchre4';
ALTER TABLE league_rating_points ALTER COLUMN family DROP DEFAULT;
DROP INDEX league_rating_points_by_player;
-- [end]

CREATE INDEX league_rating_points_by_player
    ON league_rating_points (season_id, family, user_id, game_id);

-- [sqlite]
CREATE TABLE season_standings_v10 (
    season_id     BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    family        TEXT NOT NULL,
    user_id       BIGINT NOT NULL,
    place         INTEGER CHECK (place >= 1),     -- NULL: fewer ranked games than the minimum
    display_name  TEXT NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,      -- the conservative estimate shown
    mu            DOUBLE PRECISION NOT NULL,
    sigma         DOUBLE PRECISION NOT NULL,
    games         INTEGER NOT NULL CHECK (games >= 1),
    wins          INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (season_id, family, user_id),
    UNIQUE (season_id, family, place)
);

INSERT INTO season_standings_v10
    (season_id, family, user_id, place, display_name, rating, mu, sigma, games, wins)
SELECT season_id, 'euchre4', user_id, place, display_name, rating, mu, sigma, games, wins
FROM season_standings;

DROP TABLE season_standings;

ALTER TABLE season_standings_v10 RENAME TO season_standings;
-- [postgresql]
ALTER TABLE season_standings ADD COLUMN family TEXT NOT NULL DEFAULT 'euchre4';
ALTER TABLE season_standings ALTER COLUMN family DROP DEFAULT;
ALTER TABLE season_standings DROP CONSTRAINT season_standings_season_id_place_key;
ALTER TABLE season_standings DROP CONSTRAINT season_standings_pkey;
ALTER TABLE season_standings ADD CONSTRAINT season_standings_pkey PRIMARY KEY (season_id, family, user_id);
ALTER TABLE season_standings ADD CONSTRAINT season_standings_season_id_family_place_key
    UNIQUE (season_id, family, place);
-- [end]
