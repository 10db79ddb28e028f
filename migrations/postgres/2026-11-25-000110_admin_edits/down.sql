DROP INDEX audit_pool_changes;
ALTER TABLE pools DROP CONSTRAINT pools_shares;
DROP TRIGGER sign_in_unlocks_append_only ON sign_in_unlocks;
DROP TABLE sign_in_unlocks;
