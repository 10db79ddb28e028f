DROP INDEX jackpot_hits_hand;
DROP INDEX audit_cash_outs;
