-- The books guarded by the database itself (issue 12). SQLite cannot add a
-- CHECK constraint to an existing table, so the checks are BEFORE INSERT
-- triggers; each refusal starts with "books:" (the service answers 409).
-- Money limit: 10^12 in money, 10^14 in cents.

-- Per-pair stakes are part of the ruleset (a floor decision): JSON
-- [{"seats": [1, 3], "unit_cents": 1000}, ...].
ALTER TABLE ruleset_versions ADD COLUMN pair_units TEXT NOT NULL DEFAULT '[]';
-- Who set a user's current password (their own id when they chose it; NULL:
-- the command line or before this column existed).
ALTER TABLE users ADD COLUMN password_set_by BIGINT REFERENCES users (id);
-- An API token carries a subset of its user's roles and dealer tables
-- (comma-separated; NULL: all of them) and may expire.
ALTER TABLE api_tokens ADD COLUMN roles TEXT;
ALTER TABLE api_tokens ADD COLUMN tables TEXT;
ALTER TABLE api_tokens ADD COLUMN expires_at TIMESTAMP;

-- A jackpot contribution already locked into a hit that stands is not taken
-- back from the pool by a void: the house refunds it to the players.
-- A row is reversed (or refunded) at most once.
CREATE UNIQUE INDEX ledger_reversed_once ON ledger_entries (reverses_id) WHERE reverses_id IS NOT NULL;
CREATE INDEX ledger_pool_latest ON ledger_entries (pool_id, id);

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

-- A jackpot hit is worth something.
CREATE TRIGGER jackpot_hits_guard BEFORE INSERT ON jackpot_hits
BEGIN
    SELECT RAISE(ABORT, 'books: a jackpot hit is more than zero and within the money limit')
    WHERE NEW.amount_cents NOT BETWEEN 1 AND 100000000000000;
END;

-- Two sign-offs by two different people; a hit is decided once.
CREATE TRIGGER signoffs_guard BEFORE INSERT ON jackpot_signoffs
BEGIN
    SELECT RAISE(ABORT, 'books: a jackpot hit is decided once')
    WHERE EXISTS (SELECT 1 FROM jackpot_signoffs
        WHERE hit_id = NEW.hit_id AND action IN ('verify', 'reject'));
    SELECT RAISE(ABORT, 'books: a jackpot hit is verified after its approval, by someone else')
    WHERE NEW.action = 'verify' AND NOT EXISTS (SELECT 1 FROM jackpot_signoffs
        WHERE hit_id = NEW.hit_id AND action = 'approve' AND user_id <> NEW.user_id);
END;

-- Pools, rulesets and hands as written stay as written.
CREATE TRIGGER pools_guard BEFORE INSERT ON pools
BEGIN
    SELECT RAISE(ABORT, 'books: a pool seed is zero or more, within the money limit')
    WHERE NEW.seed_cents NOT BETWEEN 0 AND 100000000000000;
END;
CREATE TRIGGER ruleset_versions_guard BEFORE INSERT ON ruleset_versions
BEGIN
    SELECT RAISE(ABORT, 'books: a unit, rake or jackpot part is past the money limit')
    WHERE NEW.unit_cents > 100000000000000 OR NEW.rake_cents > 100000000000000;
END;
CREATE TRIGGER hand_seats_guard BEFORE INSERT ON hand_seats
BEGIN
    SELECT RAISE(ABORT, 'books: a stack at the start of a hand is zero or more, within the money limit')
    WHERE NEW.stack_start_cents NOT BETWEEN 0 AND 100000000000000
        OR NEW.exposure_start_cents NOT BETWEEN 0 AND 100000000000000;
END;
CREATE TRIGGER hands_no_update BEFORE UPDATE ON hands
BEGIN SELECT RAISE(ABORT, 'books: hands are append-only'); END;
CREATE TRIGGER hands_no_delete BEFORE DELETE ON hands
BEGIN SELECT RAISE(ABORT, 'books: hands are append-only'); END;
CREATE TRIGGER hand_seats_no_update BEFORE UPDATE ON hand_seats
BEGIN SELECT RAISE(ABORT, 'books: hand seats are append-only'); END;
CREATE TRIGGER hand_seats_no_delete BEFORE DELETE ON hand_seats
BEGIN SELECT RAISE(ABORT, 'books: hand seats are append-only'); END;
CREATE TRIGGER showdowns_no_update BEFORE UPDATE ON showdowns
BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;
CREATE TRIGGER showdowns_no_delete BEFORE DELETE ON showdowns
BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;
CREATE TRIGGER jackpot_hits_no_update BEFORE UPDATE ON jackpot_hits
BEGIN SELECT RAISE(ABORT, 'books: jackpot hits are append-only'); END;
CREATE TRIGGER jackpot_hits_no_delete BEFORE DELETE ON jackpot_hits
BEGIN SELECT RAISE(ABORT, 'books: jackpot hits are append-only'); END;
CREATE TRIGGER hand_voids_no_update BEFORE UPDATE ON hand_voids
BEGIN SELECT RAISE(ABORT, 'books: voids are append-only'); END;
CREATE TRIGGER hand_voids_no_delete BEFORE DELETE ON hand_voids
BEGIN SELECT RAISE(ABORT, 'books: voids are append-only'); END;
CREATE TRIGGER ruleset_versions_no_update BEFORE UPDATE ON ruleset_versions
BEGIN SELECT RAISE(ABORT, 'books: ruleset versions are append-only'); END;
CREATE TRIGGER ruleset_versions_no_delete BEFORE DELETE ON ruleset_versions
BEGIN SELECT RAISE(ABORT, 'books: ruleset versions are append-only'); END;
CREATE TRIGGER seatings_no_update BEFORE UPDATE ON seatings
BEGIN SELECT RAISE(ABORT, 'books: seatings are append-only'); END;
CREATE TRIGGER seatings_no_delete BEFORE DELETE ON seatings
BEGIN SELECT RAISE(ABORT, 'books: seatings are append-only'); END;
CREATE TRIGGER hand_scans_no_update BEFORE UPDATE ON hand_scans
BEGIN SELECT RAISE(ABORT, 'books: scans are append-only'); END;
CREATE TRIGGER hand_scans_no_delete BEFORE DELETE ON hand_scans
BEGIN SELECT RAISE(ABORT, 'books: scans are append-only'); END;

-- The older append-only guards speak as the books too.
DROP TRIGGER ledger_no_update;
DROP TRIGGER ledger_no_delete;
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'books: the ledger is append-only'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'books: the ledger is append-only'); END;
DROP TRIGGER audit_no_update;
DROP TRIGGER audit_no_delete;
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit_events
BEGIN SELECT RAISE(ABORT, 'books: the audit trail is append-only'); END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit_events
BEGIN SELECT RAISE(ABORT, 'books: the audit trail is append-only'); END;
DROP TRIGGER signoffs_no_update;
DROP TRIGGER signoffs_no_delete;
CREATE TRIGGER signoffs_no_update BEFORE UPDATE ON jackpot_signoffs
BEGIN SELECT RAISE(ABORT, 'books: jackpot sign-offs are append-only'); END;
CREATE TRIGGER signoffs_no_delete BEFORE DELETE ON jackpot_signoffs
BEGIN SELECT RAISE(ABORT, 'books: jackpot sign-offs are append-only'); END;
