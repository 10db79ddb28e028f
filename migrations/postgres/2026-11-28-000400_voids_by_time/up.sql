-- The pit board lists each table's voids of its gaming day (issue 16): the
-- voids of the last two days, found by time (one hand in a thousand is
-- voided; without this every void of the history was read at each board).
CREATE INDEX hand_voids_at ON hand_voids (created_at);
