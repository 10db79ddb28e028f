-- Compact storage and daily rollups (issue 17); see the SQLite migration of
-- the same name for what each part is.
ALTER TABLE showdowns ALTER COLUMN request_hash DROP NOT NULL;
ALTER TABLE showdowns ALTER COLUMN engine_input DROP NOT NULL;
ALTER TABLE showdowns ALTER COLUMN result DROP NOT NULL;
ALTER TABLE showdowns ADD COLUMN showdown_z BYTEA;
ALTER TABLE showdowns ADD CONSTRAINT showdowns_one_form CHECK ((engine_input IS NULL) = (showdown_z IS NOT NULL));

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
-- (Every contribution takes the pool's row lock until its commit: the
-- service writes a hand's ledger rows last, so the lock is held briefly.)
ALTER TABLE pools ADD COLUMN balance_cents BIGINT NOT NULL DEFAULT 0;
UPDATE pools SET balance_cents = (SELECT COALESCE(SUM(amount_cents), 0) FROM ledger_entries WHERE pool_id = pools.id);
CREATE FUNCTION ledger_pool_balance() RETURNS trigger AS $$
DECLARE
    balance BIGINT;
BEGIN
    UPDATE pools SET balance_cents = balance_cents + NEW.amount_cents WHERE id = NEW.pool_id
        RETURNING balance_cents INTO balance;
    IF balance < 0 THEN
        RAISE EXCEPTION 'books: a jackpot pool cannot go below zero';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER ledger_pool_balance AFTER INSERT ON ledger_entries
    FOR EACH ROW WHEN (NEW.pool_id IS NOT NULL) EXECUTE FUNCTION ledger_pool_balance();
CREATE OR REPLACE FUNCTION ledger_guard() RETURNS trigger AS $$
DECLARE
    previous BIGINT;
    corrected ledger_entries%ROWTYPE;
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
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

-- The rows a hit names (its lock, payouts, returns): found without a scan.
CREATE INDEX ledger_hits ON ledger_entries (jackpot_hit_id) WHERE jackpot_hit_id IS NOT NULL;
-- The days of a pool's tables; sessions by when they were seated.
CREATE INDEX table_days_pool ON table_days (pool_id, gaming_day);
CREATE INDEX seatings_seated ON seatings (seated_at);
