-- Schema 22: the champion role each champion of an event holds for a set time. A row
-- is written when the event finishes (in the same transaction), marked given once the
-- bot gave the role, and deleted when the role is taken back at its expiry, so that a
-- restarted bot gives what it had not given yet and takes back what fell due.

CREATE TABLE champion_roles (
    tournament_id  BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id        BIGINT NOT NULL,
    role_id        BIGINT NOT NULL,
    expires_at     TEXT NOT NULL,
    given          BOOLEAN NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
