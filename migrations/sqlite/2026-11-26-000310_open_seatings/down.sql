DROP TRIGGER ledger_cash_out_frees_the_seat;
DROP TRIGGER seatings_open;
DROP TABLE open_seatings;
