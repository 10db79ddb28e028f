-- Compact storage and daily rollups (issue 17).
--
-- A showdown is stored as what the dealer entered (each seat's rows and
-- choices) and the result as paid (the engine's JSON), together, deflated
-- with a preset dictionary (`showdown_z`, about 200 bytes for four seats);
-- the rest of the engine's input (preset and revision, unit, rake, stacks,
-- dealer, exposures, options, per-pair stakes) is the hand's and its ruleset
-- version's. Showdowns committed before keep their full JSON in the old
-- columns, now nullable.
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE showdowns_new (
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
INSERT INTO showdowns_new (id, hand_id, idempotency_key, request_hash, engine_input, result, committed_at)
    SELECT id, hand_id, idempotency_key, request_hash, engine_input, result, committed_at FROM showdowns;
DROP TABLE showdowns;
ALTER TABLE showdowns_new RENAME TO showdowns;
CREATE TRIGGER showdowns_no_update BEFORE UPDATE ON showdowns
BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;
CREATE TRIGGER showdowns_no_delete BEFORE DELETE ON showdowns
BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;

-- Indexes that only what is asked uses: a seat's latest row (its stack), a
-- seating's cash-out, a pool's rows (its balance) and its locks, a hand's and
-- a table's rows; the sign-in counters only on sign-in events.
DROP INDEX ledger_seating_amount;
DROP INDEX ledger_seating_kind;
DROP INDEX ledger_seating_latest;
DROP INDEX ledger_pool_amount;
DROP INDEX ledger_pool_latest;
CREATE INDEX ledger_seating_latest ON ledger_entries (seating_id, id) WHERE seating_id IS NOT NULL;
CREATE INDEX ledger_cash_outs ON ledger_entries (seating_id) WHERE kind = 'cash_out';
CREATE INDEX ledger_pool_locks ON ledger_entries (pool_id, id) WHERE kind = 'jackpot_lock';
DROP INDEX audit_events_action;
DROP INDEX audit_events_ip;
DROP INDEX audit_events_time;
CREATE INDEX audit_sign_ins_by_user ON audit_events (action, username, created_at)
    WHERE action IN ('login', 'login_attempt', 'login_failed');
CREATE INDEX audit_sign_ins_by_ip ON audit_events (action, ip, created_at)
    WHERE action IN ('login', 'login_attempt', 'login_failed');
DROP INDEX seatings_table;
CREATE INDEX seatings_table ON seatings (table_id, seat, id);

-- Daily rollups, kept in the same transaction as the rows they sum (a
-- commit, a void, a seat's money, a jackpot decision): reports read these,
-- never the whole ledger.
--
-- A table's gaming day: hands committed (not voided), rake, the house's and
-- the jackpot's shares (by the day the hand was committed: a void takes its
-- hand out of that day), and what it put into its pool (by the day written).
CREATE TABLE table_days (
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    gaming_day TEXT NOT NULL,
    hands BIGINT NOT NULL DEFAULT 0,
    rake_cents BIGINT NOT NULL DEFAULT 0,
    house_cents BIGINT NOT NULL DEFAULT 0,
    jackpot_cents BIGINT NOT NULL DEFAULT 0,
    pool_id BIGINT REFERENCES pools (id),
    pool_in_cents BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, gaming_day)
);
-- A pool's day: its own rows (seeds, locks, returns, reversals of those) by
-- the day written; payouts of its hits.
CREATE TABLE pool_days (
    pool_id BIGINT NOT NULL REFERENCES pools (id),
    gaming_day TEXT NOT NULL,
    seeds_cents BIGINT NOT NULL DEFAULT 0,
    locked_cents BIGINT NOT NULL DEFAULT 0,
    returned_cents BIGINT NOT NULL DEFAULT 0,
    other_cents BIGINT NOT NULL DEFAULT 0,
    paid_out_cents BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (pool_id, gaming_day)
);
-- A seating's money so far: buy-in, add-ons, cash-out, rake paid, jackpot
-- payouts (each net of reversals); its stack is its latest ledger row.
CREATE TABLE seating_totals (
    seating_id BIGINT PRIMARY KEY REFERENCES seatings (id),
    buy_in_cents BIGINT NOT NULL DEFAULT 0,
    add_ons_cents BIGINT NOT NULL DEFAULT 0,
    cash_out_cents BIGINT NOT NULL DEFAULT 0,
    rake_cents BIGINT NOT NULL DEFAULT 0,
    payouts_cents BIGINT NOT NULL DEFAULT 0
);
-- A pool's balance is kept on its row by the database itself, as each of
-- its ledger rows is written: the guard against a negative pool and every
-- page that shows a balance read one row, not the pool's whole history.
ALTER TABLE pools ADD COLUMN balance_cents BIGINT NOT NULL DEFAULT 0;
UPDATE pools SET balance_cents = (SELECT COALESCE(SUM(amount_cents), 0) FROM ledger_entries WHERE pool_id = pools.id);
CREATE TRIGGER ledger_pool_balance AFTER INSERT ON ledger_entries WHEN NEW.pool_id IS NOT NULL
BEGIN
    UPDATE pools SET balance_cents = balance_cents + NEW.amount_cents WHERE id = NEW.pool_id;
END;
CREATE TRIGGER pools_balance_guard BEFORE UPDATE OF balance_cents ON pools
BEGIN
    SELECT RAISE(ABORT, 'books: a jackpot pool cannot go below zero') WHERE NEW.balance_cents < 0;
END;
DROP TRIGGER ledger_guard;
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
    -- A pool never goes below zero (its balance is kept on the pool's row).
    SELECT RAISE(ABORT, 'books: a jackpot pool cannot go below zero')
    WHERE NEW.pool_id IS NOT NULL AND NEW.amount_cents < 0
        AND (SELECT balance_cents FROM pools WHERE id = NEW.pool_id) + NEW.amount_cents < 0;
END;
-- The rows a hit names (its lock, payouts, returns): found without a scan.
CREATE INDEX ledger_hits ON ledger_entries (jackpot_hit_id) WHERE jackpot_hit_id IS NOT NULL;
-- The days of a pool's tables; sessions by when they were seated.
CREATE INDEX table_days_pool ON table_days (pool_id, gaming_day);
CREATE INDEX seatings_seated ON seatings (seated_at);
COMMIT;
PRAGMA foreign_keys = ON;
