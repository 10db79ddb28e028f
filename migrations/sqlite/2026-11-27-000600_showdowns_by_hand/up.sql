-- Issue 17, storage. A hand has at most one showdown: the showdown is keyed
-- by its hand, and its declared id (used by no query, referenced by no row)
-- goes. On SQLite the rows keep their place in the table's implicit rowid
-- (the order they were committed in, so that the table only grows at its
-- end) and the hand stays unique by its index: what is stored is the same.
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE showdowns_new (
    hand_id BIGINT NOT NULL UNIQUE REFERENCES hands (id),
    idempotency_key TEXT,
    request_hash TEXT,
    engine_input TEXT,
    result TEXT,
    committed_at TIMESTAMP NOT NULL,
    showdown_z BLOB,
    CHECK ((engine_input IS NULL) = (showdown_z IS NOT NULL))
);
INSERT INTO showdowns_new (hand_id, idempotency_key, request_hash, engine_input, result, committed_at, showdown_z)
    SELECT hand_id, idempotency_key, request_hash, engine_input, result, committed_at, showdown_z
    FROM showdowns ORDER BY id;
DROP TABLE showdowns;
ALTER TABLE showdowns_new RENAME TO showdowns;
CREATE TRIGGER showdowns_no_update BEFORE UPDATE ON showdowns
BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;
CREATE TRIGGER showdowns_no_delete BEFORE DELETE ON showdowns
BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;
COMMIT;
PRAGMA foreign_keys = ON;
