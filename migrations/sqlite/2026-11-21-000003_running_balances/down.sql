DROP INDEX ledger_seating_latest;
ALTER TABLE ledger_entries DROP COLUMN balance_after_cents;
