PRAGMA foreign_keys = OFF;
BEGIN;
ALTER TABLE hand_seats DROP COLUMN fantasyland_cards;
ALTER TABLE hand_seats DROP COLUMN exposure_start_cents;
ALTER TABLE ruleset_versions DROP COLUMN options;
CREATE TABLE casino_tables_old (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    pool_id BIGINT REFERENCES pools (id),
    seat_count INTEGER NOT NULL CHECK (seat_count BETWEEN 2 AND 4),
    time_zone TEXT NOT NULL,
    gaming_day_cutoff TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
INSERT INTO casino_tables_old (id, name, pool_id, seat_count, time_zone, gaming_day_cutoff, created_at)
    SELECT id, name, pool_id, seat_count, time_zone, gaming_day_cutoff, created_at FROM casino_tables;
DROP TABLE casino_tables;
ALTER TABLE casino_tables_old RENAME TO casino_tables;
COMMIT;
PRAGMA foreign_keys = ON;
