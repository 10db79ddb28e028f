-- The seats taken now (issue 17): a seating's row from the moment it is
-- made until its cash-out, kept by the database itself. Before this, every
-- hand started and every look at the pit read every seating a table ever
-- had and looked for its cash-out, which grew with the year. What happened
-- stays in the books (seatings, the ledger); this says only where things
-- are, and one seat holds one player (the unique key).
CREATE TABLE open_seatings (
    seating_id BIGINT PRIMARY KEY REFERENCES seatings (id),
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    seat INTEGER NOT NULL,
    UNIQUE (table_id, seat)
);
INSERT INTO open_seatings (seating_id, table_id, seat)
    SELECT s.id, s.table_id, s.seat FROM seatings s
    WHERE NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.seating_id = s.id AND l.kind = 'cash_out');
CREATE TRIGGER seatings_open AFTER INSERT ON seatings
BEGIN
    INSERT INTO open_seatings (seating_id, table_id, seat) VALUES (NEW.id, NEW.table_id, NEW.seat);
END;
CREATE TRIGGER ledger_cash_out_frees_the_seat AFTER INSERT ON ledger_entries WHEN NEW.kind = 'cash_out'
BEGIN
    DELETE FROM open_seatings WHERE seating_id = NEW.seating_id;
END;
