-- The books guarded by the database itself (issue 12): CHECK constraints
-- (NOT VALID: they hold for every row written from now on, as SQLite's
-- triggers do) and triggers for what a CHECK cannot see. Each trigger's
-- refusal starts with "books:" (the service answers 409).
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

CREATE UNIQUE INDEX ledger_reversed_once ON ledger_entries (reverses_id) WHERE reverses_id IS NOT NULL;
CREATE INDEX ledger_pool_latest ON ledger_entries (pool_id, id);

ALTER TABLE ledger_entries ADD CONSTRAINT ledger_kind CHECK (kind IN ('buy_in', 'add_on', 'cash_out', 'rake',
    'house_rake', 'jackpot_contribution', 'settlement', 'pool_seed', 'jackpot_lock', 'reversal', 'jackpot_payout',
    'jackpot_return', 'contribution_refund')) NOT VALID;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_money_limit
    CHECK (amount_cents BETWEEN -100000000000000 AND 100000000000000) NOT VALID;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_signs CHECK (
    (kind NOT IN ('buy_in', 'add_on', 'jackpot_contribution', 'jackpot_payout', 'jackpot_return') OR amount_cents > 0)
    AND (kind NOT IN ('rake', 'jackpot_lock', 'contribution_refund') OR amount_cents < 0)
    AND (kind <> 'cash_out' OR amount_cents <= 0)
    AND (kind NOT IN ('house_rake', 'pool_seed') OR amount_cents >= 0)
    AND (kind NOT IN ('settlement', 'reversal') OR amount_cents <> 0)) NOT VALID;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_accounts CHECK (
    (kind NOT IN ('buy_in', 'add_on', 'cash_out', 'rake', 'settlement', 'jackpot_payout') OR seating_id IS NOT NULL)
    AND (kind NOT IN ('jackpot_contribution', 'pool_seed', 'jackpot_lock', 'jackpot_return') OR pool_id IS NOT NULL)
    AND (kind NOT IN ('house_rake', 'contribution_refund') OR (seating_id IS NULL AND pool_id IS NULL))
    AND (kind NOT IN ('jackpot_lock', 'jackpot_payout') OR jackpot_hit_id IS NOT NULL)
    AND ((kind IN ('reversal', 'contribution_refund')) = (reverses_id IS NOT NULL))) NOT VALID;
-- A stack never goes below zero or past the limit; a cash-out takes it all.
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_stack CHECK (
    (seating_id IS NULL) = (balance_after_cents IS NULL)
    AND (balance_after_cents IS NULL OR balance_after_cents BETWEEN 0 AND 100000000000000)
    AND (kind <> 'cash_out' OR balance_after_cents = 0)) NOT VALID;

ALTER TABLE jackpot_hits ADD CONSTRAINT jackpot_hits_amount
    CHECK (amount_cents BETWEEN 1 AND 100000000000000) NOT VALID;
ALTER TABLE pools ADD CONSTRAINT pools_seed_limit CHECK (seed_cents <= 100000000000000) NOT VALID;
ALTER TABLE ruleset_versions ADD CONSTRAINT ruleset_money_limit
    CHECK (unit_cents <= 100000000000000 AND rake_cents <= 100000000000000) NOT VALID;
ALTER TABLE hand_seats ADD CONSTRAINT hand_seats_stack CHECK (
    stack_start_cents BETWEEN 0 AND 100000000000000
    AND (exposure_start_cents IS NULL OR exposure_start_cents BETWEEN 0 AND 100000000000000)) NOT VALID;

-- What a CHECK cannot see: a seat row's running stack is its previous stack
-- plus its amount; a reversal is the exact negative of the row it names on
-- the same account; a pool never goes below zero.
CREATE FUNCTION ledger_guard() RETURNS trigger AS $$
DECLARE
    previous BIGINT;
    corrected ledger_entries%ROWTYPE;
    pool_total BIGINT;
BEGIN
    IF NEW.seating_id IS NOT NULL THEN
        SELECT balance_after_cents INTO previous FROM ledger_entries
            WHERE seating_id = NEW.seating_id ORDER BY id DESC LIMIT 1;
        IF NEW.balance_after_cents IS DISTINCT FROM COALESCE(previous, 0) + NEW.amount_cents THEN
            RAISE EXCEPTION 'books: a seat row''s stack after it must be its previous stack plus its amount';
        END IF;
    END IF;
    IF NEW.reverses_id IS NOT NULL THEN
        SELECT * INTO corrected FROM ledger_entries WHERE id = NEW.reverses_id;
        IF NOT FOUND OR corrected.amount_cents <> -NEW.amount_cents
            OR (NEW.kind = 'reversal' AND (corrected.seating_id IS DISTINCT FROM NEW.seating_id
                OR corrected.pool_id IS DISTINCT FROM NEW.pool_id))
            OR (NEW.kind = 'contribution_refund' AND corrected.kind <> 'jackpot_contribution') THEN
            RAISE EXCEPTION 'books: a reversal is the exact negative of the row it names, on the same account';
        END IF;
    END IF;
    IF NEW.pool_id IS NOT NULL AND NEW.amount_cents < 0 THEN
        SELECT COALESCE(SUM(amount_cents), 0) INTO pool_total FROM ledger_entries WHERE pool_id = NEW.pool_id;
        IF pool_total + NEW.amount_cents < 0 THEN
            RAISE EXCEPTION 'books: a jackpot pool cannot go below zero';
        END IF;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER ledger_guard BEFORE INSERT ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_guard();

-- Two sign-offs by two different people; a hit is decided once.
CREATE FUNCTION signoffs_guard() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM jackpot_signoffs WHERE hit_id = NEW.hit_id AND action IN ('verify', 'reject')) THEN
        RAISE EXCEPTION 'books: a jackpot hit is decided once';
    END IF;
    IF NEW.action = 'verify' AND NOT EXISTS (SELECT 1 FROM jackpot_signoffs
        WHERE hit_id = NEW.hit_id AND action = 'approve' AND user_id <> NEW.user_id) THEN
        RAISE EXCEPTION 'books: a jackpot hit is verified after its approval, by someone else';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER signoffs_guard BEFORE INSERT ON jackpot_signoffs
    FOR EACH ROW EXECUTE FUNCTION signoffs_guard();

-- Hands, their seats and showdowns, hits, voids, rulesets, seatings and
-- scans as written stay as written.
CREATE FUNCTION books_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'books: % is append-only', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER hands_append_only BEFORE UPDATE OR DELETE ON hands
    FOR EACH ROW EXECUTE FUNCTION books_append_only();
CREATE TRIGGER hand_seats_append_only BEFORE UPDATE OR DELETE ON hand_seats
    FOR EACH ROW EXECUTE FUNCTION books_append_only();
CREATE TRIGGER showdowns_append_only BEFORE UPDATE OR DELETE ON showdowns
    FOR EACH ROW EXECUTE FUNCTION books_append_only();
CREATE TRIGGER jackpot_hits_append_only BEFORE UPDATE OR DELETE ON jackpot_hits
    FOR EACH ROW EXECUTE FUNCTION books_append_only();
CREATE TRIGGER hand_voids_append_only BEFORE UPDATE OR DELETE ON hand_voids
    FOR EACH ROW EXECUTE FUNCTION books_append_only();
CREATE TRIGGER ruleset_versions_append_only BEFORE UPDATE OR DELETE ON ruleset_versions
    FOR EACH ROW EXECUTE FUNCTION books_append_only();
CREATE TRIGGER seatings_append_only BEFORE UPDATE OR DELETE ON seatings
    FOR EACH ROW EXECUTE FUNCTION books_append_only();
CREATE TRIGGER hand_scans_append_only BEFORE UPDATE OR DELETE ON hand_scans
    FOR EACH ROW EXECUTE FUNCTION books_append_only();

-- The older append-only guards speak as the books too.
CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'books: the ledger is append-only';
END;
$$ LANGUAGE plpgsql;
CREATE OR REPLACE FUNCTION audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'books: % is append-only', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
