PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE showdowns_old (
    id INTEGER PRIMARY KEY,
    hand_id BIGINT NOT NULL UNIQUE REFERENCES hands (id),
    idempotency_key TEXT,
    request_hash TEXT,
    engine_input TEXT,
    result TEXT,
    committed_at TIMESTAMP NOT NULL,
    showdown_z BLOB,
    CHECK ((engine_input IS NULL) = (showdown_z IS NOT NULL))
);
INSERT INTO showdowns_old (hand_id, idempotency_key, request_hash, engine_input, result, committed_at, showdown_z)
    SELECT hand_id, idempotency_key, request_hash, engine_input, result, committed_at, showdown_z
    FROM showdowns ORDER BY rowid;
DROP TABLE showdowns;
ALTER TABLE showdowns_old RENAME TO showdowns;
CREATE TRIGGER showdowns_no_update BEFORE UPDATE ON showdowns
BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;
CREATE TRIGGER showdowns_no_delete BEFORE DELETE ON showdowns
BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;
COMMIT;
PRAGMA foreign_keys = ON;
