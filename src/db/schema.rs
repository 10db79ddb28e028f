// The tables of migrations/{sqlite,postgres}; kept in step with both.

diesel::table! {
    pools (id) {
        id -> BigInt,
        name -> Text,
        seed_cents -> BigInt,
        created_at -> Timestamp,
        loser_share_pct -> Integer,
        winner_share_pct -> Integer,
        others_share_pct -> Integer,
    }
}

diesel::table! {
    casino_tables (id) {
        id -> BigInt,
        name -> Text,
        pool_id -> Nullable<BigInt>,
        seat_count -> Integer,
        time_zone -> Text,
        gaming_day_cutoff -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    ruleset_versions (id) {
        id -> BigInt,
        table_id -> BigInt,
        version -> Integer,
        preset -> Text,
        unit_cents -> BigInt,
        rake_cents -> BigInt,
        jackpot_cents -> BigInt,
        created_at -> Timestamp,
        created_by -> Nullable<BigInt>,
        options -> Text,
    }
}

diesel::table! {
    seatings (id) {
        id -> BigInt,
        table_id -> BigInt,
        seat -> Integer,
        player -> Text,
        seated_at -> Timestamp,
    }
}

diesel::table! {
    hands (id) {
        id -> BigInt,
        table_id -> BigInt,
        number -> Integer,
        dealer_seat -> Integer,
        ruleset_version_id -> BigInt,
        started_at -> Timestamp,
    }
}

diesel::table! {
    hand_seats (hand_id, seat) {
        hand_id -> BigInt,
        seat -> Integer,
        seating_id -> BigInt,
        stack_start_cents -> BigInt,
        in_fantasyland -> Bool,
        exposure_start_cents -> Nullable<BigInt>,
        fantasyland_cards -> Nullable<Integer>,
    }
}

diesel::table! {
    showdowns (id) {
        id -> BigInt,
        hand_id -> BigInt,
        idempotency_key -> Nullable<Text>,
        request_hash -> Text,
        engine_input -> Text,
        result -> Text,
        committed_at -> Timestamp,
    }
}

diesel::table! {
    jackpot_hits (id) {
        id -> BigInt,
        pool_id -> BigInt,
        hand_id -> BigInt,
        kind -> Text,
        loser_seat -> Integer,
        winner_seat -> Integer,
        amount_cents -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    hand_voids (id) {
        id -> BigInt,
        hand_id -> BigInt,
        reason -> Text,
        note -> Text,
        created_at -> Timestamp,
        voided_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    ledger_entries (id) {
        id -> BigInt,
        table_id -> Nullable<BigInt>,
        hand_id -> Nullable<BigInt>,
        seating_id -> Nullable<BigInt>,
        pool_id -> Nullable<BigInt>,
        jackpot_hit_id -> Nullable<BigInt>,
        kind -> Text,
        amount_cents -> BigInt,
        reverses_id -> Nullable<BigInt>,
        reason -> Nullable<Text>,
        created_at -> Timestamp,
        balance_after_cents -> Nullable<BigInt>,
    }
}

diesel::table! {
    hand_scans (id) {
        id -> BigInt,
        hand_id -> BigInt,
        seat -> Integer,
        row_name -> Text,
        card -> Text,
        scanned_at -> Timestamp,
    }
}

diesel::table! {
    users (id) {
        id -> BigInt,
        username -> Text,
        display_name -> Text,
        roles -> Text,
        password_hash -> Text,
        active -> Bool,
        session_epoch -> Integer,
        created_at -> Timestamp,
    }
}

diesel::table! {
    dealer_tables (user_id, table_id) {
        user_id -> BigInt,
        table_id -> BigInt,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> BigInt,
        user_id -> BigInt,
        token_hash -> Text,
        label -> Text,
        created_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    audit_events (id) {
        id -> BigInt,
        created_at -> Timestamp,
        user_id -> Nullable<BigInt>,
        username -> Text,
        action -> Text,
        target -> Text,
        detail -> Text,
        ip -> Text,
    }
}

diesel::table! {
    jackpot_signoffs (id) {
        id -> BigInt,
        hit_id -> BigInt,
        action -> Text,
        user_id -> BigInt,
        reason -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    app_secrets (name) {
        name -> Text,
        value -> Text,
    }
}

diesel::joinable!(casino_tables -> pools (pool_id));
diesel::joinable!(ruleset_versions -> casino_tables (table_id));
diesel::joinable!(seatings -> casino_tables (table_id));
diesel::joinable!(hands -> casino_tables (table_id));
diesel::joinable!(hand_seats -> hands (hand_id));
diesel::joinable!(showdowns -> hands (hand_id));
diesel::joinable!(dealer_tables -> users (user_id));
diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(jackpot_signoffs -> users (user_id));
diesel::joinable!(jackpot_signoffs -> jackpot_hits (hit_id));
diesel::joinable!(jackpot_hits -> hands (hand_id));
diesel::joinable!(hand_voids -> users (voided_by));
diesel::joinable!(ruleset_versions -> users (created_by));

diesel::allow_tables_to_appear_in_same_query!(
    pools,
    casino_tables,
    ruleset_versions,
    seatings,
    hands,
    hand_seats,
    showdowns,
    jackpot_hits,
    hand_voids,
    ledger_entries,
    hand_scans,
    users,
    dealer_tables,
    api_tokens,
    audit_events,
    jackpot_signoffs,
    app_secrets,
);
