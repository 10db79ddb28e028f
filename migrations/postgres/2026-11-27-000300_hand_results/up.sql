-- A seat's part of a hand in one ledger row (issue 17): `hand_result`, whose
-- amount is the seat's stack change (its settlement net less its rake) and
-- whose `rake_cents` is the rake taken from it. A hand wrote two rows a seat
-- before (`rake`, `settlement`); those rows stay as written, and stay valid
-- (a void reverses them as before). The rake is kept on the row, not derived
-- from the ruleset, so that a seat's rake is a sum of its rows as before.
-- A reversal of a hand result carries the negative of its rake too.
--
-- The checks are replaced NOT VALID, as they were added: every row already
-- written passed the stricter ones they replace, and a year's ledger is not
-- read again at the upgrade.
ALTER TABLE ledger_entries ADD COLUMN rake_cents BIGINT;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_kind;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_kind CHECK (kind IN ('buy_in', 'add_on', 'cash_out', 'rake',
    'house_rake', 'jackpot_contribution', 'settlement', 'pool_seed', 'jackpot_lock', 'reversal', 'jackpot_payout',
    'jackpot_return', 'contribution_refund', 'hand_result')) NOT VALID;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_money_limit;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_money_limit CHECK (
    amount_cents BETWEEN -100000000000000 AND 100000000000000
    AND (rake_cents IS NULL OR rake_cents BETWEEN -100000000000000 AND 100000000000000)) NOT VALID;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_signs;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_signs CHECK (
    (kind NOT IN ('buy_in', 'add_on', 'jackpot_contribution', 'jackpot_payout', 'jackpot_return') OR amount_cents > 0)
    AND (kind NOT IN ('rake', 'jackpot_lock', 'contribution_refund') OR amount_cents < 0)
    AND (kind <> 'cash_out' OR amount_cents <= 0)
    AND (kind NOT IN ('house_rake', 'pool_seed') OR amount_cents >= 0)
    AND (kind <> 'settlement' OR amount_cents <> 0)
    AND (kind <> 'reversal' OR amount_cents <> 0 OR COALESCE(rake_cents, 0) <> 0)
    AND (kind <> 'hand_result' OR (rake_cents >= 0 AND (amount_cents <> 0 OR rake_cents <> 0)))) NOT VALID;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_accounts;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_accounts CHECK (
    (kind NOT IN ('buy_in', 'add_on', 'cash_out', 'rake', 'settlement', 'jackpot_payout', 'hand_result')
        OR seating_id IS NOT NULL)
    AND (kind NOT IN ('jackpot_contribution', 'pool_seed', 'jackpot_lock', 'jackpot_return') OR pool_id IS NOT NULL)
    AND (kind NOT IN ('house_rake', 'contribution_refund') OR (seating_id IS NULL AND pool_id IS NULL))
    AND (kind NOT IN ('jackpot_lock', 'jackpot_payout') OR jackpot_hit_id IS NOT NULL)
    AND ((kind IN ('reversal', 'contribution_refund')) = (reverses_id IS NOT NULL))
    AND (kind <> 'hand_result' OR (hand_id IS NOT NULL AND rake_cents IS NOT NULL))
    AND (rake_cents IS NULL OR kind IN ('hand_result', 'reversal'))) NOT VALID;
CREATE OR REPLACE FUNCTION ledger_guard() RETURNS trigger AS $$
DECLARE
    previous BIGINT;
    corrected ledger_entries%ROWTYPE;
BEGIN
    -- A row of a pool waits for its share of the pool (a jackpot hit holds
    -- every share while it reads the balance and locks it), and only then
    -- takes its id: the ids of a pool's rows follow the order in which they
    -- reach its balance. A void asks "did a hit lock this row's money?" by
    -- comparing ids; an id taken before the wait could be older than the
    -- lock of a hit that never saw the row.
    IF NEW.pool_id IS NOT NULL THEN
        PERFORM 1 FROM pool_balances
            WHERE pool_id = NEW.pool_id AND table_key = COALESCE(NEW.table_id, 0) FOR UPDATE;
        NEW.id := nextval(pg_get_serial_sequence('ledger_entries', 'id'));
    END IF;
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
            OR corrected.rake_cents IS DISTINCT FROM -NEW.rake_cents
            OR (NEW.kind = 'reversal' AND (corrected.seating_id IS DISTINCT FROM NEW.seating_id
                OR corrected.pool_id IS DISTINCT FROM NEW.pool_id))
            OR (NEW.kind = 'contribution_refund' AND corrected.kind <> 'jackpot_contribution') THEN
            RAISE EXCEPTION 'books: a reversal is the exact negative of the row it names, on the same account';
        END IF;
    END IF;
    IF NEW.pool_id IS NOT NULL AND NEW.amount_cents < 0 THEN
        IF (SELECT COALESCE(SUM(balance_cents), 0) FROM pool_balances WHERE pool_id = NEW.pool_id)
                + NEW.amount_cents < 0 THEN
            RAISE EXCEPTION 'books: a jackpot pool cannot go below zero';
        END IF;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
