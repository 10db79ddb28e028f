-- Issue 16, players: a player's record (a name and an optional member or ID
-- number), chosen or made when they are seated, so that their sessions and
-- results can be found across tables and days. A seating keeps the name it
-- was made with (what the sheets of its hands showed); player_id links it to
-- the record (none for seatings made before records existed).
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    member_no TEXT CHECK (member_no IS NULL OR length(member_no) BETWEEN 1 AND 40),
    created_by BIGINT REFERENCES users (id),
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX players_member_no ON players (member_no) WHERE member_no IS NOT NULL;
CREATE INDEX players_name ON players (name);
-- Sessions hang on a record: it is never taken away.
CREATE TRIGGER players_no_update BEFORE UPDATE ON players
BEGIN SELECT RAISE(ABORT, 'books: player records are append-only'); END;
CREATE TRIGGER players_no_delete BEFORE DELETE ON players
BEGIN SELECT RAISE(ABORT, 'books: player records are append-only'); END;

ALTER TABLE seatings ADD COLUMN player_id BIGINT REFERENCES players (id);
CREATE INDEX seatings_player ON seatings (player_id, id) WHERE player_id IS NOT NULL;
