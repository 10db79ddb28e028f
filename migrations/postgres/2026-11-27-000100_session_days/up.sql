-- Sessions by the gaming day they were seated on (issue 17). The sessions
-- report totals every seating seated in its range, as of now; it summed
-- them one seating at a time, about 400,000 seatings for a year of a
-- 50-table room. Now each seating's totals name its table and the gaming
-- day it was seated on (its table's clock at the moment of its buy-in),
-- and the database keeps a row per table and gaming day with the sums of
-- those seatings' totals, changed in the same statement as the seating's.
--
-- The seatings' totals are made again, with their day, from the ledger: they
-- are emptied here and rebuilt by the first process to open the database
-- (`db::rollups::build_if_missing`), which knows the tables' clocks. Stop
-- every app server of the older release before this migration: its writes
-- to the seatings' totals would be refused until then.
DROP TABLE seating_totals;
CREATE TABLE seating_totals (
    seating_id BIGINT PRIMARY KEY REFERENCES seatings (id),
    table_id BIGINT REFERENCES casino_tables (id),
    gaming_day TEXT,
    buy_in_cents BIGINT NOT NULL DEFAULT 0,
    add_ons_cents BIGINT NOT NULL DEFAULT 0,
    cash_out_cents BIGINT NOT NULL DEFAULT 0,
    rake_cents BIGINT NOT NULL DEFAULT 0,
    payouts_cents BIGINT NOT NULL DEFAULT 0
);
-- The sessions report's rows, a page at a time: by day, table, seating.
CREATE INDEX seating_totals_day ON seating_totals (gaming_day, table_id, seating_id);
CREATE TABLE session_days (
    gaming_day TEXT NOT NULL,
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    sessions BIGINT NOT NULL DEFAULT 0,
    buy_in_cents BIGINT NOT NULL DEFAULT 0,
    add_ons_cents BIGINT NOT NULL DEFAULT 0,
    cash_out_cents BIGINT NOT NULL DEFAULT 0,
    rake_cents BIGINT NOT NULL DEFAULT 0,
    payouts_cents BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (gaming_day, table_id)
);
-- A seating's totals are made at its buy-in, naming its table and day (an
-- update of totals that do not exist yet would make a row without them).
CREATE FUNCTION seating_totals_made() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.table_id IS NULL OR NEW.gaming_day IS NULL THEN
        RAISE EXCEPTION 'books: a seating''s totals name its table and the gaming day it was seated on';
    END IF;
    INSERT INTO session_days AS d (gaming_day, table_id, sessions, buy_in_cents, add_ons_cents, cash_out_cents,
        rake_cents, payouts_cents)
    VALUES (NEW.gaming_day, NEW.table_id, 1, NEW.buy_in_cents, NEW.add_ons_cents, NEW.cash_out_cents,
        NEW.rake_cents, NEW.payouts_cents)
    ON CONFLICT (gaming_day, table_id) DO UPDATE SET
        sessions = d.sessions + 1,
        buy_in_cents = d.buy_in_cents + excluded.buy_in_cents,
        add_ons_cents = d.add_ons_cents + excluded.add_ons_cents,
        cash_out_cents = d.cash_out_cents + excluded.cash_out_cents,
        rake_cents = d.rake_cents + excluded.rake_cents,
        payouts_cents = d.payouts_cents + excluded.payouts_cents;
    RETURN NULL;
END $$;
CREATE TRIGGER seating_totals_made AFTER INSERT ON seating_totals
    FOR EACH ROW EXECUTE FUNCTION seating_totals_made();
CREATE FUNCTION seating_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.table_id IS DISTINCT FROM OLD.table_id OR NEW.gaming_day IS DISTINCT FROM OLD.gaming_day THEN
        RAISE EXCEPTION 'books: a seating''s table and gaming day do not change';
    END IF;
    UPDATE session_days SET
        buy_in_cents = buy_in_cents + NEW.buy_in_cents - OLD.buy_in_cents,
        add_ons_cents = add_ons_cents + NEW.add_ons_cents - OLD.add_ons_cents,
        cash_out_cents = cash_out_cents + NEW.cash_out_cents - OLD.cash_out_cents,
        rake_cents = rake_cents + NEW.rake_cents - OLD.rake_cents,
        payouts_cents = payouts_cents + NEW.payouts_cents - OLD.payouts_cents
    WHERE gaming_day = NEW.gaming_day AND table_id = NEW.table_id;
    RETURN NULL;
END $$;
CREATE TRIGGER seating_totals_changed AFTER UPDATE ON seating_totals
    FOR EACH ROW EXECUTE FUNCTION seating_totals_changed();
-- The report no longer finds seatings by the time they were seated.
DROP INDEX seatings_seated;
