-- Each ruleset version is pinned to the revision of its preset's definition
-- (issue 14: presets follow their seed documents; a superseded definition is
-- kept so that hands committed under it rescore exactly). Versions made
-- before revisions existed played revision 1.
ALTER TABLE ruleset_versions ADD COLUMN rules_revision INTEGER NOT NULL DEFAULT 1;
