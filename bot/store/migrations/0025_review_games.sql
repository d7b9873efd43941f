-- Schema 25: a person's wish to have each game they finish reviewed. Games are reviewed
-- (their accuracy kept for the league) only for people who turned it on, or who asked
-- for a review of one of the game's deals; nobody has it on to start with.

ALTER TABLE preferences ADD COLUMN review_games BOOLEAN NOT NULL DEFAULT FALSE;
