-- Storage (issue 17): a hand's ledger rows are found through a block-range
-- index. Only a void reads the ledger by hand, and a hand's rows are written
-- together, close to the rows of the hands started about when it was: each
-- range of 16 pages (128 kB) keeps the least and greatest hand in it. On a
-- room's 100,000 hands the index is 32 kB where the B-tree was 12 MB (122
-- bytes a hand), and a hand's rows are read in about 1.3 ms instead of
-- 0.3 ms (the query plans are in docs/benchmarks.md). `autosummarize`: each
-- range is summed up as soon as it is full, so a void never reads more than
-- the last range unsummarised.
DROP INDEX ledger_hand;
CREATE INDEX ledger_hand ON ledger_entries USING brin (hand_id) WITH (pages_per_range = 16, autosummarize = on);
