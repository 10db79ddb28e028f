-- Back to the trigger once a row (2026-11-28-000700_sessions_with_totals's).
DROP TRIGGER seating_totals_changed ON seating_totals;
CREATE OR REPLACE FUNCTION seating_totals_changed() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
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
CREATE TRIGGER seating_totals_changed AFTER UPDATE ON seating_totals
    FOR EACH ROW EXECUTE FUNCTION seating_totals_changed();
