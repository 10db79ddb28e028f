-- Storage (issue 17): a hand's row no longer names each seat's player (see
-- the PostgreSQL migration of the same name). A seat is now `[seat, seating,
-- stack]`, or `[seat, seating, stack, in fantasyland, exposure, cards]`;
-- the rows of hands started before keep the player third and still read.
-- The guard checks what it did, at the new places, and takes only the new
-- form.
DROP TRIGGER hands_seats_guard;
CREATE TRIGGER hands_seats_guard BEFORE INSERT ON hands WHEN NEW.seats IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'books: a hand''s seats are a JSON array of seats')
    WHERE json_valid(NEW.seats) = 0 OR json_type(NEW.seats) <> 'array' OR json_array_length(NEW.seats) = 0;
    SELECT RAISE(ABORT, 'books: a hand''s seats are seats of its table, each once, held by the seating named')
    WHERE EXISTS (
            SELECT 1 FROM json_each(NEW.seats) AS s
            WHERE s.type <> 'array'
                OR json_array_length(s.value) NOT IN (3, 6)
                OR json_type(s.value, '$[0]') IS NOT 'integer'
                OR json_type(s.value, '$[1]') IS NOT 'integer'
                OR NOT EXISTS (
                    SELECT 1 FROM seatings AS g
                    WHERE g.id = json_extract(s.value, '$[1]') AND g.table_id = NEW.table_id
                        AND g.seat = json_extract(s.value, '$[0]')))
        OR (SELECT COUNT(DISTINCT json_extract(s.value, '$[0]')) FROM json_each(NEW.seats) AS s)
            <> json_array_length(NEW.seats);
    SELECT RAISE(ABORT, 'books: a stack at the start of a hand is zero or more, within the money limit')
    WHERE EXISTS (
        SELECT 1 FROM json_each(NEW.seats) AS s
        WHERE json_type(s.value, '$[2]') IS NOT 'integer'
            OR json_extract(s.value, '$[2]') NOT BETWEEN 0 AND 100000000000000
            OR (json_array_length(s.value) = 6 AND (
                json_type(s.value, '$[3]') IS NOT 'integer'
                OR json_extract(s.value, '$[3]') NOT IN (0, 1)
                OR json_type(s.value, '$[4]') NOT IN ('integer', 'null')
                OR json_extract(s.value, '$[4]') NOT BETWEEN 0 AND 100000000000000
                OR json_type(s.value, '$[5]') NOT IN ('integer', 'null'))));
END;
