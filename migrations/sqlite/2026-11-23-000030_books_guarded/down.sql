DROP TRIGGER signoffs_no_delete;
DROP TRIGGER signoffs_no_update;
CREATE TRIGGER signoffs_no_update BEFORE UPDATE ON jackpot_signoffs
BEGIN SELECT RAISE(ABORT, 'jackpot sign-offs are append-only'); END;
CREATE TRIGGER signoffs_no_delete BEFORE DELETE ON jackpot_signoffs
BEGIN SELECT RAISE(ABORT, 'jackpot sign-offs are append-only'); END;
DROP TRIGGER audit_no_delete;
DROP TRIGGER audit_no_update;
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit_events
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit_events
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
DROP TRIGGER ledger_no_delete;
DROP TRIGGER ledger_no_update;
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
DROP TRIGGER hand_scans_no_delete;
DROP TRIGGER hand_scans_no_update;
DROP TRIGGER seatings_no_delete;
DROP TRIGGER seatings_no_update;
DROP TRIGGER ruleset_versions_no_delete;
DROP TRIGGER ruleset_versions_no_update;
DROP TRIGGER hand_voids_no_delete;
DROP TRIGGER hand_voids_no_update;
DROP TRIGGER jackpot_hits_no_delete;
DROP TRIGGER jackpot_hits_no_update;
DROP TRIGGER showdowns_no_delete;
DROP TRIGGER showdowns_no_update;
DROP TRIGGER hand_seats_no_delete;
DROP TRIGGER hand_seats_no_update;
DROP TRIGGER hands_no_delete;
DROP TRIGGER hands_no_update;
DROP TRIGGER hand_seats_guard;
DROP TRIGGER ruleset_versions_guard;
DROP TRIGGER pools_guard;
DROP TRIGGER signoffs_guard;
DROP TRIGGER jackpot_hits_guard;
DROP TRIGGER ledger_guard;
DROP INDEX ledger_pool_latest;
DROP INDEX ledger_reversed_once;
ALTER TABLE api_tokens DROP COLUMN expires_at;
ALTER TABLE api_tokens DROP COLUMN tables;
ALTER TABLE api_tokens DROP COLUMN roles;
ALTER TABLE users DROP COLUMN password_set_by;
ALTER TABLE ruleset_versions DROP COLUMN pair_units;
