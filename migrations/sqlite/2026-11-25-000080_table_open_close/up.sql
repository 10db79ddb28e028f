-- Tables opened and closed by the floor (issue 16): every change is a row
-- of its history, who and when, never changed afterwards; a table's status
-- is its latest row (a table without one is open, as every new table is).
CREATE TABLE table_status_changes (
    id INTEGER PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    changed_by BIGINT REFERENCES users (id),
    note TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX table_status_changes_latest ON table_status_changes (table_id, id);
CREATE TRIGGER table_status_changes_no_update BEFORE UPDATE ON table_status_changes
BEGIN SELECT RAISE(ABORT, 'books: table status changes are append-only'); END;
CREATE TRIGGER table_status_changes_no_delete BEFORE DELETE ON table_status_changes
BEGIN SELECT RAISE(ABORT, 'books: table status changes are append-only'); END;
