DROP TRIGGER ledger_pool_balance ON ledger_entries;
DROP FUNCTION ledger_pool_balance();
ALTER TABLE pools ADD COLUMN balance_cents BIGINT NOT NULL DEFAULT 0;
UPDATE pools SET balance_cents = (SELECT COALESCE(SUM(balance_cents), 0) FROM pool_balances WHERE pool_id = pools.id);
DROP TABLE pool_balances;
CREATE FUNCTION ledger_pool_balance() RETURNS trigger AS $$
DECLARE
    balance BIGINT;
BEGIN
    UPDATE pools SET balance_cents = balance_cents + NEW.amount_cents WHERE id = NEW.pool_id
        RETURNING balance_cents INTO balance;
    IF balance < 0 THEN
        RAISE EXCEPTION 'books: a jackpot pool cannot go below zero';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER ledger_pool_balance AFTER INSERT ON ledger_entries
    FOR EACH ROW WHEN (NEW.pool_id IS NOT NULL) EXECUTE FUNCTION ledger_pool_balance();
CREATE OR REPLACE FUNCTION ledger_guard() RETURNS trigger AS $$
DECLARE
    previous BIGINT;
    corrected ledger_entries%ROWTYPE;
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
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
