DROP INDEX audit_pool_changes;
DROP TRIGGER pools_update_guard;
DROP TRIGGER sign_in_unlocks_no_delete;
DROP TRIGGER sign_in_unlocks_no_update;
DROP TABLE sign_in_unlocks;
