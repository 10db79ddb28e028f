DROP INDEX hand_voids_at;
