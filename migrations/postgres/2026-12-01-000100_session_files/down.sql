-- The sessions file written a session at a time again.
DROP TABLE session_files;
CREATE OR REPLACE FUNCTION seating_totals_made() RETURNS trigger LANGUAGE plpgsql AS $$
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
        payouts_cents = payouts_cents + NEW.payouts_cents - OLD.payouts_cents
    WHERE gaming_day = NEW.gaming_day AND table_id = NEW.table_id;
    RETURN NULL;
END $$;
ALTER TABLE session_days DROP COLUMN changes;
