ALTER INDEX ledger_entries_pkey RESET (fillfactor);
ALTER INDEX audit_events_pkey RESET (fillfactor);
ALTER INDEX hands_pkey RESET (fillfactor);
ALTER TABLE showdowns DROP CONSTRAINT showdowns_pkey;
ALTER TABLE showdowns ADD CONSTRAINT showdowns_hand_id_key UNIQUE (hand_id);
ALTER TABLE showdowns ADD COLUMN id BIGSERIAL PRIMARY KEY;
