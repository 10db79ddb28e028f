-- Open-face table play (issue 8): table options on each ruleset version,
-- the exposure a seat carries into a fantasyland hand, the cards a
-- fantasyland seat is dealt, and tables of up to 8 seats (final table of
-- five, double deck). The casino_tables rebuild follows SQLite's documented
-- procedure (foreign keys off, new table, copy, drop, rename, check).
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE casino_tables_new (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    pool_id BIGINT REFERENCES pools (id),
    seat_count INTEGER NOT NULL CHECK (seat_count BETWEEN 2 AND 8),
    time_zone TEXT NOT NULL,
    gaming_day_cutoff TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
INSERT INTO casino_tables_new (id, name, pool_id, seat_count, time_zone, gaming_day_cutoff, created_at)
    SELECT id, name, pool_id, seat_count, time_zone, gaming_day_cutoff, created_at FROM casino_tables;
DROP TABLE casino_tables;
ALTER TABLE casino_tables_new RENAME TO casino_tables;
ALTER TABLE ruleset_versions ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
ALTER TABLE hand_seats ADD COLUMN exposure_start_cents BIGINT;
ALTER TABLE hand_seats ADD COLUMN fantasyland_cards INTEGER;
COMMIT;
PRAGMA foreign_keys = ON;
