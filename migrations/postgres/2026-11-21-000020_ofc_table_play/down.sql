ALTER TABLE hand_seats DROP COLUMN fantasyland_cards;
ALTER TABLE hand_seats DROP COLUMN exposure_start_cents;
ALTER TABLE ruleset_versions DROP COLUMN options;
ALTER TABLE casino_tables DROP CONSTRAINT casino_tables_seat_count_check;
ALTER TABLE casino_tables ADD CONSTRAINT casino_tables_seat_count_check CHECK (seat_count BETWEEN 2 AND 4);
