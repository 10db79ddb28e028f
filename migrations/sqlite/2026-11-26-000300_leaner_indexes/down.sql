CREATE TABLE hand_seats_old (
    hand_id BIGINT NOT NULL REFERENCES hands (id),
    seat INTEGER NOT NULL,
    seating_id BIGINT NOT NULL REFERENCES seatings (id),
    stack_start_cents BIGINT NOT NULL,
    in_fantasyland BOOLEAN NOT NULL,
    exposure_start_cents BIGINT,
    fantasyland_cards INTEGER,
    PRIMARY KEY (hand_id, seat)
);
INSERT INTO hand_seats_old (hand_id, seat, seating_id, stack_start_cents, in_fantasyland,
        exposure_start_cents, fantasyland_cards)
    SELECT hand_id, seat, seating_id, stack_start_cents, in_fantasyland, exposure_start_cents, fantasyland_cards
    FROM hand_seats;
DROP TABLE hand_seats;
ALTER TABLE hand_seats_old RENAME TO hand_seats;
CREATE TRIGGER hand_seats_guard BEFORE INSERT ON hand_seats
BEGIN
    SELECT RAISE(ABORT, 'books: a stack at the start of a hand is zero or more, within the money limit')
    WHERE NEW.stack_start_cents NOT BETWEEN 0 AND 100000000000000
        OR NEW.exposure_start_cents NOT BETWEEN 0 AND 100000000000000;
END;
CREATE TRIGGER hand_seats_no_update BEFORE UPDATE ON hand_seats
BEGIN SELECT RAISE(ABORT, 'books: hand seats are append-only'); END;
CREATE TRIGGER hand_seats_no_delete BEFORE DELETE ON hand_seats
BEGIN SELECT RAISE(ABORT, 'books: hand seats are append-only'); END;
DROP INDEX jackpot_hits_pool;
DROP INDEX ledger_pool_seeds;
CREATE INDEX ledger_table ON ledger_entries (table_id);
