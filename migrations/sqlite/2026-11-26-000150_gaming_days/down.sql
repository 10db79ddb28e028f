DROP TRIGGER table_days_closed_update;
DROP TRIGGER table_days_closed_insert;
DROP TABLE day_corrections;
DROP TABLE gaming_day_signoffs;
DROP TABLE drop_counts;
