ALTER TABLE ruleset_versions DROP COLUMN rules_revision;
