-- Cards read by a shoe or an RFID table into an open hand: one row per card,
-- so a card scanned twice is refused, never doubled.
CREATE TABLE hand_scans (
    id INTEGER PRIMARY KEY,
    hand_id BIGINT NOT NULL REFERENCES hands (id),
    seat INTEGER NOT NULL,
    row_name TEXT NOT NULL CHECK (row_name IN ('front', 'middle', 'back')),
    card TEXT NOT NULL,
    scanned_at TIMESTAMP NOT NULL,
    UNIQUE (hand_id, card)
);
