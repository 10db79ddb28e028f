-- The sessions CSV file of a long range, kept ready (issue 17). Written a
-- session at a time, the file of a year (some 390,000 sessions in a
-- 50-table room) took about 1.8 s. Each table's gaming day (a group of the
-- file's rows, which go by gaming day, table and seating) is now kept as
-- the file's rows once every session of it has ended and the day is over:
-- `session_files`, the rows compressed (LZ4), with what they were made
-- from. The file sends a kept group as it is while it is still true, and
-- reads any other group's sessions as before.
--
-- A kept group is true while nothing it was made from has changed: its
-- session day's count of changes (below), its sessions and sums, the
-- table's name, the time zone its times are shown in and the layout of a
-- row. It is the file's copy, not the books: it is made again (or not
-- used) whenever it is not true, and any of it may be deleted.
--
-- The session day counts every change of its seatings' totals (a new
-- seating, an add-on, a cash-out, the rake of a hand, a void, a jackpot
-- payout), in the same statement as the change.
ALTER TABLE session_days ADD COLUMN changes BIGINT NOT NULL DEFAULT 0;
CREATE OR REPLACE FUNCTION seating_totals_made() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.table_id IS NULL OR NEW.gaming_day IS NULL THEN
        RAISE EXCEPTION 'books: a seating''s totals name its table and the gaming day it was seated on';
    END IF;
    INSERT INTO session_days AS d (gaming_day, table_id, sessions, buy_in_cents, add_ons_cents, cash_out_cents,
        rake_cents, payouts_cents, changes)
    VALUES (NEW.gaming_day, NEW.table_id, 1, NEW.buy_in_cents, NEW.add_ons_cents, NEW.cash_out_cents,
        NEW.rake_cents, NEW.payouts_cents, 1)
    ON CONFLICT (gaming_day, table_id) DO UPDATE SET
        sessions = d.sessions + 1,
        buy_in_cents = d.buy_in_cents + excluded.buy_in_cents,
        add_ons_cents = d.add_ons_cents + excluded.add_ons_cents,
        cash_out_cents = d.cash_out_cents + excluded.cash_out_cents,
        rake_cents = d.rake_cents + excluded.rake_cents,
        payouts_cents = d.payouts_cents + excluded.payouts_cents,
        changes = d.changes + 1;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION seating_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.table_id IS DISTINCT FROM OLD.table_id OR NEW.gaming_day IS DISTINCT FROM OLD.gaming_day THEN
        RAISE EXCEPTION 'books: a seating''s table and gaming day do not change';
    END IF;
    UPDATE session_days SET
        buy_in_cents = buy_in_cents + NEW.buy_in_cents - OLD.buy_in_cents,
        add_ons_cents = add_ons_cents + NEW.add_ons_cents - OLD.add_ons_cents,
        cash_out_cents = cash_out_cents + NEW.cash_out_cents - OLD.cash_out_cents,
        rake_cents = rake_cents + NEW.rake_cents - OLD.rake_cents,
        payouts_cents = payouts_cents + NEW.payouts_cents - OLD.payouts_cents,
        changes = changes + 1
    WHERE gaming_day = NEW.gaming_day AND table_id = NEW.table_id;
    RETURN NULL;
END $$;
CREATE TABLE session_files (
    gaming_day TEXT NOT NULL,
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    -- What the rows were made from: the session day's changes, sessions
    -- and sums then.
    changes BIGINT NOT NULL,
    sessions BIGINT NOT NULL CHECK (sessions > 0),
    buy_in_cents BIGINT NOT NULL,
    add_ons_cents BIGINT NOT NULL,
    cash_out_cents BIGINT NOT NULL,
    rake_cents BIGINT NOT NULL,
    payouts_cents BIGINT NOT NULL,
    -- The newest seating among them (a file holds the sessions there were
    -- when it began).
    newest_seating BIGINT NOT NULL,
    -- As the rows show it: the table's name, the zone of the times, the
    -- layout of a row (`web::sessions_file::LAYOUT`).
    table_name TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    layout INTEGER NOT NULL CHECK (layout > 0),
    built_at TIMESTAMP NOT NULL,
    -- The rows as the file writes them, LZ4 (a block with its length first).
    rows_lz4 BYTEA NOT NULL,
    PRIMARY KEY (gaming_day, table_id)
);
-- Kept in the row, not compressed again (LZ4's bytes do not compress).
ALTER TABLE session_files ALTER COLUMN rows_lz4 SET STORAGE MAIN;
