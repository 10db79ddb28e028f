-- A pool counts its money on its own gaming days (time zone and start of
-- day), set when it is made. A pool made before had its days counted on the
-- clock of the first table (lowest id) feeding it, or on UTC days for the rows
-- written before it had a table (its first seed): it takes that table's clock
-- (UTC midnight without one), and its days are emptied here and booked again
-- from the ledger on that clock at the first start
-- (`rollups::build_if_missing`), so that the days and a recount agree.
ALTER TABLE pools ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE pools ADD COLUMN gaming_day_cutoff TEXT NOT NULL DEFAULT '00:00';
UPDATE pools SET
    time_zone = (SELECT t.time_zone FROM casino_tables t WHERE t.pool_id = pools.id ORDER BY t.id LIMIT 1),
    gaming_day_cutoff = (SELECT t.gaming_day_cutoff FROM casino_tables t WHERE t.pool_id = pools.id ORDER BY t.id LIMIT 1)
WHERE EXISTS (SELECT 1 FROM casino_tables t WHERE t.pool_id = pools.id);
DELETE FROM pool_days;

-- Its days are booked on that clock: it stays.
CREATE FUNCTION pools_clock_kept() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'books: a pool''s gaming days stay on the clock it was made with';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER pools_clock_kept BEFORE UPDATE OF time_zone, gaming_day_cutoff ON pools
    FOR EACH ROW
    WHEN (NEW.time_zone IS DISTINCT FROM OLD.time_zone OR NEW.gaming_day_cutoff IS DISTINCT FROM OLD.gaming_day_cutoff)
    EXECUTE FUNCTION pools_clock_kept();
