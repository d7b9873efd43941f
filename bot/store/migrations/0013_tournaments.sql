-- Schema 13: tournament nights. An event (progressive or pairs) with its entrants, its
-- rounds, the tables of each round and their results. The bot saves the whole event
-- after every change, in one transaction, so that it resumes where it was after a restart.

CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    director_id  INTEGER NOT NULL,
    name         TEXT NOT NULL,
    settings     TEXT NOT NULL,                 -- EventSettings as JSON
    seed         INTEGER NOT NULL,
    phase        TEXT NOT NULL CHECK (phase IN ('signup', 'checkin', 'playing',
                                                'between_rounds', 'finished', 'cancelled')),
    paused       BOOLEAN NOT NULL,
    schedule     TEXT,                          -- progressive: the rotation (JSON), from the start
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);

-- A channel holds one event at a time until it has finished or was cancelled.
CREATE UNIQUE INDEX tournaments_one_open_per_channel
    ON tournaments (channel_id)
    WHERE phase IN ('signup', 'checkin', 'playing', 'between_rounds');
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, id);

CREATE TABLE tournament_entrants (
    tournament_id      INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number             INTEGER NOT NULL CHECK (number >= 0),
    user_id            INTEGER,                 -- NULL: a computer
    display_name       TEXT NOT NULL,
    partner_id         INTEGER,                 -- pairs: the partner named at sign-up
    confirmed          BOOLEAN NOT NULL,
    checked_in         BOOLEAN NOT NULL,
    slot               INTEGER,                 -- from the start: schedule number, or pair
    replaced_in_round  INTEGER,                 -- a computer plays on from this round
    PRIMARY KEY (tournament_id, number),
    UNIQUE (tournament_id, user_id)
);

CREATE TABLE tournament_rounds (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number          INTEGER NOT NULL CHECK (number >= 1),
    bye             INTEGER,                    -- pairs: the pair sitting out
    started_at      TEXT NOT NULL,
    ended_at        TEXT,
    ended_by_timer  BOOLEAN NOT NULL,
    PRIMARY KEY (tournament_id, number)
);

CREATE TABLE tournament_tables (
    tournament_id  INTEGER NOT NULL,
    round          INTEGER NOT NULL,
    number         INTEGER NOT NULL CHECK (number >= 1),
    seat_0         INTEGER NOT NULL,            -- entrant numbers: 0 and 2 against 1 and 3
    seat_1         INTEGER NOT NULL,
    seat_2         INTEGER NOT NULL,
    seat_3         INTEGER NOT NULL,
    table_id       INTEGER REFERENCES tables (id),   -- the bot's table, once opened
    PRIMARY KEY (tournament_id, round, number),
    FOREIGN KEY (tournament_id, round)
        REFERENCES tournament_rounds (tournament_id, number) ON DELETE CASCADE
);

CREATE TABLE tournament_results (
    tournament_id  INTEGER NOT NULL,
    round          INTEGER NOT NULL,
    table_number   INTEGER NOT NULL,
    deals          TEXT NOT NULL,               -- JSON [[points 0&2, points 1&3], ...]
    finished       BOOLEAN NOT NULL,
    PRIMARY KEY (tournament_id, round, table_number),
    FOREIGN KEY (tournament_id, round, table_number)
        REFERENCES tournament_tables (tournament_id, round, number) ON DELETE CASCADE
);
