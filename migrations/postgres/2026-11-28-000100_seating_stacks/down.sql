-- Back to each seating's stack found through its latest ledger row.
CREATE INDEX ledger_seating_latest ON ledger_entries (seating_id, id) WHERE seating_id IS NOT NULL;
DROP INDEX ledger_buy_ins;
CREATE OR REPLACE FUNCTION ledger_guard() RETURNS trigger AS $$
DECLARE
    previous BIGINT;
    corrected ledger_entries%ROWTYPE;
BEGIN
    -- A row of a pool waits for its share of the pool (a jackpot hit holds
    -- every share while it reads the balance and locks it), and only then
    -- takes its id: the ids of a pool's rows follow the order in which they
    -- reach its balance. A void asks "did a hit lock this row's money?" by
    -- comparing ids; an id taken before the wait could be older than the
    -- lock of a hit that never saw the row.
    IF NEW.pool_id IS NOT NULL THEN
        PERFORM 1 FROM pool_balances
            WHERE pool_id = NEW.pool_id AND table_key = COALESCE(NEW.table_id, 0) FOR UPDATE;
        NEW.id := nextval(pg_get_serial_sequence('ledger_entries', 'id'));
    END IF;
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
            OR corrected.rake_cents IS DISTINCT FROM -NEW.rake_cents
            OR (NEW.kind = 'reversal' AND (corrected.seating_id IS DISTINCT FROM NEW.seating_id
                OR corrected.pool_id IS DISTINCT FROM NEW.pool_id))
            OR (NEW.kind = 'contribution_refund' AND corrected.kind <> 'jackpot_contribution') THEN
            RAISE EXCEPTION 'books: a reversal is the exact negative of the row it names, on the same account';
        END IF;
    END IF;
    IF NEW.pool_id IS NOT NULL AND NEW.amount_cents < 0 THEN
        IF (SELECT COALESCE(SUM(balance_cents), 0) FROM pool_balances WHERE pool_id = NEW.pool_id)
                + NEW.amount_cents < 0 THEN
            RAISE EXCEPTION 'books: a jackpot pool cannot go below zero';
        END IF;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

DROP TABLE seating_stacks;
DROP FUNCTION seating_stacks_guard();
DROP FUNCTION seating_stacks_checked();
