-- The guard of before. Hands started in the new form do not read in the
-- build before: down refuses a database that holds one.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM hands WHERE seats IS NOT NULL
            AND jsonb_array_length(seats::jsonb -> 0) IN (3, 6)) THEN
        RAISE EXCEPTION 'hands were started without their players in their rows: the build before cannot read them';
    END IF;
END;
$$;
CREATE OR REPLACE FUNCTION hands_seats_guard() RETURNS trigger LANGUAGE plpgsql AS $$
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
    -- The seat and the seating are whole numbers in their columns' range
    -- before they are looked up, by the seatings' key.
    IF EXISTS (
            SELECT 1 FROM jsonb_array_elements(doc) AS s
            WHERE jsonb_typeof(s -> 0) <> 'number'
                OR jsonb_typeof(s -> 1) <> 'number'
                OR jsonb_typeof(s -> 2) <> 'string'
                OR (s ->> 0)::numeric NOT BETWEEN 1 AND 2147483647
                OR (s ->> 0)::numeric <> trunc((s ->> 0)::numeric)
                OR (s ->> 1)::numeric NOT BETWEEN 1 AND 9223372036854775807
                OR (s ->> 1)::numeric <> trunc((s ->> 1)::numeric)) THEN
        RAISE EXCEPTION 'books: a hand''s seats are seats of its table, each once, held by the seating named';
    END IF;
    IF EXISTS (
            SELECT 1 FROM jsonb_array_elements(doc) AS s
            WHERE NOT EXISTS (
                SELECT 1 FROM seatings AS g
                WHERE g.id = (s ->> 1)::numeric::bigint AND g.table_id = NEW.table_id
                    AND g.seat = (s ->> 0)::numeric::integer AND g.player = s ->> 2))
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

