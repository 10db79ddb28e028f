-- Issue 16, the back office's forms: an admin unlocks a user locked out by
-- failed sign-ins (a row here restarts the count of their failures; it is
-- also in the audit trail); a pool's shares and re-seed amount can be
-- changed, within the same bounds as when it was made.
CREATE TABLE sign_in_unlocks (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL,
    unlocked_by BIGINT REFERENCES users (id),
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX sign_in_unlocks_user ON sign_in_unlocks (username, created_at);
CREATE TRIGGER sign_in_unlocks_no_update BEFORE UPDATE ON sign_in_unlocks
BEGIN SELECT RAISE(ABORT, 'books: unlocks are append-only'); END;
CREATE TRIGGER sign_in_unlocks_no_delete BEFORE DELETE ON sign_in_unlocks
BEGIN SELECT RAISE(ABORT, 'books: unlocks are append-only'); END;

CREATE TRIGGER pools_update_guard BEFORE UPDATE ON pools
BEGIN
    SELECT RAISE(ABORT, 'books: a pool seed is zero or more, within the money limit')
    WHERE NEW.seed_cents NOT BETWEEN 0 AND 100000000000000;
    SELECT RAISE(ABORT, 'books: a pool''s shares are percentages adding up to 100')
    WHERE NEW.loser_share_pct NOT BETWEEN 0 AND 100 OR NEW.winner_share_pct NOT BETWEEN 0 AND 100
        OR NEW.others_share_pct NOT BETWEEN 0 AND 100
        OR NEW.loser_share_pct + NEW.winner_share_pct + NEW.others_share_pct <> 100;
END;

-- A pool's history (made, changed, seeded) for its page: a few rows among
-- the audit trail's millions.
CREATE INDEX audit_pool_changes ON audit_events (target, id)
    WHERE action IN ('pool_create', 'pool_edit', 'pool_seed');
