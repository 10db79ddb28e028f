DROP TRIGGER pools_clock_kept ON pools;
DROP FUNCTION pools_clock_kept();
ALTER TABLE pools DROP COLUMN gaming_day_cutoff;
ALTER TABLE pools DROP COLUMN time_zone;
