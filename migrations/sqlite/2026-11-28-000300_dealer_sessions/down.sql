DROP INDEX audit_sessions;
