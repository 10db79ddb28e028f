DROP TRIGGER ledger_cash_out_frees_the_seat ON ledger_entries;
DROP FUNCTION free_seat();
DROP TRIGGER seatings_open ON seatings;
DROP FUNCTION open_seating();
DROP TABLE open_seatings;
