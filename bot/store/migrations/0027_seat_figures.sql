-- Schema 27: what each seat of an archived game came to, for a player's page; and the
-- ladders' sizes counted from an index, for the server page.
--
-- Counted from the game's deal outcomes (schema 17) when the game is archived, for every
-- seat: marches, euchres made and suffered, loners tried and made, lone defences and
-- those of them that euchred the makers (bot/store/figures.py says what each one
-- counts). A player's statistics are then sums of their rows, not a decoding of every
-- game's deals. The games already archived with deal outcomes get their rows here; a
-- game archived before schema 17 has none, and its record is replayed when it is read.
CREATE TABLE seat_figures (
    game_id              BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat                 INTEGER NOT NULL CHECK (seat >= 0 AND seat < 8),
    marches              INTEGER NOT NULL CHECK (marches >= 0),
    euchres_made         INTEGER NOT NULL CHECK (euchres_made >= 0),
    euchres_suffered     INTEGER NOT NULL CHECK (euchres_suffered >= 0),
    loners_tried         INTEGER NOT NULL CHECK (loners_tried >= 0),
    loners_made          INTEGER NOT NULL CHECK (loners_made >= 0),
    defended_alone       INTEGER NOT NULL CHECK (defended_alone >= 0),
    lone_defence_euchres INTEGER NOT NULL CHECK (lone_defence_euchres >= 0),
    PRIMARY KEY (game_id, seat)
);

-- Each deal of each seat's game that made trump and was played out, from the seat's side.
INSERT INTO seat_figures (game_id, seat, marches, euchres_made, euchres_suffered,
    loners_tried, loners_made, defended_alone, lone_defence_euchres)
SELECT game_id, seat,
    SUM(CASE WHEN making AND outcome = 'march' THEN 1 ELSE 0 END),
    SUM(CASE WHEN NOT making AND outcome = 'euchred' THEN 1 ELSE 0 END),
    SUM(CASE WHEN making AND outcome = 'euchred' THEN 1 ELSE 0 END),
    SUM(CASE WHEN alone AND making THEN 1 ELSE 0 END),
    SUM(CASE WHEN alone AND making AND outcome <> 'euchred' THEN 1 ELSE 0 END),
    SUM(CASE WHEN alone AND NOT making THEN 1 ELSE 0 END),
    SUM(CASE WHEN alone AND NOT making AND outcome = 'euchred' THEN 1 ELSE 0 END)
FROM (
-- [sqlite]
    SELECT p.game_id, p.seat,
        json_extract(d.value, '$.maker') % 2 = p.team AS making,
        json_extract(d.value, '$.result') AS outcome,
        EXISTS (
            SELECT 1 FROM json_each(d.value, '$.alone') AS a WHERE a.value = p.seat
        ) AS alone
    FROM game_players p
    JOIN games g ON g.id = p.game_id
    LEFT JOIN json_each(g.deal_outcomes) AS d
        ON json_extract(d.value, '$.maker') IS NOT NULL
        AND json_extract(d.value, '$.result') IN ('made', 'march', 'euchred')
-- [postgresql]
    SELECT p.game_id, p.seat,
        (d.value ->> 'maker')::INTEGER % 2 = p.team AS making,
        d.value ->> 'result' AS outcome,
        (d.value -> 'alone') @> to_jsonb(p.seat) AS alone
    FROM game_players p
    JOIN games g ON g.id = p.game_id
    LEFT JOIN LATERAL jsonb_array_elements(g.deal_outcomes::JSONB) AS d (value)
        ON d.value ->> 'maker' IS NOT NULL
        AND d.value ->> 'result' IN ('made', 'march', 'euchred')
-- [end]
    WHERE g.deal_outcomes IS NOT NULL
) AS deals
GROUP BY game_id, seat;

-- A season's ladder sizes per family (the server page's, every time it is made) counted
-- from an index alone: PostgreSQL does not count from the ranking index's expression.
CREATE INDEX league_ratings_sizes ON league_ratings (season_id, family, games);
