-- Storage (issue 17): each seating's stack now is kept in `seating_stacks`,
-- one row a seating, changed by the ledger's guard as each seat row is
-- written, no longer found through an index of every seat row by seating
-- and id (`ledger_seating_latest`, about 190 bytes a hand: the rows of many
-- seatings arrive interleaved, so its pages split and stay two thirds
-- full). Every seat row still carries its stack after it
-- (`balance_after_cents`), and the guard still refuses a row whose stack
-- after it is not the stack before plus its amount, or below zero.
--
-- A seating's rows are still found by seating where that is asked: its
-- buy-in (the first row of every seating, written with it) through a small
-- partial index, its cash-out through `ledger_cash_outs`.
--
-- Only the ledger changes a stack. `seating_stacks_guard` refuses a row
-- written or changed from outside a trigger, a deleted one and TRUNCATE.
-- The guard moves the stack before its row is written (a BEFORE trigger),
-- and an INSERT can still skip that row (`ON CONFLICT DO NOTHING`); so at
-- commit `seating_stacks_checked` checks that each stack written names a
-- ledger row of its seating, newer than the one before, that carries it.
CREATE TABLE seating_stacks (
    seating_id BIGINT PRIMARY KEY REFERENCES seatings (id),
    stack_cents BIGINT NOT NULL CHECK (stack_cents BETWEEN 0 AND 100000000000000),
    -- The ledger row the stack was taken from (its stack after it).
    entry_id BIGINT NOT NULL
) WITH (fillfactor = 50);
INSERT INTO seating_stacks (seating_id, stack_cents, entry_id)
    SELECT DISTINCT ON (seating_id) seating_id, balance_after_cents, id FROM ledger_entries
    WHERE seating_id IS NOT NULL ORDER BY seating_id, id DESC;

CREATE FUNCTION seating_stacks_guard() RETURNS trigger AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'TRUNCATE') OR pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'books: a seat''s stack is kept by its ledger rows';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER seating_stacks_guard BEFORE INSERT OR UPDATE OR DELETE ON seating_stacks
    FOR EACH ROW EXECUTE FUNCTION seating_stacks_guard();
CREATE TRIGGER seating_stacks_no_truncate BEFORE TRUNCATE ON seating_stacks
    FOR EACH STATEMENT EXECUTE FUNCTION seating_stacks_guard();

CREATE FUNCTION seating_stacks_checked() RETURNS trigger AS $$
BEGIN
    IF (TG_OP = 'UPDATE' AND (NEW.seating_id <> OLD.seating_id OR NEW.entry_id <= OLD.entry_id))
        OR NOT EXISTS (SELECT 1 FROM ledger_entries WHERE id = NEW.entry_id
            AND seating_id = NEW.seating_id AND balance_after_cents = NEW.stack_cents) THEN
        RAISE EXCEPTION 'books: a seat''s stack is kept by its ledger rows';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER seating_stacks_checked AFTER INSERT OR UPDATE ON seating_stacks
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION seating_stacks_checked();

CREATE OR REPLACE FUNCTION ledger_guard() RETURNS trigger AS $$
DECLARE
    stack_now BIGINT;
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
    -- A seat row moves its seating's stack: the stack after it must be the
    -- stack before plus its amount. The stack is changed here, before the
    -- row is written, so that the next row of the same statement sees it
    -- (a void reverses several rows of one seating at once).
    IF NEW.seating_id IS NOT NULL THEN
        UPDATE seating_stacks SET stack_cents = stack_cents + NEW.amount_cents, entry_id = NEW.id
            WHERE seating_id = NEW.seating_id RETURNING stack_cents INTO stack_now;
        IF NOT FOUND THEN
            INSERT INTO seating_stacks (seating_id, stack_cents, entry_id)
                VALUES (NEW.seating_id, NEW.amount_cents, NEW.id);
            stack_now := NEW.amount_cents;
        END IF;
        IF NEW.balance_after_cents IS DISTINCT FROM stack_now THEN
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


DROP INDEX ledger_seating_latest;
CREATE INDEX ledger_buy_ins ON ledger_entries (seating_id) WHERE kind = 'buy_in';
