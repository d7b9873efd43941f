-- Schema 7: a third computer level, 'beginner', for server defaults, seats and the archive.
--
-- The three tables that name the levels get a wider CHECK. SQLite cannot change a
-- CHECK constraint in place, so it rebuilds each: create the new shape, copy the rows,
-- drop the old, rename (nothing references these tables). PostgreSQL drops the CHECK
-- by the name it gave it and adds the wider one under the same name.

-- [sqlite]
CREATE TABLE guild_settings_new (
    guild_id                 BIGINT PRIMARY KEY,
    rules                    TEXT NOT NULL,
    tables_in_threads        BOOLEAN NOT NULL,
    turn_time_limit_seconds  INTEGER,
    allow_computers          BOOLEAN NOT NULL,
    host_may_override_rules  BOOLEAN NOT NULL,
    mention_on_turn          BOOLEAN NOT NULL,
    computer_move_delay      DOUBLE PRECISION,
    rules_admin_role_id      BIGINT,
    computer_default_level   TEXT NOT NULL
        CHECK (computer_default_level IN ('beginner', 'basic', 'expert')),
    created_at               TEXT NOT NULL,
    updated_at               TEXT NOT NULL,
    timeouts_before_computer INTEGER NOT NULL DEFAULT 2
        CHECK (timeouts_before_computer BETWEEN 1 AND 20),
    allow_seat_takeover      BOOLEAN NOT NULL DEFAULT TRUE
);

INSERT INTO guild_settings_new (
    guild_id, rules, tables_in_threads, turn_time_limit_seconds, allow_computers,
    host_may_override_rules, mention_on_turn, computer_move_delay, rules_admin_role_id,
    computer_default_level, created_at, updated_at, timeouts_before_computer,
    allow_seat_takeover
)
SELECT
    guild_id, rules, tables_in_threads, turn_time_limit_seconds, allow_computers,
    host_may_override_rules, mention_on_turn, computer_move_delay, rules_admin_role_id,
    computer_default_level, created_at, updated_at, timeouts_before_computer,
    allow_seat_takeover
FROM guild_settings;

DROP TABLE guild_settings;

ALTER TABLE guild_settings_new RENAME TO guild_settings;
-- [postgresql]
ALTER TABLE guild_settings DROP CONSTRAINT guild_settings_computer_default_level_check;

ALTER TABLE guild_settings ADD CONSTRAINT guild_settings_computer_default_level_check
    CHECK (computer_default_level IN ('beginner', 'basic', 'expert'));
-- [end]

-- [sqlite]
CREATE TABLE table_seats_new (
    table_id        BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat >= 0 AND seat < 6),
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

INSERT INTO table_seats_new (
    table_id, seat, user_id, is_computer, computer_level, display_name, away
)
SELECT table_id, seat, user_id, is_computer, computer_level, display_name, away
FROM table_seats;

DROP TABLE table_seats;

ALTER TABLE table_seats_new RENAME TO table_seats;

CREATE INDEX table_seats_by_user ON table_seats (user_id);
-- [postgresql]
ALTER TABLE table_seats DROP CONSTRAINT table_seats_computer_level_check;

ALTER TABLE table_seats ADD CONSTRAINT table_seats_computer_level_check
    CHECK (computer_level IN ('beginner', 'basic', 'expert'));
-- [end]

-- [sqlite]
CREATE TABLE game_players_new (
    game_id         BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat >= 0 AND seat < 6),
    team            INTEGER NOT NULL CHECK (team IN (0, 1)),
    user_id         BIGINT,
    is_computer     BOOLEAN NOT NULL,
    computer_level  TEXT CHECK (computer_level IN ('beginner', 'basic', 'expert')),
    display_name    TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK (is_computer OR user_id IS NOT NULL)
);

INSERT INTO game_players_new (
    game_id, seat, team, user_id, is_computer, computer_level, display_name
)
SELECT game_id, seat, team, user_id, is_computer, computer_level, display_name
FROM game_players;

DROP TABLE game_players;

ALTER TABLE game_players_new RENAME TO game_players;

CREATE INDEX game_players_by_user ON game_players (user_id, game_id);
-- [postgresql]
ALTER TABLE game_players DROP CONSTRAINT game_players_computer_level_check;

ALTER TABLE game_players ADD CONSTRAINT game_players_computer_level_check
    CHECK (computer_level IN ('beginner', 'basic', 'expert'));
-- [end]
