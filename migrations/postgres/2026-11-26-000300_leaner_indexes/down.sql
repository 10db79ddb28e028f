DROP INDEX jackpot_hits_pool;
DROP INDEX ledger_pool_seeds;
CREATE INDEX ledger_table ON ledger_entries (table_id);
