-- Balances are sums over a seating's or a pool's rows: covering indexes make
-- each sum a range scan of that account's rows only.
CREATE INDEX ledger_seating_amount ON ledger_entries (seating_id, amount_cents);
CREATE INDEX ledger_pool_amount ON ledger_entries (pool_id, amount_cents);
DROP INDEX ledger_seating;
DROP INDEX ledger_pool;
-- Whether a seating has cashed out: one index probe.
CREATE INDEX ledger_seating_kind ON ledger_entries (seating_id, kind);
