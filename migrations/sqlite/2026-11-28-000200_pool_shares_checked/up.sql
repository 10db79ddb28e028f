-- A pool's shares (`pool_balances`) are kept by its ledger rows only, as a
-- seating's stack is (2026-11-28-000100): until now a share could be
-- changed by any UPDATE, or reset by INSERT OR REPLACE (which deletes
-- without the delete trigger).
--
-- Each share now names the ledger row that last moved it (`entry_id`;
-- none for a share opened empty, before its table's first row). The
-- database refuses a new share that is neither empty nor exactly the row it
-- names, or that would take the place of one already there; a change
-- that does not add exactly the amount of the row it names, a row of that
-- pool and table newer than the one before; and a deleted share.
--
-- Each share is set from the ledger once more here (the sum of its rows, and
-- its latest row): the rows are the books, a share only their sum, and from
-- now on no write could mend a share that was wrong.
--
-- (An INSERT OR REPLACE of any append-only table's row, which deletes
-- without the delete trigger, is refused on every connection the service
-- opens: `PRAGMA recursive_triggers = ON` makes it fire.)
-- (One pass over the ledger: the pool rows have no index of their own.)
ALTER TABLE pool_balances ADD COLUMN entry_id BIGINT;
CREATE TEMP TABLE share_sums AS
    SELECT pool_id, COALESCE(table_id, 0) AS table_key, SUM(amount_cents) AS total, MAX(id) AS latest
    FROM ledger_entries WHERE pool_id IS NOT NULL GROUP BY pool_id, COALESCE(table_id, 0);
UPDATE pool_balances SET
    balance_cents = COALESCE((SELECT total FROM share_sums s
        WHERE s.pool_id = pool_balances.pool_id AND s.table_key = pool_balances.table_key), 0),
    entry_id = (SELECT latest FROM share_sums s
        WHERE s.pool_id = pool_balances.pool_id AND s.table_key = pool_balances.table_key);
DROP TABLE share_sums;
CREATE TRIGGER pool_balances_written BEFORE INSERT ON pool_balances
BEGIN
    SELECT RAISE(ABORT, 'books: a pool''s balance is kept by its ledger rows')
    WHERE CASE WHEN NEW.entry_id IS NULL THEN NEW.balance_cents <> 0
            OR EXISTS (SELECT 1 FROM pool_balances WHERE pool_id = NEW.pool_id AND table_key = NEW.table_key)
        ELSE NOT EXISTS (SELECT 1 FROM ledger_entries WHERE id = NEW.entry_id AND pool_id = NEW.pool_id
                AND COALESCE(table_id, 0) = NEW.table_key AND amount_cents = NEW.balance_cents)
            OR EXISTS (SELECT 1 FROM pool_balances WHERE pool_id = NEW.pool_id AND table_key = NEW.table_key
                AND COALESCE(entry_id, 0) >= NEW.entry_id)
        END;
END;
CREATE TRIGGER pool_balances_changed BEFORE UPDATE ON pool_balances
BEGIN
    SELECT RAISE(ABORT, 'books: a pool''s balance is kept by its ledger rows')
    WHERE NEW.pool_id IS NOT OLD.pool_id OR NEW.table_key IS NOT OLD.table_key
        OR NEW.entry_id IS NULL OR NEW.entry_id <= COALESCE(OLD.entry_id, 0)
        OR NOT EXISTS (SELECT 1 FROM ledger_entries WHERE id = NEW.entry_id AND pool_id = NEW.pool_id
            AND COALESCE(table_id, 0) = NEW.table_key AND amount_cents = NEW.balance_cents - OLD.balance_cents);
END;
DROP TRIGGER ledger_pool_balance;
CREATE TRIGGER ledger_pool_balance AFTER INSERT ON ledger_entries WHEN NEW.pool_id IS NOT NULL
BEGIN
    INSERT INTO pool_balances (pool_id, table_key, balance_cents, entry_id)
        VALUES (NEW.pool_id, COALESCE(NEW.table_id, 0), NEW.amount_cents, NEW.id)
        ON CONFLICT (pool_id, table_key) DO UPDATE
        SET balance_cents = balance_cents + excluded.balance_cents, entry_id = excluded.entry_id;
END;
