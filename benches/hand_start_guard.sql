-- The database's guard of a hand's seats as a table's history grows
-- (PostgreSQL). Run on a database built by the year builder
-- (`examples/year.rs`), e.g.
--   psql postgres://postgres@127.0.0.1:5432/year -v extra=20000 -f benches/hand_start_guard.sql
-- In one transaction, rolled back: gives table 1 `extra` more seatings (as a
-- year of sessions would), then writes 500 copies of its latest hand's row
-- (its seats guarded by the trigger `hands_seats_guard`) and prints the time
-- a row took.
\set ON_ERROR_STOP on
BEGIN;
ALTER TABLE seatings DISABLE TRIGGER USER;
INSERT INTO seatings (table_id, seat, player, seated_at)
    SELECT 1, 1 + (i % 4), 'history ' || i, now() FROM generate_series(1, :extra) AS i;
ALTER TABLE seatings ENABLE TRIGGER USER;
ANALYZE seatings;
SELECT count(*) AS seatings_of_table_1 FROM seatings WHERE table_id = 1;
DO $$
DECLARE
    t0 timestamptz;
    n int;
BEGIN
    SELECT max(number) INTO n FROM hands WHERE table_id = 1 AND seats IS NOT NULL;
    t0 := clock_timestamp();
    FOR i IN 1..500 LOOP
        INSERT INTO hands (table_id, number, dealer_seat, ruleset_version_id, started_at, seats)
            SELECT table_id, 1000000 + i, dealer_seat, ruleset_version_id, started_at, seats
            FROM hands WHERE table_id = 1 AND number = n;
    END LOOP;
    RAISE NOTICE 'a hand''s row with its seats: % ms', round(extract(epoch FROM clock_timestamp() - t0) * 1000 / 500, 3);
END $$;
ROLLBACK;
