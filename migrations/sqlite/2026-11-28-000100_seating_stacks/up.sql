-- Storage (issue 17): each seating's stack now is kept in `seating_stacks`,
-- one row a seating, written by the database as each seat row is (the
-- trigger `ledger_seating_stack`), no longer found through an index of every
-- seat row by seating and id (`ledger_seating_latest`). Every seat row still
-- carries its stack after it (`balance_after_cents`), and the guard still
-- refuses a row whose stack after it is not the stack before plus its
-- amount, or below zero.
--
-- A seating's rows are still found by seating where that is asked: its
-- buy-in (the first row of every seating, written with it) through a small
-- partial index, its cash-out through `ledger_cash_outs`.
--
-- A stack's row names the ledger row it was taken from (`entry_id`): the
-- database refuses a stack that is not that row's stack after it, a row no
-- newer than the one before (also through INSERT OR REPLACE, which deletes
-- without the delete trigger), and a deleted stack. So only a new seat row
-- in the ledger changes a stack (an INSERT OR IGNORE that skips its row
-- fires no AFTER trigger).
CREATE TABLE seating_stacks (
    seating_id INTEGER PRIMARY KEY REFERENCES seatings (id),
    stack_cents BIGINT NOT NULL CHECK (stack_cents BETWEEN 0 AND 100000000000000),
    entry_id BIGINT NOT NULL
);
INSERT INTO seating_stacks (seating_id, stack_cents, entry_id)
    SELECT l.seating_id, l.balance_after_cents, l.id
    FROM (SELECT MAX(id) AS id FROM ledger_entries WHERE seating_id IS NOT NULL GROUP BY seating_id) latest
    JOIN ledger_entries l ON l.id = latest.id;
CREATE TRIGGER seating_stacks_written BEFORE INSERT ON seating_stacks
BEGIN
    SELECT RAISE(ABORT, 'books: a seat''s stack is kept by its ledger rows')
    WHERE NOT EXISTS (SELECT 1 FROM ledger_entries WHERE id = NEW.entry_id AND seating_id = NEW.seating_id
            AND balance_after_cents = NEW.stack_cents)
        OR EXISTS (SELECT 1 FROM seating_stacks WHERE seating_id = NEW.seating_id AND entry_id >= NEW.entry_id);
END;
CREATE TRIGGER seating_stacks_changed BEFORE UPDATE ON seating_stacks
BEGIN
    SELECT RAISE(ABORT, 'books: a seat''s stack is kept by its ledger rows')
    WHERE NEW.seating_id IS NOT OLD.seating_id OR NEW.entry_id <= OLD.entry_id
        OR NOT EXISTS (SELECT 1 FROM ledger_entries WHERE id = NEW.entry_id AND seating_id = NEW.seating_id
            AND balance_after_cents = NEW.stack_cents);
END;
CREATE TRIGGER seating_stacks_no_delete BEFORE DELETE ON seating_stacks
BEGIN SELECT RAISE(ABORT, 'books: a seat''s stack is kept by its ledger rows'); END;
CREATE TRIGGER ledger_seating_stack AFTER INSERT ON ledger_entries WHEN NEW.seating_id IS NOT NULL
BEGIN
    INSERT INTO seating_stacks (seating_id, stack_cents, entry_id)
        VALUES (NEW.seating_id, NEW.balance_after_cents, NEW.id)
        ON CONFLICT (seating_id) DO UPDATE SET stack_cents = excluded.stack_cents, entry_id = excluded.entry_id;
END;
DROP TRIGGER ledger_guard;
CREATE TRIGGER ledger_guard BEFORE INSERT ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'books: unknown ledger kind')
    WHERE NEW.kind NOT IN ('buy_in', 'add_on', 'cash_out', 'rake', 'house_rake', 'jackpot_contribution',
        'settlement', 'pool_seed', 'jackpot_lock', 'reversal', 'jackpot_payout', 'jackpot_return',
        'contribution_refund', 'hand_result');
    SELECT RAISE(ABORT, 'books: an amount is past the money limit')
    WHERE NEW.amount_cents NOT BETWEEN -100000000000000 AND 100000000000000
        OR NEW.rake_cents NOT BETWEEN -100000000000000 AND 100000000000000;
    SELECT RAISE(ABORT, 'books: buy-ins, add-ons, contributions, payouts and returns are positive')
    WHERE NEW.kind IN ('buy_in', 'add_on', 'jackpot_contribution', 'jackpot_payout', 'jackpot_return')
        AND NEW.amount_cents <= 0;
    SELECT RAISE(ABORT, 'books: rake, locks and refunds are negative')
    WHERE NEW.kind IN ('rake', 'jackpot_lock', 'contribution_refund') AND NEW.amount_cents >= 0;
    SELECT RAISE(ABORT, 'books: a cash-out, house share or seed has the wrong sign')
    WHERE (NEW.kind = 'cash_out' AND NEW.amount_cents > 0)
        OR (NEW.kind IN ('house_rake', 'pool_seed') AND NEW.amount_cents < 0);
    SELECT RAISE(ABORT, 'books: a settlement or reversal row moves money')
    WHERE (NEW.kind = 'settlement' AND NEW.amount_cents = 0)
        OR (NEW.kind = 'reversal' AND NEW.amount_cents = 0 AND COALESCE(NEW.rake_cents, 0) = 0);
    -- A seat's result of a hand: its stack change (the settlement's net less
    -- the rake) and the rake in it, zero or more; the rake only there and on
    -- a reversal of one.
    SELECT RAISE(ABORT, 'books: a hand result carries its rake, zero or more, and moves money or takes rake')
    WHERE NEW.kind = 'hand_result'
        AND (NEW.rake_cents IS NULL OR NEW.rake_cents < 0 OR (NEW.amount_cents = 0 AND NEW.rake_cents = 0)
            OR NEW.hand_id IS NULL);
    SELECT RAISE(ABORT, 'books: only a hand result, or its reversal, carries a rake')
    WHERE NEW.rake_cents IS NOT NULL AND NEW.kind NOT IN ('hand_result', 'reversal');
    SELECT RAISE(ABORT, 'books: a seat row needs its seat, a pool row its pool')
    WHERE (NEW.kind IN ('buy_in', 'add_on', 'cash_out', 'rake', 'settlement', 'jackpot_payout', 'hand_result')
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
        SELECT stack_cents FROM seating_stacks WHERE seating_id = NEW.seating_id), 0) + NEW.amount_cents;
    SELECT RAISE(ABORT, 'books: a cash-out takes the whole stack')
    WHERE NEW.kind = 'cash_out' AND NEW.balance_after_cents <> 0;
    -- A reversal (or refund) is the exact negative of the row it names, on
    -- the same account.
    SELECT RAISE(ABORT, 'books: a reversal or refund must name the row it corrects')
    WHERE (NEW.kind IN ('reversal', 'contribution_refund')) <> (NEW.reverses_id IS NOT NULL);
    SELECT RAISE(ABORT, 'books: a reversal is the exact negative of the row it names, on the same account')
    WHERE NEW.reverses_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM ledger_entries r WHERE r.id = NEW.reverses_id AND r.amount_cents = -NEW.amount_cents
            AND r.rake_cents IS -NEW.rake_cents
            AND ((NEW.kind = 'reversal' AND r.seating_id IS NEW.seating_id AND r.pool_id IS NEW.pool_id)
                OR (NEW.kind = 'contribution_refund' AND r.kind = 'jackpot_contribution')));
    -- A pool never goes below zero (its balance: the sum of its shares).
    SELECT RAISE(ABORT, 'books: a jackpot pool cannot go below zero')
    WHERE NEW.pool_id IS NOT NULL AND NEW.amount_cents < 0
        AND (SELECT COALESCE(SUM(balance_cents), 0) FROM pool_balances WHERE pool_id = NEW.pool_id)
            + NEW.amount_cents < 0;
END;
DROP INDEX ledger_seating_latest;
CREATE INDEX ledger_buy_ins ON ledger_entries (seating_id) WHERE kind = 'buy_in';
