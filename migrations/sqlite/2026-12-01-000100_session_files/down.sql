-- The sessions file written a session at a time again.
DROP TABLE session_files;
DROP TRIGGER seating_totals_made;
CREATE TRIGGER seating_totals_made AFTER INSERT ON seating_totals
BEGIN
    SELECT RAISE(ABORT, 'books: a seating''s totals name its table and the gaming day it was seated on')
    WHERE NEW.table_id IS NULL OR NEW.gaming_day IS NULL;
    INSERT INTO session_days (gaming_day, table_id, sessions, buy_in_cents, add_ons_cents, cash_out_cents,
        rake_cents, payouts_cents)
    VALUES (NEW.gaming_day, NEW.table_id, 1, NEW.buy_in_cents, NEW.add_ons_cents, NEW.cash_out_cents,
        NEW.rake_cents, NEW.payouts_cents)
    ON CONFLICT (gaming_day, table_id) DO UPDATE SET
        sessions = sessions + 1,
        buy_in_cents = buy_in_cents + excluded.buy_in_cents,
        add_ons_cents = add_ons_cents + excluded.add_ons_cents,
        cash_out_cents = cash_out_cents + excluded.cash_out_cents,
        rake_cents = rake_cents + excluded.rake_cents,
        payouts_cents = payouts_cents + excluded.payouts_cents;
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
        payouts_cents = payouts_cents + NEW.payouts_cents - OLD.payouts_cents
    WHERE gaming_day = NEW.gaming_day AND table_id = NEW.table_id;
END;
ALTER TABLE session_days DROP COLUMN changes;
