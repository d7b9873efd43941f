-- Schema 22 for PostgreSQL: the same change as ../0022_champion_roles.sql.

CREATE TABLE champion_roles (
    tournament_id  BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id        BIGINT NOT NULL,
    role_id        BIGINT NOT NULL,
    expires_at     TEXT NOT NULL,
    given          BOOLEAN NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
