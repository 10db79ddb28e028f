-- Issue 17: lookups that read more as the history grows.
--
-- A cash-out slip finds the audit event of its cash-out by the seat and the
-- time: the cash-outs alone, by seat and time (it read every audit event).
CREATE INDEX audit_cash_outs ON audit_events (target, created_at) WHERE action = 'cash_out';
-- A hand's jackpot hits (its sheet, its void; the hits waiting on a
-- decision): by the hand (it read every hit).
CREATE INDEX jackpot_hits_hand ON jackpot_hits (hand_id);
