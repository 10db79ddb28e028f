-- Open-face table play (issue 8): table options on each ruleset version,
-- the exposure a seat carries into a fantasyland hand, the cards a
-- fantasyland seat is dealt, and tables of up to 8 seats.
ALTER TABLE casino_tables DROP CONSTRAINT casino_tables_seat_count_check;
ALTER TABLE casino_tables ADD CONSTRAINT casino_tables_seat_count_check CHECK (seat_count BETWEEN 2 AND 8);
ALTER TABLE ruleset_versions ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
ALTER TABLE hand_seats ADD COLUMN exposure_start_cents BIGINT;
ALTER TABLE hand_seats ADD COLUMN fantasyland_cards INTEGER;
