-- Schema 10 for PostgreSQL (as ../0010_rating_families.sql): ratings, rating points
-- and frozen standings name their family; existing rows become 'euchre4'.

ALTER TABLE league_ratings ADD COLUMN family TEXT NOT NULL DEFAULT 'euchre4';
ALTER TABLE league_ratings ALTER COLUMN family DROP DEFAULT;
ALTER TABLE league_ratings DROP CONSTRAINT league_ratings_pkey;
ALTER TABLE league_ratings ADD CONSTRAINT league_ratings_pkey PRIMARY KEY (season_id, family, user_id);

ALTER TABLE league_rating_points ADD COLUMN family TEXT NOT NULL DEFAULT 'euchre4';
ALTER TABLE league_rating_points ALTER COLUMN family DROP DEFAULT;
DROP INDEX league_rating_points_by_player;
CREATE INDEX league_rating_points_by_player
    ON league_rating_points (season_id, family, user_id, game_id);

ALTER TABLE season_standings ADD COLUMN family TEXT NOT NULL DEFAULT 'euchre4';
ALTER TABLE season_standings ALTER COLUMN family DROP DEFAULT;
ALTER TABLE season_standings DROP CONSTRAINT season_standings_season_id_place_key;
ALTER TABLE season_standings DROP CONSTRAINT season_standings_pkey;
ALTER TABLE season_standings ADD CONSTRAINT season_standings_pkey PRIMARY KEY (season_id, family, user_id);
ALTER TABLE season_standings ADD CONSTRAINT season_standings_season_id_family_place_key
    UNIQUE (season_id, family, place);
