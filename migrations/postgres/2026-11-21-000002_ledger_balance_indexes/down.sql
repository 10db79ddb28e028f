DROP INDEX ledger_seating_kind;
CREATE INDEX ledger_seating ON ledger_entries (seating_id);
CREATE INDEX ledger_pool ON ledger_entries (pool_id);
DROP INDEX ledger_seating_amount;
DROP INDEX ledger_pool_amount;
