-- The totals without their session's seat, player and time seated again.
DROP TRIGGER seating_totals_copies_kept;
DROP TRIGGER seating_totals_made_copied;
ALTER TABLE seating_totals DROP COLUMN seat;
ALTER TABLE seating_totals DROP COLUMN player;
ALTER TABLE seating_totals DROP COLUMN seated_at;
ALTER TABLE seating_totals DROP COLUMN player_id;
ALTER TABLE seating_totals DROP COLUMN member_no;
