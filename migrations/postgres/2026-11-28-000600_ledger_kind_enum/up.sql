-- Storage (issue 17): a ledger row's kind in an enum type of its own, four
-- bytes, instead of its name as text. The name sat between two eight-byte
-- columns, so it took 16 bytes of the row with its padding ('hand_result',
-- 'house_rake') or 24 ('jackpot_contribution'); the enum takes 8 with its
-- padding: a hand's six rows are 56 bytes smaller (about 8 % of the ledger's
-- heap). The names are the same labels: SQL that compares the kind with a
-- quoted name reads as before, and the service binds the kind with this
-- type. Nothing but a name of this list can be stored (the check
-- `ledger_kind` is the type itself now).
--
-- Changing the column's type rewrites the ledger and its indexes, with the
-- table locked: on a year's ledger that takes minutes (docs/operations.md).
-- The checks, partial indexes and trigger condition that compare the kind
-- with text are made again, as they were, around it; the checks NOT VALID
-- as they were added (every row passed them when it was written).
CREATE TYPE ledger_entry_kind AS ENUM ('buy_in', 'add_on', 'cash_out', 'rake', 'house_rake',
    'jackpot_contribution', 'settlement', 'pool_seed', 'jackpot_lock', 'reversal', 'jackpot_payout',
    'jackpot_return', 'contribution_refund', 'hand_result');

ALTER TABLE ledger_entries DROP CONSTRAINT ledger_kind;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_signs;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_accounts;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_stack;
DROP INDEX ledger_cash_outs;
DROP INDEX ledger_pool_locks;
DROP INDEX ledger_pool_seeds;
DROP INDEX ledger_buy_ins;
DROP TRIGGER ledger_cash_out_frees_the_seat ON ledger_entries;

ALTER TABLE ledger_entries ALTER COLUMN kind TYPE ledger_entry_kind USING kind::ledger_entry_kind;

CREATE INDEX ledger_cash_outs ON ledger_entries (seating_id) WHERE kind = 'cash_out';
CREATE INDEX ledger_pool_locks ON ledger_entries (pool_id, id) WHERE kind = 'jackpot_lock';
CREATE INDEX ledger_pool_seeds ON ledger_entries (pool_id, id) WHERE kind = 'pool_seed';
CREATE INDEX ledger_buy_ins ON ledger_entries (seating_id) WHERE kind = 'buy_in';
CREATE TRIGGER ledger_cash_out_frees_the_seat AFTER INSERT ON ledger_entries
    FOR EACH ROW WHEN (NEW.kind = 'cash_out') EXECUTE FUNCTION free_seat();
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_signs CHECK (
    (kind NOT IN ('buy_in', 'add_on', 'jackpot_contribution', 'jackpot_payout', 'jackpot_return') OR amount_cents > 0)
    AND (kind NOT IN ('rake', 'jackpot_lock', 'contribution_refund') OR amount_cents < 0)
    AND (kind <> 'cash_out' OR amount_cents <= 0)
    AND (kind NOT IN ('house_rake', 'pool_seed') OR amount_cents >= 0)
    AND (kind <> 'settlement' OR amount_cents <> 0)
    AND (kind <> 'reversal' OR amount_cents <> 0 OR COALESCE(rake_cents, 0) <> 0)
    AND (kind <> 'hand_result' OR (rake_cents >= 0 AND (amount_cents <> 0 OR rake_cents <> 0)))) NOT VALID;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_accounts CHECK (
    (kind NOT IN ('buy_in', 'add_on', 'cash_out', 'rake', 'settlement', 'jackpot_payout', 'hand_result')
        OR seating_id IS NOT NULL)
    AND (kind NOT IN ('jackpot_contribution', 'pool_seed', 'jackpot_lock', 'jackpot_return') OR pool_id IS NOT NULL)
    AND (kind NOT IN ('house_rake', 'contribution_refund') OR (seating_id IS NULL AND pool_id IS NULL))
    AND (kind NOT IN ('jackpot_lock', 'jackpot_payout') OR jackpot_hit_id IS NOT NULL)
    AND ((kind IN ('reversal', 'contribution_refund')) = (reverses_id IS NOT NULL))
    AND (kind <> 'hand_result' OR (hand_id IS NOT NULL AND rake_cents IS NOT NULL))
    AND (rake_cents IS NULL OR kind IN ('hand_result', 'reversal'))) NOT VALID;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_stack CHECK (
    (seating_id IS NULL) = (balance_after_cents IS NULL)
    AND (balance_after_cents IS NULL OR balance_after_cents BETWEEN 0 AND 100000000000000)
    AND (kind <> 'cash_out' OR balance_after_cents = 0)) NOT VALID;
-- The rewrite drops the column's statistics: gathered again now, not weeks
-- later when autovacuum would next analyse a year's ledger.
ANALYZE ledger_entries;
