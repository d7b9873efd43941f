-- Schema 7 for PostgreSQL: the same change as ../0007_beginner_level.sql, a third
-- computer level 'beginner'. PostgreSQL changes a CHECK in place: drop it by the name it
-- gave it and add the wider one under the same name.

ALTER TABLE guild_settings DROP CONSTRAINT guild_settings_computer_default_level_check;

ALTER TABLE guild_settings ADD CONSTRAINT guild_settings_computer_default_level_check
    CHECK (computer_default_level IN ('beginner', 'basic', 'expert'));

ALTER TABLE table_seats DROP CONSTRAINT table_seats_computer_level_check;

ALTER TABLE table_seats ADD CONSTRAINT table_seats_computer_level_check
    CHECK (computer_level IN ('beginner', 'basic', 'expert'));

ALTER TABLE game_players DROP CONSTRAINT game_players_computer_level_check;

ALTER TABLE game_players ADD CONSTRAINT game_players_computer_level_check
    CHECK (computer_level IN ('beginner', 'basic', 'expert'));
