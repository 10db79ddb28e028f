-- Storage (issue 17): a hand's seats are kept in the hand's row, a JSON array
-- with an array per seat dealt in:
--   [seat, seating, player, stack at the start in cents]
-- and, for a seat in fantasyland or with an exposure carried over (open-face),
--   [seat, seating, player, stack, in fantasyland (0 or 1), exposure at the
--    start in cents or null, cards dealt in fantasyland or null].
-- The player is the seating's (a seating never changes): a hand is read,
-- and committed, without looking its players up.
-- Four seats were four rows and their key (about 400 bytes a hand on
-- PostgreSQL); they are now about 100 bytes of the hand's row. Hands started
-- before keep their rows in hand_seats, as written: a hand has one form or
-- the other, never both. The hand's row is append-only (hands_no_update), so
-- its seats are too.
ALTER TABLE hands ADD COLUMN seats TEXT;

-- What the key, the foreign key and the checks of hand_seats guarded, the
-- database still guards: each seat is a seat of the hand's own table held by
-- the seating named, once; a stack at the start (and an exposure) is zero or
-- more, within the money limit.
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

-- A hand has its seats in one form only.
CREATE TRIGGER hand_seats_one_form BEFORE INSERT ON hand_seats
WHEN (SELECT seats FROM hands WHERE id = NEW.hand_id) IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'books: this hand keeps its seats in its row');
END;
