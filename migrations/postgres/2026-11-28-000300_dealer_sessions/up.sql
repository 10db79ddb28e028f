-- The pit board shows which of a table's dealers are signed in (issue 16):
-- the sign-ins, sign-outs and own password changes (which end a person's
-- sessions) of the last session's length, found by time (a few hundred rows
-- a day among millions of the audit trail).
CREATE INDEX audit_sessions ON audit_events (created_at) WHERE action IN ('login', 'logout', 'password_change');
