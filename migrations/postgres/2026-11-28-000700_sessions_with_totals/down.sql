-- The totals without their session's seat, player and time seated again.
DROP TRIGGER seating_totals_copies_kept ON seating_totals;
DROP FUNCTION seating_totals_copies_kept();
DROP TRIGGER seating_totals_made_copied ON seating_totals;
DROP FUNCTION seating_totals_copied();
ALTER TABLE seating_totals
    DROP COLUMN seat,
    DROP COLUMN player,
    DROP COLUMN seated_at,
    DROP COLUMN player_id,
    DROP COLUMN member_no;
