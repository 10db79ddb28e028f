DROP INDEX ledger_hand;
CREATE INDEX ledger_hand ON ledger_entries (hand_id);
