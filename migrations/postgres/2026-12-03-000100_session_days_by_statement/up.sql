-- A seating's totals move the day's totals of its table (`session_days`)
-- once a statement, not once a row (issue 17). A hand's commit adds its rake
-- to each seat's totals in one UPDATE; the trigger ran once a row, a
-- PL/pgSQL call and an update of the same `session_days` row for each seat
-- (four calls, four new versions of one row, for a hand of four seats). It
-- now runs once an UPDATE, over the statement's rows (its transition
-- tables): it refuses a row whose table or gaming day changed, with the same
-- message, and adds the statement's changes to each table's day in one
-- update; `changes` still counts one a seating's row changed.
--
-- (The ledger's guards were tried the same way, once a statement: a hand's
-- INSERT took longer, 952 µs against 798, its stacks moved by one statement
-- over the transition table costing more than four updates by key; they stay
-- once a row. docs/benchmarks.md has the figures.)
DROP TRIGGER seating_totals_changed ON seating_totals;
CREATE OR REPLACE FUNCTION seating_totals_changed() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
BEGIN
    IF EXISTS (
            SELECT 1 FROM totals_now n LEFT JOIN totals_before o ON o.seating_id = n.seating_id
            WHERE o.seating_id IS NULL
                OR n.table_id IS DISTINCT FROM o.table_id OR n.gaming_day IS DISTINCT FROM o.gaming_day) THEN
        RAISE EXCEPTION 'books: a seating''s table and gaming day do not change';
    END IF;
    UPDATE session_days d SET
        buy_in_cents = d.buy_in_cents + c.buy_in_cents,
        add_ons_cents = d.add_ons_cents + c.add_ons_cents,
        cash_out_cents = d.cash_out_cents + c.cash_out_cents,
        rake_cents = d.rake_cents + c.rake_cents,
        payouts_cents = d.payouts_cents + c.payouts_cents,
        changes = d.changes + c.changes
    FROM (
        SELECT n.gaming_day, n.table_id,
            sum(n.buy_in_cents - o.buy_in_cents)::bigint AS buy_in_cents,
            sum(n.add_ons_cents - o.add_ons_cents)::bigint AS add_ons_cents,
            sum(n.cash_out_cents - o.cash_out_cents)::bigint AS cash_out_cents,
            sum(n.rake_cents - o.rake_cents)::bigint AS rake_cents,
            sum(n.payouts_cents - o.payouts_cents)::bigint AS payouts_cents,
            count(*) AS changes
        FROM totals_now n JOIN totals_before o ON o.seating_id = n.seating_id
        GROUP BY n.gaming_day, n.table_id) c
    WHERE d.gaming_day = c.gaming_day AND d.table_id = c.table_id;
    RETURN NULL;
END $$;
CREATE TRIGGER seating_totals_changed AFTER UPDATE ON seating_totals
    REFERENCING OLD TABLE AS totals_before NEW TABLE AS totals_now
    FOR EACH STATEMENT EXECUTE FUNCTION seating_totals_changed();
