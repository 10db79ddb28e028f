-- Back to the planner's own choice inside the books' guards.
ALTER FUNCTION ledger_guard() RESET enable_seqscan;
ALTER FUNCTION seating_stacks_checked() RESET enable_seqscan;
ALTER FUNCTION pool_balances_checked() RESET enable_seqscan;
ALTER FUNCTION hands_seats_guard() RESET enable_seqscan;
ALTER FUNCTION hand_seats_one_form() RESET enable_seqscan;
ALTER FUNCTION seating_totals_changed() RESET enable_seqscan;
ALTER FUNCTION seating_totals_copied() RESET enable_seqscan;
ALTER FUNCTION free_seat() RESET enable_seqscan;
ALTER FUNCTION signoffs_guard() RESET enable_seqscan;
ALTER FUNCTION table_days_closed_guard() RESET enable_seqscan;
ALTER FUNCTION gaming_day_signoffs_in_order() RESET enable_seqscan;
