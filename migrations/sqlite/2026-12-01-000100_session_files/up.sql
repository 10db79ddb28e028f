-- The sessions CSV file of a long range, kept ready (issue 17; the
-- PostgreSQL migration of the same name says why): each table's gaming day
-- of the file's rows, kept once every session of it has ended and the day
-- is over, with what its rows were made from. The session day counts every
-- change of its seatings' totals, in the same statement as the change.
ALTER TABLE session_days ADD COLUMN changes BIGINT NOT NULL DEFAULT 0;
DROP TRIGGER seating_totals_made;
CREATE TRIGGER seating_totals_made AFTER INSERT ON seating_totals
BEGIN
    SELECT RAISE(ABORT, 'books: a seating''s totals name its table and the gaming day it was seated on')
    WHERE NEW.table_id IS NULL OR NEW.gaming_day IS NULL;
    INSERT INTO session_days (gaming_day, table_id, sessions, buy_in_cents, add_ons_cents, cash_out_cents,
        rake_cents, payouts_cents, changes)
    VALUES (NEW.gaming_day, NEW.table_id, 1, NEW.buy_in_cents, NEW.add_ons_cents, NEW.cash_out_cents,
        NEW.rake_cents, NEW.payouts_cents, 1)
    ON CONFLICT (gaming_day, table_id) DO UPDATE SET
        sessions = sessions + 1,
        buy_in_cents = buy_in_cents + excluded.buy_in_cents,
        add_ons_cents = add_ons_cents + excluded.add_ons_cents,
        cash_out_cents = cash_out_cents + excluded.cash_out_cents,
        rake_cents = rake_cents + excluded.rake_cents,
        payouts_cents = payouts_cents + excluded.payouts_cents,
        changes = changes + 1;
END;
DROP TRIGGER seating_totals_changed;
CREATE TRIGGER seating_totals_changed AFTER UPDATE ON seating_totals
BEGIN
    SELECT RAISE(ABORT, 'books: a seating''s table and gaming day do not change')
    WHERE NEW.table_id IS NOT OLD.table_id OR NEW.gaming_day IS NOT OLD.gaming_day;
    UPDATE session_days SET
        buy_in_cents = buy_in_cents + NEW.buy_in_cents - OLD.buy_in_cents,
        add_ons_cents = add_ons_cents + NEW.add_ons_cents - OLD.add_ons_cents,
        cash_out_cents = cash_out_cents + NEW.cash_out_cents - OLD.cash_out_cents,
        rake_cents = rake_cents + NEW.rake_cents - OLD.rake_cents,
        payouts_cents = payouts_cents + NEW.payouts_cents - OLD.payouts_cents,
        changes = changes + 1
    WHERE gaming_day = NEW.gaming_day AND table_id = NEW.table_id;
END;
-- (A rowid table: a kept group is a few hundred bytes to a few kilobytes,
-- more than a row of an index's tree holds in its page.)
CREATE TABLE session_files (
    gaming_day TEXT NOT NULL,
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    changes BIGINT NOT NULL,
    sessions BIGINT NOT NULL CHECK (sessions > 0),
    buy_in_cents BIGINT NOT NULL,
    add_ons_cents BIGINT NOT NULL,
    cash_out_cents BIGINT NOT NULL,
    rake_cents BIGINT NOT NULL,
    payouts_cents BIGINT NOT NULL,
    newest_seating BIGINT NOT NULL,
    table_name TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    layout INTEGER NOT NULL CHECK (layout > 0),
    built_at TIMESTAMP NOT NULL,
    rows_lz4 BLOB NOT NULL,
    PRIMARY KEY (gaming_day, table_id)
);
