-- Schema 5: absent players. A person's seat may be left "away" (a computer plays it
-- until they take it back); servers choose how many timed-out turns that takes and
-- whether members may take over a computer's seat during a game.

ALTER TABLE table_seats ADD COLUMN away BOOLEAN NOT NULL DEFAULT FALSE
    CHECK (NOT (away AND is_computer));

ALTER TABLE guild_settings ADD COLUMN timeouts_before_computer INTEGER NOT NULL DEFAULT 2
    CHECK (timeouts_before_computer BETWEEN 1 AND 20);

ALTER TABLE guild_settings ADD COLUMN allow_seat_takeover BOOLEAN NOT NULL DEFAULT TRUE;
