-- Schema 9: eight seats. Bid Euchre seats eight players (two packs), so a seat number
-- runs 0 to 7 in table seats, table actions and archived games' players. SQLite can't
-- change a CHECK in place: each table is rebuilt with the same columns, its rows
-- copied, then renamed (nothing references these tables, so no key breaks).
-- PostgreSQL replaces the CHECK under the name it gave it.

-- [sqlite]
CREATE TABLE table_seats_v9 (
    table_id        BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat >= 0 AND seat < 8),
    user_id         BIGINT,
    is_computer     BOOLEAN NOT NULL,
    computer_level  TEXT CHECK (computer_level IN ('beginner', 'basic', 'expert')),
    display_name    TEXT NOT NULL,
    away            BOOLEAN NOT NULL DEFAULT FALSE CHECK (NOT (away AND is_computer)),
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, user_id),
    CHECK (CASE WHEN is_computer THEN user_id IS NULL AND computer_level IS NOT NULL
                ELSE user_id IS NOT NULL AND computer_level IS NULL END)
);

INSERT INTO table_seats_v9
    (table_id, seat, user_id, is_computer, computer_level, display_name, away)
SELECT table_id, seat, user_id, is_computer, computer_level, display_name, away
FROM table_seats;

DROP TABLE table_seats;

ALTER TABLE table_seats_v9 RENAME TO table_seats;

CREATE INDEX table_seats_by_user ON table_seats (user_id);

CREATE TABLE table_actions_v9 (
    table_id    BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL CHECK (idx >= 0),
    seat        INTEGER NOT NULL CHECK (seat >= 0 AND seat < 8),
    action      TEXT NOT NULL,                  -- record-format action object, with "seat"
    created_at  TEXT NOT NULL,
    actor       TEXT,
    PRIMARY KEY (table_id, idx)
);

INSERT INTO table_actions_v9 (table_id, idx, seat, action, created_at, actor)
SELECT table_id, idx, seat, action, created_at, actor FROM table_actions;

DROP TABLE table_actions;

ALTER TABLE table_actions_v9 RENAME TO table_actions;

CREATE TABLE game_players_v9 (
    game_id         BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat >= 0 AND seat < 8),
    team            INTEGER NOT NULL CHECK (team IN (0, 1)),
    user_id         BIGINT,
    is_computer     BOOLEAN NOT NULL,
    computer_level  TEXT CHECK (computer_level IN ('beginner', 'basic', 'expert')),
    display_name    TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK (is_computer OR user_id IS NOT NULL)
);

INSERT INTO game_players_v9
    (game_id, seat, team, user_id, is_computer, computer_level, display_name)
SELECT game_id, seat, team, user_id, is_computer, computer_level, display_name
FROM game_players;

DROP TABLE game_players;

ALTER TABLE game_players_v9 RENAME TO game_players;

CREATE INDEX game_players_by_user ON game_players (user_id, game_id);
-- [postgresql]
ALTER TABLE table_seats DROP CONSTRAINT table_seats_seat_check;
ALTER TABLE table_seats ADD CONSTRAINT table_seats_seat_check CHECK (seat >= 0 AND seat < 8);

ALTER TABLE table_actions DROP CONSTRAINT table_actions_seat_check;
ALTER TABLE table_actions ADD CONSTRAINT table_actions_seat_check CHECK (seat >= 0 AND seat < 8);

ALTER TABLE game_players DROP CONSTRAINT game_players_seat_check;
ALTER TABLE game_players ADD CONSTRAINT game_players_seat_check CHECK (seat >= 0 AND seat < 8);
-- [end]
