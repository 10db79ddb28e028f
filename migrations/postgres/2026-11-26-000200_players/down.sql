DROP INDEX seatings_player;
ALTER TABLE seatings DROP COLUMN player_id;
DROP TRIGGER players_append_only ON players;
DROP TABLE players;
