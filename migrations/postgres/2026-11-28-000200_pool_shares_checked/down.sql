-- Back to shares changed by any write but a delete.
CREATE OR REPLACE FUNCTION ledger_pool_balance() RETURNS trigger AS $$
BEGIN
    INSERT INTO pool_balances (pool_id, table_key, balance_cents)
        VALUES (NEW.pool_id, COALESCE(NEW.table_id, 0), NEW.amount_cents)
        ON CONFLICT (pool_id, table_key) DO UPDATE SET balance_cents = pool_balances.balance_cents + EXCLUDED.balance_cents;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER pool_balances_checked ON pool_balances;
DROP FUNCTION pool_balances_checked();
DROP TRIGGER pool_balances_no_truncate ON pool_balances;
DROP TRIGGER pool_balances_guard ON pool_balances;
DROP FUNCTION pool_balances_guard();
ALTER TABLE pool_balances DROP COLUMN entry_id;
