-- A session's row of the sessions report from one table (issue 17; the
-- PostgreSQL migration of the same name says why). The totals carry what
-- a session's row says of it that never changes (its seat, player, time
-- seated, player id and member number, as its seating and player say),
-- copied once when the totals are made at the buy-in; two triggers of
-- their own keep the copies true (the times compared as times, not as
-- their text), and neither runs when a hand adds to the totals. Stop
-- every app server of the older release before this migration: the totals
-- it makes at a buy-in would be refused.
ALTER TABLE seating_totals ADD COLUMN seat INTEGER;
ALTER TABLE seating_totals ADD COLUMN player TEXT;
ALTER TABLE seating_totals ADD COLUMN seated_at TIMESTAMP;
ALTER TABLE seating_totals ADD COLUMN player_id BIGINT;
ALTER TABLE seating_totals ADD COLUMN member_no TEXT;
-- (The session days' trigger runs for each row and adds nothing.)
UPDATE seating_totals
SET seat = s.seat, player = s.player, seated_at = s.seated_at, player_id = s.player_id, member_no = p.member_no
FROM seatings s LEFT JOIN players p ON p.id = s.player_id
WHERE s.id = seating_totals.seating_id;
CREATE TRIGGER seating_totals_made_copied AFTER INSERT ON seating_totals
WHEN NEW.table_id IS NOT NULL AND NEW.gaming_day IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'books: a seating''s totals name its table, seat, player and time seated as its seating does')
    WHERE NOT EXISTS (
        SELECT 1 FROM seatings s LEFT JOIN players p ON p.id = s.player_id
        WHERE s.id = NEW.seating_id AND s.table_id = NEW.table_id AND s.seat = NEW.seat
            AND s.player = NEW.player AND julianday(s.seated_at) = julianday(NEW.seated_at)
            AND s.player_id IS NEW.player_id AND p.member_no IS NEW.member_no
    );
END;
CREATE TRIGGER seating_totals_copies_kept BEFORE UPDATE OF seat, player, seated_at, player_id, member_no
    ON seating_totals
WHEN NEW.seat IS NOT OLD.seat OR NEW.player IS NOT OLD.player OR NEW.seated_at IS NOT OLD.seated_at
    OR NEW.player_id IS NOT OLD.player_id OR NEW.member_no IS NOT OLD.member_no
BEGIN
    SELECT RAISE(ABORT, 'books: a seating''s seat, player and time seated do not change');
END;
