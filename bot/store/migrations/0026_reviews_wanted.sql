-- Schema 26: reviews where they are wanted. A person's wish to have each game they finish
-- reviewed (nobody has it on to start with); the other reviews are those people ask for,
-- deal by deal. Each reviewed deal is kept, with the sums its accuracy was made of
-- (score_total: the decisions' scores before the average is kept within 0 to 100;
-- lost_total: their points lost, gains included), and a game's accuracy (game_accuracy)
-- is made of its deals reviewed so far the same way: the league's figures are the
-- reviews that were actually made.

ALTER TABLE preferences ADD COLUMN review_games BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE deal_accuracy (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL,
    deal         INTEGER NOT NULL CHECK (deal >= 1),
    seat         INTEGER NOT NULL CHECK (seat >= 0 AND seat < 8),
    accuracy     DOUBLE PRECISION NOT NULL CHECK (accuracy >= 0 AND accuracy <= 100),
    decisions    INTEGER NOT NULL CHECK (decisions >= 1),
    flagged      INTEGER NOT NULL CHECK (flagged >= 0 AND flagged <= decisions),
    points_lost  DOUBLE PRECISION NOT NULL CHECK (points_lost >= 0),
    score_total  DOUBLE PRECISION NOT NULL,
    lost_total   DOUBLE PRECISION NOT NULL,
    reviewed_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id, deal)
);
