-- A seat row carries the seating's stack after it, so a stack is one index
-- probe (the seating's latest row), not a sum over its history.
ALTER TABLE ledger_entries ADD COLUMN balance_after_cents BIGINT;
ALTER TABLE ledger_entries DISABLE TRIGGER ledger_no_update;
UPDATE ledger_entries SET balance_after_cents = (
    SELECT SUM(e.amount_cents) FROM ledger_entries e
    WHERE e.seating_id = ledger_entries.seating_id AND e.id <= ledger_entries.id
) WHERE seating_id IS NOT NULL;
ALTER TABLE ledger_entries ENABLE TRIGGER ledger_no_update;
CREATE INDEX ledger_seating_latest ON ledger_entries (seating_id, id);
