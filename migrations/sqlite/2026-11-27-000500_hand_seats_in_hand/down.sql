-- Back to the release before: the seats of hands kept in their rows go back
-- to hand_seats, a row each, and the column goes.
DROP TRIGGER hand_seats_one_form;
DROP TRIGGER hands_seats_guard;
INSERT INTO hand_seats (hand_id, seat, seating_id, stack_start_cents, in_fantasyland,
        exposure_start_cents, fantasyland_cards)
    SELECT h.id, json_extract(s.value, '$[0]'), json_extract(s.value, '$[1]'), json_extract(s.value, '$[3]'),
        COALESCE(json_extract(s.value, '$[4]'), 0) = 1, json_extract(s.value, '$[5]'), json_extract(s.value, '$[6]')
    FROM hands AS h, json_each(h.seats) AS s
    WHERE h.seats IS NOT NULL;
ALTER TABLE hands DROP COLUMN seats;
