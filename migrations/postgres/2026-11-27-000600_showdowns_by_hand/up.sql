-- Issue 17, storage. A hand has at most one showdown: the showdown is keyed
-- by its hand, and its own id (used by no query, referenced by no row) and
-- that id's key go. Rows written before keep the dropped column's bytes;
-- new rows do not have it.
ALTER TABLE showdowns DROP COLUMN id;
ALTER TABLE showdowns ADD CONSTRAINT showdowns_pkey PRIMARY KEY (hand_id);
ALTER TABLE showdowns DROP CONSTRAINT showdowns_hand_id_key;

-- Keys taken in order at insert (ids): new entries go to the rightmost
-- page, which a split leaves 90% full by default; full pages instead. Not
-- the showdowns' key: hands are committed a little out of the order they
-- were started in, and a late key in a full page splits it in two halves.
ALTER INDEX ledger_entries_pkey SET (fillfactor = 100);
ALTER INDEX audit_events_pkey SET (fillfactor = 100);
ALTER INDEX hands_pkey SET (fillfactor = 100);
