DROP TRIGGER table_days_closed_guard ON table_days;
DROP FUNCTION table_days_closed_guard();
DROP TABLE day_corrections;
DROP TABLE gaming_day_signoffs;
DROP FUNCTION gaming_day_signoffs_in_order();
DROP TABLE drop_counts;
