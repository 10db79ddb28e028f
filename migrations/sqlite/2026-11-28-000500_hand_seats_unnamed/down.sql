-- The guard of before. Hands started in the new form do not read in the
-- build before: down refuses a database that holds one (the check fails).
CREATE TEMP TABLE hands_with_players_only (unnamed INTEGER CHECK (unnamed = 0));
INSERT INTO hands_with_players_only
    SELECT COUNT(*) FROM hands
    WHERE seats IS NOT NULL AND json_array_length(seats, '$[0]') IN (3, 6);
DROP TABLE hands_with_players_only;
DROP TRIGGER hands_seats_guard;
CREATE TRIGGER hands_seats_guard BEFORE INSERT ON hands WHEN NEW.seats IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'books: a hand''s seats are a JSON array of seats')
    WHERE json_valid(NEW.seats) = 0 OR json_type(NEW.seats) <> 'array' OR json_array_length(NEW.seats) = 0;
    SELECT RAISE(ABORT, 'books: a hand''s seats are seats of its table, each once, held by the seating named')
    WHERE EXISTS (
            SELECT 1 FROM json_each(NEW.seats) AS s
            WHERE s.type <> 'array'
                OR json_array_length(s.value) NOT IN (4, 7)
                OR json_type(s.value, '$[0]') IS NOT 'integer'
                OR json_type(s.value, '$[1]') IS NOT 'integer'
                OR json_type(s.value, '$[2]') IS NOT 'text'
                OR NOT EXISTS (
                    SELECT 1 FROM seatings AS g
                    WHERE g.id = json_extract(s.value, '$[1]') AND g.table_id = NEW.table_id
                        AND g.seat = json_extract(s.value, '$[0]')
                        AND g.player = json_extract(s.value, '$[2]')))
        OR (SELECT COUNT(DISTINCT json_extract(s.value, '$[0]')) FROM json_each(NEW.seats) AS s)
            <> json_array_length(NEW.seats);
    SELECT RAISE(ABORT, 'books: a stack at the start of a hand is zero or more, within the money limit')
    WHERE EXISTS (
        SELECT 1 FROM json_each(NEW.seats) AS s
        WHERE json_type(s.value, '$[3]') IS NOT 'integer'
            OR json_extract(s.value, '$[3]') NOT BETWEEN 0 AND 100000000000000
            OR (json_array_length(s.value) = 7 AND (
                json_type(s.value, '$[4]') IS NOT 'integer'
                OR json_extract(s.value, '$[4]') NOT IN (0, 1)
                OR json_type(s.value, '$[5]') NOT IN ('integer', 'null')
                OR json_extract(s.value, '$[5]') NOT BETWEEN 0 AND 100000000000000
                OR json_type(s.value, '$[6]') NOT IN ('integer', 'null'))));
END;
