-- pitboss schema (SQLite). Money is BIGINT cents; times are UTC TIMESTAMP.
CREATE TABLE pools (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    seed_cents BIGINT NOT NULL CHECK (seed_cents >= 0),
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE casino_tables (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    pool_id BIGINT REFERENCES pools (id),
    seat_count INTEGER NOT NULL CHECK (seat_count BETWEEN 2 AND 4),
    time_zone TEXT NOT NULL,
    gaming_day_cutoff TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE ruleset_versions (
    id INTEGER PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    version INTEGER NOT NULL,
    preset TEXT NOT NULL,
    unit_cents BIGINT NOT NULL CHECK (unit_cents > 0),
    rake_cents BIGINT NOT NULL CHECK (rake_cents >= 0),
    jackpot_cents BIGINT NOT NULL CHECK (jackpot_cents >= 0 AND jackpot_cents <= rake_cents),
    created_at TIMESTAMP NOT NULL,
    UNIQUE (table_id, version)
);

CREATE TABLE seatings (
    id INTEGER PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    seated_at TIMESTAMP NOT NULL
);
CREATE INDEX seatings_table ON seatings (table_id, seat);

CREATE TABLE hands (
    id INTEGER PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES casino_tables (id),
    number INTEGER NOT NULL,
    dealer_seat INTEGER NOT NULL,
    ruleset_version_id BIGINT NOT NULL REFERENCES ruleset_versions (id),
    started_at TIMESTAMP NOT NULL,
    UNIQUE (table_id, number)
);

CREATE TABLE hand_seats (
    hand_id BIGINT NOT NULL REFERENCES hands (id),
    seat INTEGER NOT NULL,
    seating_id BIGINT NOT NULL REFERENCES seatings (id),
    stack_start_cents BIGINT NOT NULL,
    in_fantasyland BOOLEAN NOT NULL,
    PRIMARY KEY (hand_id, seat)
);

-- The one commit of a hand's showdown.
CREATE TABLE showdowns (
    id INTEGER PRIMARY KEY,
    hand_id BIGINT NOT NULL UNIQUE REFERENCES hands (id),
    idempotency_key TEXT,
    request_hash TEXT NOT NULL,
    engine_input TEXT NOT NULL,
    result TEXT NOT NULL,
    committed_at TIMESTAMP NOT NULL
);

CREATE TABLE jackpot_hits (
    id INTEGER PRIMARY KEY,
    pool_id BIGINT NOT NULL REFERENCES pools (id),
    hand_id BIGINT NOT NULL REFERENCES hands (id),
    kind TEXT NOT NULL,
    loser_seat INTEGER NOT NULL,
    winner_seat INTEGER NOT NULL,
    amount_cents BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE hand_voids (
    id INTEGER PRIMARY KEY,
    hand_id BIGINT NOT NULL UNIQUE REFERENCES hands (id),
    reason TEXT NOT NULL,
    note TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- Every money movement. Append-only: corrections are new reversing rows.
CREATE TABLE ledger_entries (
    id INTEGER PRIMARY KEY,
    table_id BIGINT REFERENCES casino_tables (id),
    hand_id BIGINT REFERENCES hands (id),
    seating_id BIGINT REFERENCES seatings (id),
    pool_id BIGINT REFERENCES pools (id),
    jackpot_hit_id BIGINT REFERENCES jackpot_hits (id),
    kind TEXT NOT NULL,
    amount_cents BIGINT NOT NULL,
    reverses_id BIGINT REFERENCES ledger_entries (id),
    reason TEXT,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX ledger_seating ON ledger_entries (seating_id);
CREATE INDEX ledger_pool ON ledger_entries (pool_id);
CREATE INDEX ledger_hand ON ledger_entries (hand_id);
CREATE INDEX ledger_table ON ledger_entries (table_id);

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
