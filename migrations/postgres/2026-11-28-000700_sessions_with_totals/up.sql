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
-- seating and player say, and the copies never change (two triggers of
-- their own; neither runs when a hand adds to the totals). The columns may
-- be empty only in an addition's proposed row (`ON CONFLICT … DO UPDATE`),
-- which is never stored: totals are made with every column.
-- Stop every app server of the older release before this migration: the
-- totals it makes at a buy-in would be refused.
ALTER TABLE seating_totals
    ADD COLUMN seat INTEGER,
    ADD COLUMN player TEXT,
    ADD COLUMN seated_at TIMESTAMP,
    ADD COLUMN player_id BIGINT,
    ADD COLUMN member_no TEXT;
-- (The session days do not change: their trigger is not run for this.)
ALTER TABLE seating_totals DISABLE TRIGGER seating_totals_changed;
UPDATE seating_totals t
SET seat = s.seat, player = s.player, seated_at = s.seated_at, player_id = s.player_id, member_no = p.member_no
FROM seatings s LEFT JOIN players p ON p.id = s.player_id
WHERE s.id = t.seating_id;
ALTER TABLE seating_totals ENABLE TRIGGER seating_totals_changed;
CREATE FUNCTION seating_totals_copied() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM seatings s LEFT JOIN players p ON p.id = s.player_id
        WHERE s.id = NEW.seating_id AND s.table_id = NEW.table_id AND s.seat = NEW.seat
            AND s.player = NEW.player AND s.seated_at = NEW.seated_at
            AND s.player_id IS NOT DISTINCT FROM NEW.player_id AND p.member_no IS NOT DISTINCT FROM NEW.member_no
    ) THEN
        RAISE EXCEPTION 'books: a seating''s totals name its table, seat, player and time seated as its seating does';
    END IF;
    RETURN NULL;
END $$;
-- (Totals without their table or day are `seating_totals_made`'s to refuse.)
CREATE TRIGGER seating_totals_made_copied AFTER INSERT ON seating_totals
    FOR EACH ROW WHEN (NEW.table_id IS NOT NULL AND NEW.gaming_day IS NOT NULL)
    EXECUTE FUNCTION seating_totals_copied();
CREATE FUNCTION seating_totals_copies_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'books: a seating''s seat, player and time seated do not change';
END $$;
CREATE TRIGGER seating_totals_copies_kept BEFORE UPDATE OF seat, player, seated_at, player_id, member_no
    ON seating_totals FOR EACH ROW
    WHEN (NEW.seat IS DISTINCT FROM OLD.seat OR NEW.player IS DISTINCT FROM OLD.player
        OR NEW.seated_at IS DISTINCT FROM OLD.seated_at OR NEW.player_id IS DISTINCT FROM OLD.player_id
        OR NEW.member_no IS DISTINCT FROM OLD.member_no)
    EXECUTE FUNCTION seating_totals_copies_kept();
ANALYZE seating_totals;
