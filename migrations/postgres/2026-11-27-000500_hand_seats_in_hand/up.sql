-- Storage (issue 17): a hand's seats are kept in the hand's row, a JSON array
-- (as text, which is smaller than jsonb) with an array per seat dealt in:
--   [seat, seating, player, stack at the start in cents]
-- and, for a seat in fantasyland or with an exposure carried over (open-face),
--   [seat, seating, player, stack, in fantasyland (0 or 1), exposure at the
--    start in cents or null, cards dealt in fantasyland or null].
-- The player is the seating's (a seating never changes): a hand is read, and
-- committed, without looking its players up. Four seats were four rows and
-- their key (about 400 bytes a hand); they are now about 100 bytes of the
-- hand's row. Hands started before keep their rows in hand_seats, as written:
-- a hand has one form or the other, never both. The hand's row is
-- append-only (hands_append_only), so its seats are too.
ALTER TABLE hands ADD COLUMN seats TEXT;

-- What the key, the foreign key and the checks of hand_seats guarded, the
-- database still guards: each seat is a seat of the hand's own table held by
-- the seating and player named, once; a stack at the start (and an exposure)
-- is a whole number of cents, zero or more, within the money limit. Text that
-- is not JSON is refused by the cast.
CREATE FUNCTION hands_seats_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    doc jsonb;
BEGIN
    doc := NEW.seats::jsonb;
    IF jsonb_typeof(doc) <> 'array' OR jsonb_array_length(doc) = 0 THEN
        RAISE EXCEPTION 'books: a hand''s seats are a JSON array of seats';
    END IF;
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(doc) AS s
            WHERE jsonb_typeof(s) <> 'array' OR jsonb_array_length(s) NOT IN (4, 7)) THEN
        RAISE EXCEPTION 'books: a hand''s seats are a JSON array of seats';
    END IF;
    IF EXISTS (
            SELECT 1 FROM jsonb_array_elements(doc) AS s
            WHERE jsonb_typeof(s -> 0) <> 'number'
                OR jsonb_typeof(s -> 1) <> 'number'
                OR jsonb_typeof(s -> 2) <> 'string'
                OR NOT EXISTS (
                    SELECT 1 FROM seatings AS g
                    WHERE g.id = (s ->> 1)::numeric AND g.table_id = NEW.table_id
                        AND g.seat = (s ->> 0)::numeric AND g.player = s ->> 2))
        OR (SELECT COUNT(DISTINCT s -> 0) FROM jsonb_array_elements(doc) AS s) <> jsonb_array_length(doc) THEN
        RAISE EXCEPTION 'books: a hand''s seats are seats of its table, each once, held by the seating named';
    END IF;
    IF EXISTS (
            SELECT 1 FROM jsonb_array_elements(doc) AS s
            WHERE jsonb_typeof(s -> 3) <> 'number'
                OR (s ->> 3)::numeric NOT BETWEEN 0 AND 100000000000000
                OR (s ->> 3)::numeric <> trunc((s ->> 3)::numeric)
                OR (jsonb_array_length(s) = 7 AND (
                    jsonb_typeof(s -> 4) <> 'number'
                    OR (s ->> 4)::numeric NOT IN (0, 1)
                    OR jsonb_typeof(s -> 5) NOT IN ('number', 'null')
                    OR (s ->> 5)::numeric NOT BETWEEN 0 AND 100000000000000
                    OR (s ->> 5)::numeric <> trunc((s ->> 5)::numeric)
                    OR jsonb_typeof(s -> 6) NOT IN ('number', 'null')))) THEN
        RAISE EXCEPTION 'books: a stack at the start of a hand is zero or more, within the money limit';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER hands_seats_guard BEFORE INSERT ON hands
    FOR EACH ROW WHEN (NEW.seats IS NOT NULL) EXECUTE FUNCTION hands_seats_guard();

-- A hand has its seats in one form only.
CREATE FUNCTION hand_seats_one_form() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT seats FROM hands WHERE id = NEW.hand_id) IS NOT NULL THEN
        RAISE EXCEPTION 'books: this hand keeps its seats in its row';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER hand_seats_one_form BEFORE INSERT ON hand_seats
    FOR EACH ROW EXECUTE FUNCTION hand_seats_one_form();
