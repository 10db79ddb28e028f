PRAGMA foreign_keys = OFF;
BEGIN;
-- A hand stored in the compact form cannot go back to the old columns here
-- (its result is compressed): refuse rather than lose it.
CREATE TEMP TABLE compact_hands_block_the_downgrade (n INTEGER CHECK (n = 0));
INSERT INTO compact_hands_block_the_downgrade SELECT COUNT(*) FROM showdowns WHERE showdown_z IS NOT NULL;
DROP TABLE compact_hands_block_the_downgrade;
DROP TRIGGER ledger_pool_balance;
DROP TRIGGER pools_balance_guard;
DROP TRIGGER ledger_guard;
ALTER TABLE pools DROP COLUMN balance_cents;
CREATE TRIGGER ledger_guard BEFORE INSERT ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'books: unknown ledger kind')
    WHERE NEW.kind NOT IN ('buy_in', 'add_on', 'cash_out', 'rake', 'house_rake', 'jackpot_contribution',
        'settlement', 'pool_seed', 'jackpot_lock', 'reversal', 'jackpot_payout', 'jackpot_return',
        'contribution_refund');
    SELECT RAISE(ABORT, 'books: an amount is past the money limit')
    WHERE NEW.amount_cents NOT BETWEEN -100000000000000 AND 100000000000000;
    SELECT RAISE(ABORT, 'books: buy-ins, add-ons, contributions, payouts and returns are positive')
    WHERE NEW.kind IN ('buy_in', 'add_on', 'jackpot_contribution', 'jackpot_payout', 'jackpot_return')
        AND NEW.amount_cents <= 0;
    SELECT RAISE(ABORT, 'books: rake, locks and refunds are negative')
    WHERE NEW.kind IN ('rake', 'jackpot_lock', 'contribution_refund') AND NEW.amount_cents >= 0;
    SELECT RAISE(ABORT, 'books: a cash-out, house share or seed has the wrong sign')
    WHERE (NEW.kind = 'cash_out' AND NEW.amount_cents > 0)
        OR (NEW.kind IN ('house_rake', 'pool_seed') AND NEW.amount_cents < 0);
    SELECT RAISE(ABORT, 'books: a settlement or reversal row moves money')
    WHERE NEW.kind IN ('settlement', 'reversal') AND NEW.amount_cents = 0;
    SELECT RAISE(ABORT, 'books: a seat row needs its seat, a pool row its pool')
    WHERE (NEW.kind IN ('buy_in', 'add_on', 'cash_out', 'rake', 'settlement', 'jackpot_payout')
            AND NEW.seating_id IS NULL)
        OR (NEW.kind IN ('jackpot_contribution', 'pool_seed', 'jackpot_lock', 'jackpot_return')
            AND NEW.pool_id IS NULL)
        OR (NEW.kind IN ('house_rake', 'contribution_refund')
            AND (NEW.seating_id IS NOT NULL OR NEW.pool_id IS NOT NULL))
        OR (NEW.kind IN ('jackpot_lock', 'jackpot_payout') AND NEW.jackpot_hit_id IS NULL);
    -- A stack never goes below zero or past the limit, and a seat row's
    -- running stack is its previous stack plus its amount.
    SELECT RAISE(ABORT, 'books: a seat row must carry the stack after it, and only a seat row')
    WHERE (NEW.seating_id IS NULL) <> (NEW.balance_after_cents IS NULL);
    SELECT RAISE(ABORT, 'books: a stack cannot go below zero or past the money limit')
    WHERE NEW.balance_after_cents NOT BETWEEN 0 AND 100000000000000;
    SELECT RAISE(ABORT, 'books: a seat row''s stack after it must be its previous stack plus its amount')
    WHERE NEW.seating_id IS NOT NULL AND NEW.balance_after_cents IS NOT COALESCE((
        SELECT balance_after_cents FROM ledger_entries
        WHERE seating_id = NEW.seating_id ORDER BY id DESC LIMIT 1), 0) + NEW.amount_cents;
    SELECT RAISE(ABORT, 'books: a cash-out takes the whole stack')
    WHERE NEW.kind = 'cash_out' AND NEW.balance_after_cents <> 0;
    -- A reversal (or refund) is the exact negative of the row it names, on
    -- the same account.
    SELECT RAISE(ABORT, 'books: a reversal or refund must name the row it corrects')
    WHERE (NEW.kind IN ('reversal', 'contribution_refund')) <> (NEW.reverses_id IS NOT NULL);
    SELECT RAISE(ABORT, 'books: a reversal is the exact negative of the row it names, on the same account')
    WHERE NEW.reverses_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM ledger_entries r WHERE r.id = NEW.reverses_id AND r.amount_cents = -NEW.amount_cents
            AND ((NEW.kind = 'reversal' AND r.seating_id IS NEW.seating_id AND r.pool_id IS NEW.pool_id)
                OR (NEW.kind = 'contribution_refund' AND r.kind = 'jackpot_contribution')));
    -- A pool never goes below zero.
    SELECT RAISE(ABORT, 'books: a jackpot pool cannot go below zero')
    WHERE NEW.pool_id IS NOT NULL AND NEW.amount_cents < 0 AND (
        SELECT COALESCE(SUM(amount_cents), 0) FROM ledger_entries WHERE pool_id = NEW.pool_id
    ) + NEW.amount_cents < 0;
END;
DROP INDEX ledger_hits;
DROP INDEX seatings_seated;
DROP TABLE seating_totals;
DROP TABLE pool_days;
DROP TABLE table_days;
DROP INDEX seatings_table;
CREATE INDEX seatings_table ON seatings (table_id, seat);
DROP INDEX audit_sign_ins_by_ip;
DROP INDEX audit_sign_ins_by_user;
CREATE INDEX audit_events_action ON audit_events (action, username, created_at);
CREATE INDEX audit_events_ip ON audit_events (action, ip, created_at);
CREATE INDEX audit_events_time ON audit_events (created_at);
DROP INDEX ledger_pool_locks;
DROP INDEX ledger_cash_outs;
DROP INDEX ledger_seating_latest;
CREATE INDEX ledger_seating_amount ON ledger_entries (seating_id, amount_cents);
CREATE INDEX ledger_seating_kind ON ledger_entries (seating_id, kind);
CREATE INDEX ledger_seating_latest ON ledger_entries (seating_id, id);
CREATE INDEX ledger_pool_amount ON ledger_entries (pool_id, amount_cents);
CREATE INDEX ledger_pool_latest ON ledger_entries (pool_id, id);
DROP TRIGGER showdowns_no_update;
DROP TRIGGER showdowns_no_delete;
CREATE TABLE showdowns_old (
    id INTEGER PRIMARY KEY,
    hand_id BIGINT NOT NULL UNIQUE REFERENCES hands (id),
    idempotency_key TEXT,
    request_hash TEXT NOT NULL,
    engine_input TEXT NOT NULL,
    result TEXT NOT NULL,
    committed_at TIMESTAMP NOT NULL
);
INSERT INTO showdowns_old SELECT id, hand_id, idempotency_key, request_hash, engine_input, result, committed_at
    FROM showdowns WHERE engine_input IS NOT NULL;
DROP TABLE showdowns;
ALTER TABLE showdowns_old RENAME TO showdowns;
CREATE TRIGGER showdowns_no_update BEFORE UPDATE ON showdowns
BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;
CREATE TRIGGER showdowns_no_delete BEFORE DELETE ON showdowns
BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;
COMMIT;
PRAGMA foreign_keys = ON;
