-- Schema 1: server settings, tables in progress (stored as their game record)
-- and the archive of finished games.
--
-- Conventions, kept portable (SQLite now, PostgreSQL later):
--   * Discord ids are INTEGER (signed 64-bit; snowflakes stay below 2^63).
--   * JSON documents are TEXT holding compact JSON, validated by the code that reads them.
--   * Times are TEXT in ISO 8601 with a UTC offset, written by the bot, never by SQL.
--   * BOOLEAN columns hold TRUE/FALSE.

-- One row per server that changed anything; a server without a row uses the defaults.
CREATE TABLE guild_settings (
    guild_id                 INTEGER PRIMARY KEY,
    rules                    TEXT NOT NULL,     -- HouseRules.to_spec(): {"preset": ..., overrides}
    tables_in_threads        BOOLEAN NOT NULL,
    turn_time_limit_seconds  INTEGER,           -- NULL: no time limit
    allow_computers          BOOLEAN NOT NULL,
    host_may_override_rules  BOOLEAN NOT NULL,
    mention_on_turn          BOOLEAN NOT NULL,
    computer_move_delay      REAL,              -- NULL: the bot's configured default
    rules_admin_role_id      INTEGER,           -- NULL: Manage Server permission only
    computer_default_level   TEXT NOT NULL CHECK (computer_default_level IN ('basic', 'expert')),
    created_at               TEXT NOT NULL,
    updated_at               TEXT NOT NULL
);

-- A table from its lobby to its end. AUTOINCREMENT: ids are never reused, so a
-- stale button carrying an old table id can never reach a newer table.
CREATE TABLE tables (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,                      -- the table's own thread, if it has one
    message_id    INTEGER,                      -- the public table message
    host_id       INTEGER NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'aborted')),
    rules         TEXT NOT NULL,                -- HouseRules.to_spec(), copied when the table opens
    seed          INTEGER NOT NULL,
    first_dealer  INTEGER,                      -- NULL: chosen by the rules from the seed
    deals         TEXT,                         -- record-format "deals" (JSON list); NULL: seeded
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    finished_at   TEXT,
    CHECK ((status IN ('finished', 'aborted')) = (finished_at IS NOT NULL))
);

-- At most one open table per channel, or per thread when tables live in threads.
CREATE UNIQUE INDEX tables_one_open_per_place
    ON tables (channel_id, COALESCE(thread_id, 0))
    WHERE status IN ('lobby', 'playing');

CREATE INDEX tables_by_status ON tables (status, id);
CREATE INDEX tables_by_guild ON tables (guild_id, id);

-- Taken seats (an empty seat has no row).
CREATE TABLE table_seats (
    table_id        INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat >= 0 AND seat < 6),
    user_id         INTEGER,
    is_computer     BOOLEAN NOT NULL,
    computer_level  TEXT CHECK (computer_level IN ('basic', 'expert')),
    display_name    TEXT NOT NULL,
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, user_id),
    CHECK (CASE WHEN is_computer THEN user_id IS NULL AND computer_level IS NOT NULL
                ELSE user_id IS NOT NULL AND computer_level IS NULL END)
);

CREATE INDEX table_seats_by_user ON table_seats (user_id);

-- A table's actions in order: the "actions" of its game record. The primary key
-- keeps an action from ever being stored twice.
CREATE TABLE table_actions (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL CHECK (idx >= 0),
    seat        INTEGER NOT NULL CHECK (seat >= 0 AND seat < 6),
    action      TEXT NOT NULL,                  -- record-format action object, with "seat"
    created_at  TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);

-- Finished games, for the league: the record is the truth, the other columns
-- are derived from it for queries.
CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    table_id     INTEGER UNIQUE REFERENCES tables (id) ON DELETE SET NULL,
    record       TEXT NOT NULL,
    ranked       BOOLEAN NOT NULL,
    winner       INTEGER CHECK (winner IN (0, 1)),  -- NULL: a tie (fixed number of deals)
    score_0      INTEGER NOT NULL,
    score_1      INTEGER NOT NULL,
    started_at   TEXT,
    finished_at  TEXT NOT NULL
);

CREATE INDEX games_by_guild ON games (guild_id, finished_at);

CREATE TABLE game_players (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat >= 0 AND seat < 6),
    team            INTEGER NOT NULL CHECK (team IN (0, 1)),
    user_id         INTEGER,
    is_computer     BOOLEAN NOT NULL,
    computer_level  TEXT CHECK (computer_level IN ('basic', 'expert')),
    display_name    TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK (is_computer OR user_id IS NOT NULL)
);

CREATE INDEX game_players_by_user ON game_players (user_id, game_id);
