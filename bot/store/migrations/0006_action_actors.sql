-- Schema 6: who made each action. A member may take over a computer's seat during a
-- game, so the seat's occupant now is not always who acted; the table names past
-- actions after whoever made them. A JSON object (name, user, level, away); NULL
-- where it was not noted (actions saved before this version).

ALTER TABLE table_actions ADD COLUMN actor TEXT;
