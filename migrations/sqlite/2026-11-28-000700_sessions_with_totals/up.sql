-- A session's row of the sessions report from one table (issue 17; the
-- PostgreSQL migration of the same name says why). The totals carry what
-- a session's row says of it that never changes (its seat, player, time
-- seated, player id and member number, as its seating and player say),
-- copied once when the totals are made at the buy-in; the triggers keep
-- the copies true (the times compared as times, not as their text). Stop
-- every app server of the older release before this migration: the totals
-- it makes at a buy-in would be refused.
DROP TRIGGER seating_totals_made;
DROP TRIGGER seating_totals_changed;
ALTER TABLE seating_totals ADD COLUMN seat INTEGER;
ALTER TABLE seating_totals ADD COLUMN player TEXT;
ALTER TABLE seating_totals ADD COLUMN seated_at TIMESTAMP;
ALTER TABLE seating_totals ADD COLUMN player_id BIGINT;
ALTER TABLE seating_totals ADD COLUMN member_no TEXT;
UPDATE seating_totals
SET seat = s.seat, player = s.player, seated_at = s.seated_at, player_id = s.player_id, member_no = p.member_no
FROM seatings s LEFT JOIN players p ON p.id = s.player_id
WHERE s.id = seating_totals.seating_id;
CREATE TRIGGER seating_totals_made AFTER INSERT ON seating_totals
BEGIN
    SELECT RAISE(ABORT, 'books: a seating''s totals name its table and the gaming day it was seated on')
    WHERE NEW.table_id IS NULL OR NEW.gaming_day IS NULL;
    SELECT RAISE(ABORT, 'books: a seating''s totals name its table, seat, player and time seated as its seating does')
    WHERE NOT EXISTS (
        SELECT 1 FROM seatings s LEFT JOIN players p ON p.id = s.player_id
        WHERE s.id = NEW.seating_id AND s.table_id = NEW.table_id AND s.seat = NEW.seat
            AND s.player = NEW.player AND julianday(s.seated_at) = julianday(NEW.seated_at)
            AND s.player_id IS NEW.player_id AND p.member_no IS NEW.member_no
    );
    INSERT INTO session_days (gaming_day, table_id, sessions, buy_in_cents, add_ons_cents, cash_out_cents,
        rake_cents, payouts_cents)
    VALUES (NEW.gaming_day, NEW.table_id, 1, NEW.buy_in_cents, NEW.add_ons_cents, NEW.cash_out_cents,
        NEW.rake_cents, NEW.payouts_cents)
    ON CONFLICT (gaming_day, table_id) DO UPDATE SET
        sessions = sessions + 1,
        buy_in_cents = buy_in_cents + excluded.buy_in_cents,
        add_ons_cents = add_ons_cents + excluded.add_ons_cents,
        cash_out_cents = cash_out_cents + excluded.cash_out_cents,
        rake_cents = rake_cents + excluded.rake_cents,
        payouts_cents = payouts_cents + excluded.payouts_cents;
END;
CREATE TRIGGER seating_totals_changed AFTER UPDATE ON seating_totals
BEGIN
    SELECT RAISE(ABORT, 'books: a seating''s table and gaming day do not change')
    WHERE NEW.table_id IS NOT OLD.table_id OR NEW.gaming_day IS NOT OLD.gaming_day;
    SELECT RAISE(ABORT, 'books: a seating''s seat, player and time seated do not change')
    WHERE NEW.seat IS NOT OLD.seat OR NEW.player IS NOT OLD.player OR NEW.seated_at IS NOT OLD.seated_at
        OR NEW.player_id IS NOT OLD.player_id OR NEW.member_no IS NOT OLD.member_no;
    UPDATE session_days SET
        buy_in_cents = buy_in_cents + NEW.buy_in_cents - OLD.buy_in_cents,
        add_ons_cents = add_ons_cents + NEW.add_ons_cents - OLD.add_ons_cents,
        cash_out_cents = cash_out_cents + NEW.cash_out_cents - OLD.cash_out_cents,
        rake_cents = rake_cents + NEW.rake_cents - OLD.rake_cents,
        payouts_cents = payouts_cents + NEW.payouts_cents - OLD.payouts_cents
    WHERE gaming_day = NEW.gaming_day AND table_id = NEW.table_id;
END;
