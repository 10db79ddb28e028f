DROP INDEX seatings_player;
ALTER TABLE seatings DROP COLUMN player_id;
DROP TRIGGER players_no_delete;
DROP TRIGGER players_no_update;
DROP INDEX players_name;
DROP INDEX players_member_no;
DROP TABLE players;
