-- Back to the release before: the seats of hands kept in their rows go back
-- to hand_seats, a row each, and the column goes.
DROP TRIGGER hand_seats_one_form ON hand_seats;
DROP FUNCTION hand_seats_one_form();
DROP TRIGGER hands_seats_guard ON hands;
DROP FUNCTION hands_seats_guard();
INSERT INTO hand_seats (hand_id, seat, seating_id, stack_start_cents, in_fantasyland,
        exposure_start_cents, fantasyland_cards)
    SELECT h.id, (s ->> 0)::integer, (s ->> 1)::bigint, (s ->> 3)::bigint,
        COALESCE((s ->> 4)::integer, 0) = 1, (s ->> 5)::bigint, (s ->> 6)::integer
    FROM hands AS h, jsonb_array_elements(h.seats::jsonb) AS s
    WHERE h.seats IS NOT NULL;
ALTER TABLE hands DROP COLUMN seats;
