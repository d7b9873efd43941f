-- Schema 15: each person's accuracy in a finished game, from the review of their decisions
-- (bot.players.review): 100 for a decision the expert agrees with, 0 for one that loses a
-- point or more, averaged over the decisions the search valued.

CREATE TABLE game_accuracy (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL,
    seat         INTEGER NOT NULL CHECK (seat >= 0 AND seat < 8),
    accuracy     DOUBLE PRECISION NOT NULL CHECK (accuracy >= 0 AND accuracy <= 100),
    decisions    INTEGER NOT NULL CHECK (decisions >= 1),
    flagged      INTEGER NOT NULL CHECK (flagged >= 0 AND flagged <= decisions),
    points_lost  DOUBLE PRECISION NOT NULL CHECK (points_lost >= 0),
    reviewed_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX game_accuracy_by_player ON game_accuracy (user_id, game_id);
