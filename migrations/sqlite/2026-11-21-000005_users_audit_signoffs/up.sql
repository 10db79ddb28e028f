-- Who may do what: users with argon2id password hashes and a set of roles,
-- the tables a dealer is assigned to, API tokens (stored as SHA-256 hashes).
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL,
    roles TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    active BOOLEAN NOT NULL,
    -- Raised when the password, roles or status change: older sessions end.
    session_epoch INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE dealer_tables (
    user_id BIGINT NOT NULL REFERENCES users (id),
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    PRIMARY KEY (user_id, table_id)
);

CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    token_hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP
);

-- Every state change, with who and when. Append-only.
CREATE TABLE audit_events (
    id INTEGER PRIMARY KEY,
    created_at TIMESTAMP NOT NULL,
    user_id BIGINT REFERENCES users (id),
    username TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT NOT NULL,
    ip TEXT NOT NULL
);
CREATE INDEX audit_events_action ON audit_events (action, username, created_at);
CREATE INDEX audit_events_ip ON audit_events (action, ip, created_at);
CREATE INDEX audit_events_time ON audit_events (created_at);
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit_events
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit_events
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;

-- Jackpot hit decisions: approve (floor), verify (a second floor or admin
-- user), reject (with a reason). Append-only; a hit's status follows from them.
CREATE TABLE jackpot_signoffs (
    id INTEGER PRIMARY KEY,
    hit_id BIGINT NOT NULL REFERENCES jackpot_hits (id),
    action TEXT NOT NULL CHECK (action IN ('approve', 'verify', 'reject')),
    user_id BIGINT NOT NULL REFERENCES users (id),
    reason TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (hit_id, action)
);
CREATE TRIGGER signoffs_no_update BEFORE UPDATE ON jackpot_signoffs
BEGIN SELECT RAISE(ABORT, 'jackpot sign-offs are append-only'); END;
CREATE TRIGGER signoffs_no_delete BEFORE DELETE ON jackpot_signoffs
BEGIN SELECT RAISE(ABORT, 'jackpot sign-offs are append-only'); END;

-- Service-wide secrets shared by every app server (the session cookie key).
CREATE TABLE app_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- How an approved hit is shared (percent; the rest of a cent goes to the loser).
ALTER TABLE pools ADD COLUMN loser_share_pct INTEGER NOT NULL DEFAULT 50;
ALTER TABLE pools ADD COLUMN winner_share_pct INTEGER NOT NULL DEFAULT 25;
ALTER TABLE pools ADD COLUMN others_share_pct INTEGER NOT NULL DEFAULT 25;

ALTER TABLE hand_voids ADD COLUMN voided_by BIGINT REFERENCES users (id);
ALTER TABLE ruleset_versions ADD COLUMN created_by BIGINT REFERENCES users (id);
