-- Back to shares changed by any write but a delete.
DROP TRIGGER ledger_pool_balance;
CREATE TRIGGER ledger_pool_balance AFTER INSERT ON ledger_entries WHEN NEW.pool_id IS NOT NULL
BEGIN
    INSERT INTO pool_balances (pool_id, table_key, balance_cents)
        VALUES (NEW.pool_id, COALESCE(NEW.table_id, 0), NEW.amount_cents)
        ON CONFLICT (pool_id, table_key) DO UPDATE SET balance_cents = balance_cents + excluded.balance_cents;
END;
DROP TRIGGER pool_balances_changed;
DROP TRIGGER pool_balances_written;
ALTER TABLE pool_balances DROP COLUMN entry_id;
