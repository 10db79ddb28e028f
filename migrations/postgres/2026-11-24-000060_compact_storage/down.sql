-- A hand stored in the compact form cannot go back to the old columns here
-- (its result is compressed): refuse rather than lose it.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM showdowns WHERE showdown_z IS NOT NULL) THEN
        RAISE EXCEPTION 'hands are stored in the compact form; this downgrade would lose them';
    END IF;
END;
$$;
DROP TRIGGER ledger_pool_balance ON ledger_entries;
DROP FUNCTION ledger_pool_balance();
ALTER TABLE pools DROP COLUMN balance_cents;
CREATE OR REPLACE FUNCTION ledger_guard() RETURNS trigger AS $$
DECLARE
    previous BIGINT;
    corrected ledger_entries%ROWTYPE;
    pool_total BIGINT;
BEGIN
    IF NEW.seating_id IS NOT NULL THEN
        SELECT balance_after_cents INTO previous FROM ledger_entries
            WHERE seating_id = NEW.seating_id ORDER BY id DESC LIMIT 1;
        IF NEW.balance_after_cents IS DISTINCT FROM COALESCE(previous, 0) + NEW.amount_cents THEN
            RAISE EXCEPTION 'books: a seat row''s stack after it must be its previous stack plus its amount';
        END IF;
    END IF;
    IF NEW.reverses_id IS NOT NULL THEN
        SELECT * INTO corrected FROM ledger_entries WHERE id = NEW.reverses_id;
        IF NOT FOUND OR corrected.amount_cents <> -NEW.amount_cents
            OR (NEW.kind = 'reversal' AND (corrected.seating_id IS DISTINCT FROM NEW.seating_id
                OR corrected.pool_id IS DISTINCT FROM NEW.pool_id))
            OR (NEW.kind = 'contribution_refund' AND corrected.kind <> 'jackpot_contribution') THEN
            RAISE EXCEPTION 'books: a reversal is the exact negative of the row it names, on the same account';
        END IF;
    END IF;
    IF NEW.pool_id IS NOT NULL AND NEW.amount_cents < 0 THEN
        SELECT COALESCE(SUM(amount_cents), 0) INTO pool_total FROM ledger_entries WHERE pool_id = NEW.pool_id;
        IF pool_total + NEW.amount_cents < 0 THEN
            RAISE EXCEPTION 'books: a jackpot pool cannot go below zero';
        END IF;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
DROP INDEX ledger_hits;
DROP INDEX seatings_seated;
DROP TABLE seating_totals;
DROP TABLE pool_days;
DROP TABLE table_days;
DROP INDEX seatings_table;
CREATE INDEX seatings_table ON seatings (table_id, seat);
DROP INDEX audit_sign_ins_by_ip;
DROP INDEX audit_sign_ins_by_user;
CREATE INDEX audit_events_action ON audit_events (action, username, created_at);
CREATE INDEX audit_events_ip ON audit_events (action, ip, created_at);
CREATE INDEX audit_events_time ON audit_events (created_at);
DROP INDEX ledger_pool_locks;
DROP INDEX ledger_cash_outs;
DROP INDEX ledger_seating_latest;
CREATE INDEX ledger_seating_amount ON ledger_entries (seating_id, amount_cents);
CREATE INDEX ledger_seating_kind ON ledger_entries (seating_id, kind);
CREATE INDEX ledger_seating_latest ON ledger_entries (seating_id, id);
CREATE INDEX ledger_pool_amount ON ledger_entries (pool_id, amount_cents);
CREATE INDEX ledger_pool_latest ON ledger_entries (pool_id, id);
ALTER TABLE showdowns DROP CONSTRAINT showdowns_one_form;
ALTER TABLE showdowns DROP COLUMN showdown_z;
ALTER TABLE showdowns ALTER COLUMN result SET NOT NULL;
ALTER TABLE showdowns ALTER COLUMN engine_input SET NOT NULL;
ALTER TABLE showdowns ALTER COLUMN request_hash SET NOT NULL;
