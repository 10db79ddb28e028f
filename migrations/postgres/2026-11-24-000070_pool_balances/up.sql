-- A pool's balance kept in one share per table feeding it (and one, key 0,
-- for its rows of no table: the seed at its creation), each the sum of that
-- table's rows of the pool, kept by the database as each row is written. A
-- commit adds to its own table's share only, so tables sharing a pool do not
-- wait for each other (one row for the whole pool made every commit of every
-- table take turns); the balance is the sum of the shares, a few rows. A
-- jackpot hit takes every share's lock (the service), so no contribution
-- lands between the locks of one deal.
CREATE TABLE pool_balances (
    pool_id BIGINT NOT NULL REFERENCES pools (id),
    table_key BIGINT NOT NULL,
    balance_cents BIGINT NOT NULL,
    PRIMARY KEY (pool_id, table_key)
);
INSERT INTO pool_balances (pool_id, table_key, balance_cents) SELECT id, 0, 0 FROM pools;
INSERT INTO pool_balances (pool_id, table_key, balance_cents)
    SELECT pool_id, id, 0 FROM casino_tables WHERE pool_id IS NOT NULL;
INSERT INTO pool_balances (pool_id, table_key, balance_cents)
    SELECT pool_id, COALESCE(table_id, 0), SUM(amount_cents) FROM ledger_entries
    WHERE pool_id IS NOT NULL GROUP BY pool_id, COALESCE(table_id, 0)
    ON CONFLICT (pool_id, table_key) DO UPDATE SET balance_cents = EXCLUDED.balance_cents;
DROP TRIGGER ledger_pool_balance ON ledger_entries;
DROP FUNCTION ledger_pool_balance();
ALTER TABLE pools DROP COLUMN balance_cents;
CREATE FUNCTION ledger_pool_balance() RETURNS trigger AS $$
BEGIN
    INSERT INTO pool_balances (pool_id, table_key, balance_cents)
        VALUES (NEW.pool_id, COALESCE(NEW.table_id, 0), NEW.amount_cents)
        ON CONFLICT (pool_id, table_key) DO UPDATE SET balance_cents = pool_balances.balance_cents + EXCLUDED.balance_cents;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- BEFORE, after ledger_guard (triggers of one kind fire in name order): the
-- next row of the same statement (a void writes several) is checked against
-- a balance that has this one (AFTER row triggers wait for the statement's end).
CREATE TRIGGER ledger_pool_balance BEFORE INSERT ON ledger_entries
    FOR EACH ROW WHEN (NEW.pool_id IS NOT NULL) EXECUTE FUNCTION ledger_pool_balance();
CREATE TRIGGER pool_balances_no_delete BEFORE DELETE ON pool_balances
    FOR EACH ROW EXECUTE FUNCTION books_append_only();
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
