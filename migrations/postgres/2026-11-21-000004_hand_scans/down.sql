DROP TABLE hand_scans;
