-- A pool's shares (`pool_balances`) are kept by its ledger rows only, as a
-- seating's stack is (2026-11-28-000100): until now a share could be
-- changed by any UPDATE, emptied by TRUNCATE, and moved by a pool row that
-- an INSERT then skipped (`ON CONFLICT DO NOTHING`: the share moves in a
-- BEFORE trigger, before its row is written).
--
-- Each share now names the ledger row that last moved it (`entry_id`;
-- none for a share opened empty). `pool_balances_guard` refuses a share
-- written from outside a trigger (but a new, empty one: a table's share is
-- opened before its first row), a deleted one and TRUNCATE. At commit
-- `pool_balances_checked` checks each write: a new share is empty or holds
-- exactly the row it names; a change adds exactly the amount of the row it
-- names, a row of that pool and table newer than the one before.
ALTER TABLE pool_balances ADD COLUMN entry_id BIGINT;
UPDATE pool_balances s SET entry_id = latest.id
    FROM (SELECT pool_id, COALESCE(table_id, 0) AS table_key, MAX(id) AS id FROM ledger_entries
          WHERE pool_id IS NOT NULL GROUP BY pool_id, COALESCE(table_id, 0)) latest
    WHERE s.pool_id = latest.pool_id AND s.table_key = latest.table_key;

CREATE FUNCTION pool_balances_guard() RETURNS trigger AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'TRUNCATE') OR (pg_trigger_depth() < 2
            AND NOT (TG_OP = 'INSERT' AND NEW.entry_id IS NULL AND NEW.balance_cents = 0)) THEN
        RAISE EXCEPTION 'books: a pool''s balance is kept by its ledger rows';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER pool_balances_guard BEFORE INSERT OR UPDATE ON pool_balances
    FOR EACH ROW EXECUTE FUNCTION pool_balances_guard();
CREATE TRIGGER pool_balances_no_truncate BEFORE TRUNCATE ON pool_balances
    FOR EACH STATEMENT EXECUTE FUNCTION pool_balances_guard();

CREATE FUNCTION pool_balances_checked() RETURNS trigger AS $$
DECLARE
    before_cents BIGINT := 0;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF NEW.pool_id <> OLD.pool_id OR NEW.table_key <> OLD.table_key
                OR NEW.entry_id IS NULL OR NEW.entry_id <= COALESCE(OLD.entry_id, 0) THEN
            RAISE EXCEPTION 'books: a pool''s balance is kept by its ledger rows';
        END IF;
        before_cents := OLD.balance_cents;
    END IF;
    IF (NEW.entry_id IS NULL AND NEW.balance_cents <> before_cents)
        OR (NEW.entry_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE id = NEW.entry_id
            AND pool_id = NEW.pool_id AND COALESCE(table_id, 0) = NEW.table_key
            AND amount_cents = NEW.balance_cents - before_cents)) THEN
        RAISE EXCEPTION 'books: a pool''s balance is kept by its ledger rows';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER pool_balances_checked AFTER INSERT OR UPDATE ON pool_balances
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pool_balances_checked();

CREATE OR REPLACE FUNCTION ledger_pool_balance() RETURNS trigger AS $$
BEGIN
    INSERT INTO pool_balances (pool_id, table_key, balance_cents, entry_id)
        VALUES (NEW.pool_id, COALESCE(NEW.table_id, 0), NEW.amount_cents, NEW.id)
        ON CONFLICT (pool_id, table_key) DO UPDATE
        SET balance_cents = pool_balances.balance_cents + EXCLUDED.balance_cents, entry_id = EXCLUDED.entry_id;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
