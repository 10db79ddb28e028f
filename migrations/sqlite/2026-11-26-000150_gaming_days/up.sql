-- Issue 16, the gaming-day close: what the count team counted in each
-- table's drop boxes, the two sign-offs that close a day, and the voids of
-- a closed day's hands booked into an open day. All append-only; a closed
-- day's rollups change no more.
CREATE TABLE drop_counts (
    id INTEGER PRIMARY KEY,
    gaming_day TEXT NOT NULL,
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    rake_drop_cents BIGINT NOT NULL CHECK (rake_drop_cents >= 0),
    jackpot_drop_cents BIGINT CHECK (jackpot_drop_cents >= 0),
    note TEXT NOT NULL,
    counted_by BIGINT NOT NULL REFERENCES users (id),
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX drop_counts_day ON drop_counts (gaming_day, table_id, id);
CREATE TRIGGER drop_counts_no_update BEFORE UPDATE ON drop_counts
BEGIN SELECT RAISE(ABORT, 'books: drop counts are append-only'); END;
CREATE TRIGGER drop_counts_no_delete BEFORE DELETE ON drop_counts
BEGIN SELECT RAISE(ABORT, 'books: drop counts are append-only'); END;

-- 'count' (the count team) first, then 'accountant': the day is closed.
CREATE TABLE gaming_day_signoffs (
    id INTEGER PRIMARY KEY,
    gaming_day TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('count', 'accountant')),
    user_id BIGINT NOT NULL REFERENCES users (id),
    note TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (gaming_day, action)
);
CREATE TRIGGER gaming_day_signoffs_no_update BEFORE UPDATE ON gaming_day_signoffs
BEGIN SELECT RAISE(ABORT, 'books: gaming-day sign-offs are append-only'); END;
CREATE TRIGGER gaming_day_signoffs_no_delete BEFORE DELETE ON gaming_day_signoffs
BEGIN SELECT RAISE(ABORT, 'books: gaming-day sign-offs are append-only'); END;
CREATE TRIGGER gaming_day_signoffs_in_order BEFORE INSERT ON gaming_day_signoffs
WHEN NEW.action = 'accountant' AND NOT EXISTS (
    SELECT 1 FROM gaming_day_signoffs WHERE gaming_day = NEW.gaming_day AND action = 'count'
        AND user_id <> NEW.user_id)
BEGIN SELECT RAISE(ABORT, 'books: a day closes after the count team signs, by another person'); END;

-- A void of a hand whose gaming day is closed: its reversing rows count on
-- the open day they were written (booked_day), not on the closed one.
CREATE TABLE day_corrections (
    id INTEGER PRIMARY KEY,
    hand_id BIGINT NOT NULL UNIQUE REFERENCES hands (id),
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    closed_day TEXT NOT NULL,
    booked_day TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    CHECK (booked_day > closed_day)
);
CREATE INDEX day_corrections_booked ON day_corrections (booked_day);
CREATE TRIGGER day_corrections_no_update BEFORE UPDATE ON day_corrections
BEGIN SELECT RAISE(ABORT, 'books: day corrections are append-only'); END;
CREATE TRIGGER day_corrections_no_delete BEFORE DELETE ON day_corrections
BEGIN SELECT RAISE(ABORT, 'books: day corrections are append-only'); END;

-- A closed day's figures stay as they were signed.
CREATE TRIGGER table_days_closed_insert BEFORE INSERT ON table_days
WHEN EXISTS (SELECT 1 FROM gaming_day_signoffs WHERE gaming_day = NEW.gaming_day AND action = 'accountant')
BEGIN SELECT RAISE(ABORT, 'books: gaming day closed'); END;
CREATE TRIGGER table_days_closed_update BEFORE UPDATE ON table_days
WHEN EXISTS (SELECT 1 FROM gaming_day_signoffs
             WHERE gaming_day IN (OLD.gaming_day, NEW.gaming_day) AND action = 'accountant')
BEGIN SELECT RAISE(ABORT, 'books: gaming day closed'); END;
