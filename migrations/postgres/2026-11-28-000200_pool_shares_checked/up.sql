-- A pool's shares (`pool_balances`) are kept by its ledger rows only, as a
-- seating's stack is (2026-11-28-000100): until now a share could be
-- changed by any UPDATE, emptied by TRUNCATE, and moved by a pool row that
-- an INSERT then skipped (`ON CONFLICT DO NOTHING`: the share moves in a
-- BEFORE trigger, before its row is written).
--
-- Each share now names the ledger row that last moved it (`entry_id`;
-- none for a share opened empty). `pool_balances_guard` refuses a share
-- written from outside a trigger (but a new, empty one: a table's share is
-- opened before its first row) and TRUNCATE (a delete is refused since
-- 2026-11-24-000070). At commit
-- `pool_balances_checked` checks each write: a new share is empty or holds
-- exactly the row it names; a change adds exactly the amount of the row it
-- names, a row of that pool and table newer than the one before.
--
-- Each share is set from the ledger once more here (the sum of its rows, and
-- its latest row): the rows are the books, a share only their sum, and from
-- now on no write could mend a share that was wrong.
ALTER TABLE pool_balances ADD COLUMN entry_id BIGINT;
UPDATE pool_balances s SET balance_cents = COALESCE(r.total, 0), entry_id = r.latest
    FROM pool_balances p LEFT JOIN (
        SELECT pool_id, COALESCE(table_id, 0) AS table_key, SUM(amount_cents) AS total, MAX(id) AS latest
        FROM ledger_entries WHERE pool_id IS NOT NULL GROUP BY pool_id, COALESCE(table_id, 0)
    ) r ON r.pool_id = p.pool_id AND r.table_key = p.table_key
    WHERE s.pool_id = p.pool_id AND s.table_key = p.table_key;

CREATE FUNCTION pool_balances_guard() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' OR (pg_trigger_depth() < 2
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

-- Every append-only table refuses TRUNCATE too (a row trigger does not see
-- it): the ledger, the hands, the audit trail and the rest of the books.
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER day_corrections_no_truncate BEFORE TRUNCATE ON day_corrections
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER drop_counts_no_truncate BEFORE TRUNCATE ON drop_counts
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER gaming_day_signoffs_no_truncate BEFORE TRUNCATE ON gaming_day_signoffs
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER hand_scans_no_truncate BEFORE TRUNCATE ON hand_scans
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER hand_seats_no_truncate BEFORE TRUNCATE ON hand_seats
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER hand_voids_no_truncate BEFORE TRUNCATE ON hand_voids
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER hands_no_truncate BEFORE TRUNCATE ON hands
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER jackpot_hits_no_truncate BEFORE TRUNCATE ON jackpot_hits
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER jackpot_signoffs_no_truncate BEFORE TRUNCATE ON jackpot_signoffs
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER players_no_truncate BEFORE TRUNCATE ON players
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER ruleset_versions_no_truncate BEFORE TRUNCATE ON ruleset_versions
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER seatings_no_truncate BEFORE TRUNCATE ON seatings
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER showdowns_no_truncate BEFORE TRUNCATE ON showdowns
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER sign_in_unlocks_no_truncate BEFORE TRUNCATE ON sign_in_unlocks
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
CREATE TRIGGER table_status_changes_no_truncate BEFORE TRUNCATE ON table_status_changes
    FOR EACH STATEMENT EXECUTE FUNCTION books_append_only();
