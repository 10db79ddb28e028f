-- The books' guards find rows by their keys whatever the planner's statistics
-- say (issue 17). A PL/pgSQL function plans each of its statements once per
-- connection and keeps the plan; a plan made while a table was small (a new
-- database, or a server whose statistics are not kept: autovacuum off) reads
-- the whole table, and kept on reading it as the table grew. Measured on a
-- new database under load with autovacuum off: the deferred check of each
-- seat's stack (`seating_stacks_checked`) read every ledger row, 5 ms a seat
-- row after a minute, and the check of a pool's balance 0.5 ms a hand.
--
-- Each of these functions reads rows (a SELECT, an UPDATE or DELETE with a
-- WHERE) only by a key that has an index: the primary key of a ledger row, a
-- seating, a hand, a stack, or the unique key of a balance, a rollup, a
-- sign-off. The guards that only insert (`open_seating`, and the upserts of
-- `ledger_pool_balance` and `seating_totals_made`, whose conflict is found
-- through its unique index) have no plan to choose and keep their settings
-- unchanged. With sequential scans off inside them, the
-- planner takes the index whatever it believes of the table's size (a table
-- with no index for a question would still be read in full: the setting makes
-- a full read the last choice, not impossible).
ALTER FUNCTION ledger_guard() SET enable_seqscan = off;
ALTER FUNCTION seating_stacks_checked() SET enable_seqscan = off;
ALTER FUNCTION pool_balances_checked() SET enable_seqscan = off;
ALTER FUNCTION hands_seats_guard() SET enable_seqscan = off;
ALTER FUNCTION hand_seats_one_form() SET enable_seqscan = off;
ALTER FUNCTION seating_totals_changed() SET enable_seqscan = off;
ALTER FUNCTION seating_totals_copied() SET enable_seqscan = off;
ALTER FUNCTION free_seat() SET enable_seqscan = off;
ALTER FUNCTION signoffs_guard() SET enable_seqscan = off;
ALTER FUNCTION table_days_closed_guard() SET enable_seqscan = off;
ALTER FUNCTION gaming_day_signoffs_in_order() SET enable_seqscan = off;
