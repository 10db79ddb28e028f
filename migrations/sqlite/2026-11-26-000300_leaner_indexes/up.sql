-- Storage (issue 17): no index that no query needs, and one that a report
-- did need.
--
-- A table's ledger is read through its seatings, hands and hits (each
-- indexed already); the index on the ledger's table_id only served that
-- read.
DROP INDEX ledger_table;
-- The jackpot report marks a pool's seeds: without this it read the whole
-- ledger. Seeds are rare, so the index is small.
CREATE INDEX ledger_pool_seeds ON ledger_entries (pool_id, id) WHERE kind = 'pool_seed';
-- The jackpot report's hits of a pool in a range.
CREATE INDEX jackpot_hits_pool ON jackpot_hits (pool_id, created_at);

-- A hand's seats are found by their key (hand, seat) only: stored in that
-- key's own tree (WITHOUT ROWID), not in a table plus a copy of the key.
CREATE TABLE hand_seats_new (
    hand_id BIGINT NOT NULL REFERENCES hands (id),
    seat INTEGER NOT NULL,
    seating_id BIGINT NOT NULL REFERENCES seatings (id),
    stack_start_cents BIGINT NOT NULL,
    in_fantasyland BOOLEAN NOT NULL,
    exposure_start_cents BIGINT,
    fantasyland_cards INTEGER,
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;
INSERT INTO hand_seats_new (hand_id, seat, seating_id, stack_start_cents, in_fantasyland,
        exposure_start_cents, fantasyland_cards)
    SELECT hand_id, seat, seating_id, stack_start_cents, in_fantasyland, exposure_start_cents, fantasyland_cards
    FROM hand_seats;
DROP TABLE hand_seats;
ALTER TABLE hand_seats_new RENAME TO hand_seats;
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
