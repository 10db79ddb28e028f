-- Back to shares changed by any write but a delete, and to append-only
-- tables that a TRUNCATE empties.
DROP TRIGGER audit_events_no_truncate ON audit_events;
DROP TRIGGER day_corrections_no_truncate ON day_corrections;
DROP TRIGGER drop_counts_no_truncate ON drop_counts;
DROP TRIGGER gaming_day_signoffs_no_truncate ON gaming_day_signoffs;
DROP TRIGGER hand_scans_no_truncate ON hand_scans;
DROP TRIGGER hand_seats_no_truncate ON hand_seats;
DROP TRIGGER hand_voids_no_truncate ON hand_voids;
DROP TRIGGER hands_no_truncate ON hands;
DROP TRIGGER jackpot_hits_no_truncate ON jackpot_hits;
DROP TRIGGER jackpot_signoffs_no_truncate ON jackpot_signoffs;
DROP TRIGGER ledger_entries_no_truncate ON ledger_entries;
DROP TRIGGER players_no_truncate ON players;
DROP TRIGGER ruleset_versions_no_truncate ON ruleset_versions;
DROP TRIGGER seatings_no_truncate ON seatings;
DROP TRIGGER showdowns_no_truncate ON showdowns;
DROP TRIGGER sign_in_unlocks_no_truncate ON sign_in_unlocks;
DROP TRIGGER table_status_changes_no_truncate ON table_status_changes;
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
