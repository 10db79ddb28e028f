// @generated automatically by Diesel CLI.

pub mod sql_types {
    /// A ledger row's kind: on PostgreSQL an enum of its own (eight bytes a
    /// row with its padding, where the name as text took up to 24), on
    /// SQLite its name as text.
    #[derive(diesel::query_builder::QueryId, Clone, diesel::sql_types::SqlType)]
    #[diesel(postgres_type(name = "ledger_entry_kind"))]
    #[diesel(sqlite_type(name = "Text"))]
    pub struct LedgerEntryKind;
}

diesel::table! {
    api_tokens (id) {
        id -> Int8,
        user_id -> Int8,
        token_hash -> Text,
        label -> Text,
        created_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
        roles -> Nullable<Text>,
        tables -> Nullable<Text>,
        expires_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    app_secrets (name) {
        name -> Text,
        value -> Text,
    }
}

diesel::table! {
    audit_events (id) {
        id -> Int8,
        created_at -> Timestamp,
        user_id -> Nullable<Int8>,
        username -> Text,
        action -> Text,
        target -> Text,
        detail -> Text,
        ip -> Text,
    }
}

diesel::table! {
    casino_tables (id) {
        id -> Int8,
        name -> Text,
        pool_id -> Nullable<Int8>,
        seat_count -> Int4,
        time_zone -> Text,
        gaming_day_cutoff -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    day_corrections (id) {
        id -> Int8,
        hand_id -> Int8,
        table_id -> Int8,
        closed_day -> Text,
        booked_day -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    dealer_tables (user_id, table_id) {
        user_id -> Int8,
        table_id -> Int8,
    }
}

diesel::table! {
    drop_counts (id) {
        id -> Int8,
        gaming_day -> Text,
        table_id -> Int8,
        rake_drop_cents -> Int8,
        jackpot_drop_cents -> Nullable<Int8>,
        note -> Text,
        counted_by -> Int8,
        created_at -> Timestamp,
    }
}

diesel::table! {
    gaming_day_signoffs (id) {
        id -> Int8,
        gaming_day -> Text,
        action -> Text,
        user_id -> Int8,
        note -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    hand_scans (id) {
        id -> Int8,
        hand_id -> Int8,
        seat -> Int4,
        row_name -> Text,
        card -> Text,
        scanned_at -> Timestamp,
    }
}

diesel::table! {
    hand_seats (hand_id, seat) {
        hand_id -> Int8,
        seat -> Int4,
        seating_id -> Int8,
        stack_start_cents -> Int8,
        in_fantasyland -> Bool,
        exposure_start_cents -> Nullable<Int8>,
        fantasyland_cards -> Nullable<Int4>,
    }
}

diesel::table! {
    hand_voids (id) {
        id -> Int8,
        hand_id -> Int8,
        reason -> Text,
        note -> Text,
        created_at -> Timestamp,
        voided_by -> Nullable<Int8>,
    }
}

diesel::table! {
    hands (id) {
        id -> Int8,
        table_id -> Int8,
        number -> Int4,
        dealer_seat -> Int4,
        ruleset_version_id -> Int8,
        started_at -> Timestamp,
        seats -> Nullable<Text>,
    }
}

diesel::table! {
    jackpot_hits (id) {
        id -> Int8,
        pool_id -> Int8,
        hand_id -> Int8,
        kind -> Text,
        loser_seat -> Int4,
        winner_seat -> Int4,
        amount_cents -> Int8,
        created_at -> Timestamp,
    }
}

diesel::table! {
    jackpot_signoffs (id) {
        id -> Int8,
        hit_id -> Int8,
        action -> Text,
        user_id -> Int8,
        reason -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use super::sql_types::LedgerEntryKind;

    ledger_entries (id) {
        id -> Int8,
        table_id -> Nullable<Int8>,
        hand_id -> Nullable<Int8>,
        seating_id -> Nullable<Int8>,
        pool_id -> Nullable<Int8>,
        jackpot_hit_id -> Nullable<Int8>,
        kind -> LedgerEntryKind,
        amount_cents -> Int8,
        reverses_id -> Nullable<Int8>,
        reason -> Nullable<Text>,
        created_at -> Timestamp,
        balance_after_cents -> Nullable<Int8>,
        rake_cents -> Nullable<Int8>,
    }
}

diesel::table! {
    open_seatings (seating_id) {
        seating_id -> Int8,
        table_id -> Int8,
        seat -> Int4,
    }
}

diesel::table! {
    pool_balances (pool_id, table_key) {
        pool_id -> Int8,
        table_key -> Int8,
        balance_cents -> Int8,
        entry_id -> Nullable<Int8>,
    }
}

diesel::table! {
    pool_days (pool_id, gaming_day) {
        pool_id -> Int8,
        gaming_day -> Text,
        seeds_cents -> Int8,
        locked_cents -> Int8,
        returned_cents -> Int8,
        other_cents -> Int8,
        paid_out_cents -> Int8,
    }
}

diesel::table! {
    players (id) {
        id -> Int8,
        name -> Text,
        member_no -> Nullable<Text>,
        created_by -> Nullable<Int8>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    pools (id) {
        id -> Int8,
        name -> Text,
        seed_cents -> Int8,
        created_at -> Timestamp,
        loser_share_pct -> Int4,
        winner_share_pct -> Int4,
        others_share_pct -> Int4,
        time_zone -> Text,
        gaming_day_cutoff -> Text,
    }
}

diesel::table! {
    ruleset_versions (id) {
        id -> Int8,
        table_id -> Int8,
        version -> Int4,
        preset -> Text,
        unit_cents -> Int8,
        rake_cents -> Int8,
        jackpot_cents -> Int8,
        created_at -> Timestamp,
        created_by -> Nullable<Int8>,
        options -> Text,
        pair_units -> Text,
        rules_revision -> Int4,
    }
}

diesel::table! {
    session_days (gaming_day, table_id) {
        gaming_day -> Text,
        table_id -> Int8,
        sessions -> Int8,
        buy_in_cents -> Int8,
        add_ons_cents -> Int8,
        cash_out_cents -> Int8,
        rake_cents -> Int8,
        payouts_cents -> Int8,
        changes -> Int8,
    }
}

diesel::table! {
    session_files (gaming_day, table_id) {
        gaming_day -> Text,
        table_id -> Int8,
        changes -> Int8,
        sessions -> Int8,
        buy_in_cents -> Int8,
        add_ons_cents -> Int8,
        cash_out_cents -> Int8,
        rake_cents -> Int8,
        payouts_cents -> Int8,
        newest_seating -> Int8,
        table_name -> Text,
        time_zone -> Text,
        layout -> Int4,
        built_at -> Timestamp,
        rows_lz4 -> Bytea,
    }
}

diesel::table! {
    seating_stacks (seating_id) {
        seating_id -> Int8,
        stack_cents -> Int8,
        entry_id -> Int8,
    }
}

diesel::table! {
    seating_totals (seating_id) {
        seating_id -> Int8,
        table_id -> Nullable<Int8>,
        gaming_day -> Nullable<Text>,
        buy_in_cents -> Int8,
        add_ons_cents -> Int8,
        cash_out_cents -> Int8,
        rake_cents -> Int8,
        payouts_cents -> Int8,
        seat -> Nullable<Int4>,
        player -> Nullable<Text>,
        seated_at -> Nullable<Timestamp>,
        player_id -> Nullable<Int8>,
        member_no -> Nullable<Text>,
    }
}

diesel::table! {
    seatings (id) {
        id -> Int8,
        table_id -> Int8,
        seat -> Int4,
        player -> Text,
        seated_at -> Timestamp,
        player_id -> Nullable<Int8>,
    }
}

diesel::table! {
    showdowns (hand_id) {
        hand_id -> Int8,
        idempotency_key -> Nullable<Text>,
        request_hash -> Nullable<Text>,
        engine_input -> Nullable<Text>,
        result -> Nullable<Text>,
        committed_at -> Timestamp,
        showdown_z -> Nullable<Bytea>,
    }
}

diesel::table! {
    sign_in_unlocks (id) {
        id -> Int8,
        username -> Text,
        unlocked_by -> Nullable<Int8>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    table_days (table_id, gaming_day) {
        table_id -> Int8,
        gaming_day -> Text,
        hands -> Int8,
        rake_cents -> Int8,
        house_cents -> Int8,
        jackpot_cents -> Int8,
        pool_id -> Nullable<Int8>,
        pool_in_cents -> Int8,
    }
}

diesel::table! {
    table_status_changes (id) {
        id -> Int8,
        table_id -> Int8,
        status -> Text,
        changed_by -> Nullable<Int8>,
        note -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    users (id) {
        id -> Int8,
        username -> Text,
        display_name -> Text,
        roles -> Text,
        password_hash -> Text,
        active -> Bool,
        session_epoch -> Int4,
        created_at -> Timestamp,
        password_set_by -> Nullable<Int8>,
    }
}

diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(audit_events -> users (user_id));
diesel::joinable!(casino_tables -> pools (pool_id));
diesel::joinable!(day_corrections -> casino_tables (table_id));
diesel::joinable!(day_corrections -> hands (hand_id));
diesel::joinable!(dealer_tables -> casino_tables (table_id));
diesel::joinable!(dealer_tables -> users (user_id));
diesel::joinable!(drop_counts -> casino_tables (table_id));
diesel::joinable!(drop_counts -> users (counted_by));
diesel::joinable!(gaming_day_signoffs -> users (user_id));
diesel::joinable!(hand_scans -> hands (hand_id));
diesel::joinable!(hand_seats -> hands (hand_id));
diesel::joinable!(hand_seats -> seatings (seating_id));
diesel::joinable!(hand_voids -> hands (hand_id));
diesel::joinable!(hand_voids -> users (voided_by));
diesel::joinable!(hands -> casino_tables (table_id));
diesel::joinable!(hands -> ruleset_versions (ruleset_version_id));
diesel::joinable!(jackpot_hits -> hands (hand_id));
diesel::joinable!(jackpot_hits -> pools (pool_id));
diesel::joinable!(jackpot_signoffs -> jackpot_hits (hit_id));
diesel::joinable!(jackpot_signoffs -> users (user_id));
diesel::joinable!(ledger_entries -> casino_tables (table_id));
diesel::joinable!(ledger_entries -> hands (hand_id));
diesel::joinable!(ledger_entries -> jackpot_hits (jackpot_hit_id));
diesel::joinable!(ledger_entries -> pools (pool_id));
diesel::joinable!(ledger_entries -> seatings (seating_id));
diesel::joinable!(open_seatings -> casino_tables (table_id));
diesel::joinable!(open_seatings -> seatings (seating_id));
diesel::joinable!(pool_balances -> pools (pool_id));
diesel::joinable!(pool_days -> pools (pool_id));
diesel::joinable!(ruleset_versions -> casino_tables (table_id));
diesel::joinable!(ruleset_versions -> users (created_by));
diesel::joinable!(seating_stacks -> seatings (seating_id));
diesel::joinable!(seating_totals -> seatings (seating_id));
diesel::joinable!(players -> users (created_by));
diesel::joinable!(seatings -> casino_tables (table_id));
diesel::joinable!(seatings -> players (player_id));
diesel::joinable!(session_days -> casino_tables (table_id));
diesel::joinable!(session_files -> casino_tables (table_id));
diesel::joinable!(showdowns -> hands (hand_id));
diesel::joinable!(sign_in_unlocks -> users (unlocked_by));
diesel::joinable!(table_days -> casino_tables (table_id));
diesel::joinable!(table_days -> pools (pool_id));
diesel::joinable!(table_status_changes -> casino_tables (table_id));
diesel::joinable!(table_status_changes -> users (changed_by));

diesel::allow_tables_to_appear_in_same_query!(
    api_tokens,
    app_secrets,
    audit_events,
    casino_tables,
    day_corrections,
    dealer_tables,
    drop_counts,
    gaming_day_signoffs,
    hand_scans,
    hand_seats,
    hand_voids,
    hands,
    jackpot_hits,
    jackpot_signoffs,
    ledger_entries,
    open_seatings,
    pool_balances,
    pool_days,
    players,
    pools,
    ruleset_versions,
    seating_stacks,
    seating_totals,
    seatings,
    session_days,
    session_files,
    showdowns,
    sign_in_unlocks,
    table_days,
    table_status_changes,
    users,
);
