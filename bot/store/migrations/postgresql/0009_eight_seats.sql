-- Schema 9 for PostgreSQL (as ../0009_eight_seats.sql): seat numbers run 0 to 7.

ALTER TABLE table_seats DROP CONSTRAINT table_seats_seat_check;
ALTER TABLE table_seats ADD CONSTRAINT table_seats_seat_check CHECK (seat >= 0 AND seat < 8);

ALTER TABLE table_actions DROP CONSTRAINT table_actions_seat_check;
ALTER TABLE table_actions ADD CONSTRAINT table_actions_seat_check CHECK (seat >= 0 AND seat < 8);

ALTER TABLE game_players DROP CONSTRAINT game_players_seat_check;
ALTER TABLE game_players ADD CONSTRAINT game_players_seat_check CHECK (seat >= 0 AND seat < 8);
