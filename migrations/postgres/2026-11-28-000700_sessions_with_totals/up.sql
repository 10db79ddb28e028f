-- A session's row of the sessions report from one table (issue 17). A
-- row took the seating's totals, then its seating (seat, player, time
-- seated), its player (member number), its stack and whether it is still
-- seated: four index probes a row, a month's CSV file of 32,000 sessions
-- about a quarter of a second. The totals now carry what a session's row
-- says of it that never changes (its seat, player, time seated, player id
-- and member number, as its seating and player say: a player's member
-- number is never changed), copied once when the totals are made at the
-- buy-in; the stack and whether it is seated stay where they change.
--
-- The database keeps the copies true: totals are made only with what their
-- seating and player say, and none of it changes afterwards. The columns may
-- be empty only in an addition's proposed row (`ON CONFLICT … DO UPDATE`),
-- which is never stored: totals are made with every column (the trigger).
-- Stop every app server of the older release before this migration: the
-- totals it makes at a buy-in would be refused.
DROP TRIGGER seating_totals_changed ON seating_totals;
ALTER TABLE seating_totals
    ADD COLUMN seat INTEGER,
    ADD COLUMN player TEXT,
    ADD COLUMN seated_at TIMESTAMP,
    ADD COLUMN player_id BIGINT,
    ADD COLUMN member_no TEXT;
UPDATE seating_totals t
SET seat = s.seat, player = s.player, seated_at = s.seated_at, player_id = s.player_id, member_no = p.member_no
FROM seatings s LEFT JOIN players p ON p.id = s.player_id
WHERE s.id = t.seating_id;
CREATE OR REPLACE FUNCTION seating_totals_made() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.table_id IS NULL OR NEW.gaming_day IS NULL THEN
        RAISE EXCEPTION 'books: a seating''s totals name its table and the gaming day it was seated on';
    END IF;
    IF NOT EXISTS (
        SELECT 1 FROM seatings s LEFT JOIN players p ON p.id = s.player_id
        WHERE s.id = NEW.seating_id AND s.table_id = NEW.table_id AND s.seat = NEW.seat
            AND s.player = NEW.player AND s.seated_at = NEW.seated_at
            AND s.player_id IS NOT DISTINCT FROM NEW.player_id AND p.member_no IS NOT DISTINCT FROM NEW.member_no
    ) THEN
        RAISE EXCEPTION 'books: a seating''s totals name its table, seat, player and time seated as its seating does';
    END IF;
    INSERT INTO session_days AS d (gaming_day, table_id, sessions, buy_in_cents, add_ons_cents, cash_out_cents,
        rake_cents, payouts_cents)
    VALUES (NEW.gaming_day, NEW.table_id, 1, NEW.buy_in_cents, NEW.add_ons_cents, NEW.cash_out_cents,
        NEW.rake_cents, NEW.payouts_cents)
    ON CONFLICT (gaming_day, table_id) DO UPDATE SET
        sessions = d.sessions + 1,
        buy_in_cents = d.buy_in_cents + excluded.buy_in_cents,
        add_ons_cents = d.add_ons_cents + excluded.add_ons_cents,
        cash_out_cents = d.cash_out_cents + excluded.cash_out_cents,
        rake_cents = d.rake_cents + excluded.rake_cents,
        payouts_cents = d.payouts_cents + excluded.payouts_cents;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION seating_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.table_id IS DISTINCT FROM OLD.table_id OR NEW.gaming_day IS DISTINCT FROM OLD.gaming_day THEN
        RAISE EXCEPTION 'books: a seating''s table and gaming day do not change';
    END IF;
    IF NEW.seat IS DISTINCT FROM OLD.seat OR NEW.player IS DISTINCT FROM OLD.player
        OR NEW.seated_at IS DISTINCT FROM OLD.seated_at OR NEW.player_id IS DISTINCT FROM OLD.player_id
        OR NEW.member_no IS DISTINCT FROM OLD.member_no THEN
        RAISE EXCEPTION 'books: a seating''s seat, player and time seated do not change';
    END IF;
    UPDATE session_days SET
        buy_in_cents = buy_in_cents + NEW.buy_in_cents - OLD.buy_in_cents,
        add_ons_cents = add_ons_cents + NEW.add_ons_cents - OLD.add_ons_cents,
        cash_out_cents = cash_out_cents + NEW.cash_out_cents - OLD.cash_out_cents,
        rake_cents = rake_cents + NEW.rake_cents - OLD.rake_cents,
        payouts_cents = payouts_cents + NEW.payouts_cents - OLD.payouts_cents
    WHERE gaming_day = NEW.gaming_day AND table_id = NEW.table_id;
    RETURN NULL;
END $$;
CREATE TRIGGER seating_totals_changed AFTER UPDATE ON seating_totals
    FOR EACH ROW EXECUTE FUNCTION seating_totals_changed();
ANALYZE seating_totals;
