CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only';
END;
$$ LANGUAGE plpgsql;
CREATE OR REPLACE FUNCTION audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER hand_scans_append_only ON hand_scans;
DROP TRIGGER seatings_append_only ON seatings;
DROP TRIGGER ruleset_versions_append_only ON ruleset_versions;
DROP TRIGGER hand_voids_append_only ON hand_voids;
DROP TRIGGER jackpot_hits_append_only ON jackpot_hits;
DROP TRIGGER showdowns_append_only ON showdowns;
DROP TRIGGER hand_seats_append_only ON hand_seats;
DROP TRIGGER hands_append_only ON hands;
DROP FUNCTION books_append_only();
DROP TRIGGER signoffs_guard ON jackpot_signoffs;
DROP FUNCTION signoffs_guard();
DROP TRIGGER ledger_guard ON ledger_entries;
DROP FUNCTION ledger_guard();
ALTER TABLE hand_seats DROP CONSTRAINT hand_seats_stack;
ALTER TABLE ruleset_versions DROP CONSTRAINT ruleset_money_limit;
ALTER TABLE pools DROP CONSTRAINT pools_seed_limit;
ALTER TABLE jackpot_hits DROP CONSTRAINT jackpot_hits_amount;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_stack;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_accounts;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_signs;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_money_limit;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_kind;
DROP INDEX ledger_pool_latest;
DROP INDEX ledger_reversed_once;
ALTER TABLE api_tokens DROP COLUMN expires_at;
ALTER TABLE api_tokens DROP COLUMN tables;
ALTER TABLE api_tokens DROP COLUMN roles;
ALTER TABLE users DROP COLUMN password_set_by;
ALTER TABLE ruleset_versions DROP COLUMN pair_units;
