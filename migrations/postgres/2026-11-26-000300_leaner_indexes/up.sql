-- Storage (issue 17): no index that no query needs, and one that a report
-- did need.
--
-- A table's ledger is read through its seatings, hands and hits (each
-- indexed already); the index on the ledger's table_id only served that
-- read.
DROP INDEX ledger_table;
-- The jackpot report marks a pool's seeds: without this it read the whole
-- ledger. Seeds are rare, so the index is small.
CREATE INDEX ledger_pool_seeds ON ledger_entries (pool_id, id) WHERE kind = 'pool_seed';
-- The jackpot report's hits of a pool in a range.
CREATE INDEX jackpot_hits_pool ON jackpot_hits (pool_id, created_at);
