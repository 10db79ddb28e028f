CREATE INDEX seatings_seated ON seatings (seated_at);
DROP TABLE session_days;
DROP TABLE seating_totals;
DROP FUNCTION seating_totals_changed();
DROP FUNCTION seating_totals_made();
DELETE FROM table_days;
DELETE FROM pool_days;
CREATE TABLE seating_totals (
    seating_id BIGINT PRIMARY KEY REFERENCES seatings (id),
    buy_in_cents BIGINT NOT NULL DEFAULT 0,
    add_ons_cents BIGINT NOT NULL DEFAULT 0,
    cash_out_cents BIGINT NOT NULL DEFAULT 0,
    rake_cents BIGINT NOT NULL DEFAULT 0,
    payouts_cents BIGINT NOT NULL DEFAULT 0
);
