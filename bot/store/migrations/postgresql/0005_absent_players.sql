-- Schema 5 for PostgreSQL (as ../0005_absent_players.sql).

ALTER TABLE table_seats ADD COLUMN away BOOLEAN NOT NULL DEFAULT FALSE
    CHECK (NOT (away AND is_computer));

ALTER TABLE guild_settings ADD COLUMN timeouts_before_computer INTEGER NOT NULL DEFAULT 2
    CHECK (timeouts_before_computer BETWEEN 1 AND 20);

ALTER TABLE guild_settings ADD COLUMN allow_seat_takeover BOOLEAN NOT NULL DEFAULT TRUE;
