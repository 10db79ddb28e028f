//! The pit board's queries: every table at a glance, each question asked once
//! for all tables (a handful of statements, never one per table).

use chrono::NaiveDateTime;
use diesel::dsl::{exists, not};
use diesel::prelude::*;

use super::schema::{
    audit_events, casino_tables, dealer_tables, hand_voids, hands, jackpot_hits, jackpot_signoffs, open_seatings,
    ruleset_versions, showdowns, table_status_changes, users,
};
use super::tables::{RulesetRow, TableRow};
use super::DbConnection;
use crate::domain::{HandId, HandNumber, HitId, SignoffAction, TableId, TableStatus, VoidReason};

/// A table with its last hand started and the time of its last commit.
pub type TableLine = (TableRow, Option<HandId>, Option<NaiveDateTime>);

/// Every table, in id order, with the id of its last hand and when its last
/// committed hand was committed (each an index walk down the table's hands).
pub fn tables(conn: &mut DbConnection) -> QueryResult<Vec<TableLine>> {
    let last = diesel::alias!(hands as last);
    let last_hand = last
        .filter(last.field(hands::table_id).eq(casino_tables::id))
        .order(last.field(hands::number).desc())
        .select(last.field(hands::id))
        .limit(1)
        .single_value();
    let committed = hands::table
        .inner_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .filter(hands::table_id.eq(casino_tables::id))
        .order(hands::number.desc())
        .select(showdowns::committed_at)
        .limit(1)
        .single_value();
    casino_tables::table.order(casino_tables::id.asc()).select((TableRow::as_select(), last_hand, committed)).load(conn)
}

/// A hand started: its table, number, start and whether it is still open
/// (neither committed nor voided).
#[derive(Clone, Copy, Debug)]
pub struct StartedHand {
    pub table_id: TableId,
    pub number: HandNumber,
    pub started_at: NaiveDateTime,
    pub open: bool,
}

/// The hands named.
pub fn hands_started(conn: &mut DbConnection, ids: &[HandId]) -> QueryResult<Vec<StartedHand>> {
    type Row = (TableId, HandNumber, NaiveDateTime, Option<i64>, Option<i64>);
    let rows: Vec<Row> = hands::table
        .left_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(hands::id.eq_any(ids))
        .select((
            hands::table_id,
            hands::number,
            hands::started_at,
            showdowns::hand_id.nullable(),
            hand_voids::id.nullable(),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(table_id, number, started_at, committed, voided)| StartedHand {
            table_id,
            number,
            started_at,
            open: committed.is_none() && voided.is_none(),
        })
        .collect())
}

/// Every table's current ruleset version.
pub fn current_rulesets(conn: &mut DbConnection) -> QueryResult<Vec<RulesetRow>> {
    let newer = diesel::alias!(ruleset_versions as newer);
    let superseded = newer
        .filter(newer.field(ruleset_versions::table_id).eq(ruleset_versions::table_id))
        .filter(newer.field(ruleset_versions::version).gt(ruleset_versions::version));
    ruleset_versions::table.filter(not(exists(superseded))).select(RulesetRow::as_select()).load(conn)
}

/// A table's latest status change: its status, when, and by whom (username).
pub type StatusLine = (TableId, TableStatus, NaiveDateTime, Option<String>);

/// The latest status change of every table that has one.
pub fn latest_statuses(conn: &mut DbConnection) -> QueryResult<Vec<StatusLine>> {
    // Each table's latest change's id (one walk down its index a table),
    // then those changes: driven from the tables, never a pass over every
    // change the room ever had.
    // (`max`, not `ORDER BY … LIMIT $1`: PostgreSQL's generic plan for a
    // bound limit here is a pass over every change.)
    let other = diesel::alias!(table_status_changes as other);
    let latest_of_table = other
        .filter(other.field(table_status_changes::table_id).eq(casino_tables::id))
        .select(diesel::dsl::max(other.field(table_status_changes::id)))
        .single_value();
    table_status_changes::table
        .left_join(users::table.on(users::id.nullable().eq(table_status_changes::changed_by)))
        .filter(table_status_changes::id.nullable().eq_any(casino_tables::table.select(latest_of_table)))
        .select((
            table_status_changes::table_id,
            table_status_changes::status,
            table_status_changes::created_at,
            users::username.nullable(),
        ))
        .load(conn)
}

/// The active dealers assigned to each table: (table, username, display
/// name), by name.
pub fn dealers(conn: &mut DbConnection) -> QueryResult<Vec<(TableId, String, String)>> {
    dealer_tables::table
        .inner_join(users::table.on(users::id.eq(dealer_tables::user_id)))
        .filter(users::active.eq(true))
        .order((dealer_tables::table_id.asc(), users::display_name.asc(), users::username.asc()))
        .select((dealer_tables::table_id, users::username, users::display_name))
        .load(conn)
}

/// The sign-ins, sign-outs and own password changes (which end every
/// session of the person) since `since`, oldest first: (username, action).
/// Through the partial index `audit_sessions`, by its own condition written
/// out (SQLite uses a partial index only for a query that repeats it).
pub fn sessions_since(conn: &mut DbConnection, since: NaiveDateTime) -> QueryResult<Vec<(String, String)>> {
    audit_events::table
        .filter(diesel::dsl::sql::<diesel::sql_types::Bool>("action IN ('login', 'logout', 'password_change')"))
        .filter(audit_events::created_at.ge(since))
        .order(audit_events::id.asc())
        .select((audit_events::username, audit_events::action))
        .load(conn)
}

/// The table of every seated player (a seating without a cash-out: the
/// seats taken now, which the database keeps).
pub fn seated(conn: &mut DbConnection) -> QueryResult<Vec<TableId>> {
    open_seatings::table.select(open_seatings::table_id).load(conn)
}

/// The hits not yet verified or rejected, with their table (their status,
/// which also knows a voided hand, is worked out by `db::jackpots::statuses`).
pub fn undecided_hits(conn: &mut DbConnection) -> QueryResult<Vec<(HitId, TableId)>> {
    let decided = jackpot_signoffs::table
        .filter(jackpot_signoffs::hit_id.eq(jackpot_hits::id))
        .filter(jackpot_signoffs::action.eq_any([SignoffAction::Verify, SignoffAction::Reject]));
    jackpot_hits::table
        .inner_join(hands::table.on(hands::id.eq(jackpot_hits::hand_id)))
        .filter(not(exists(decided)))
        .order(jackpot_hits::id.asc())
        .select((jackpot_hits::id, hands::table_id))
        .load(conn)
}

/// A void: its table, hand, reason and time.
pub type VoidLine = (TableId, HandNumber, VoidReason, NaiveDateTime);

/// The voids written since `since`, oldest first, through the index
/// `hand_voids_at`: ordered by its key (by id, SQLite would rather read every
/// void in id order than sort the few it finds by time).
pub fn voids_since(conn: &mut DbConnection, since: NaiveDateTime) -> QueryResult<Vec<VoidLine>> {
    hand_voids::table
        .inner_join(hands::table.on(hands::id.eq(hand_voids::hand_id)))
        .filter(hand_voids::created_at.ge(since))
        .order((hand_voids::created_at.asc(), hand_voids::id.asc()))
        .select((hands::table_id, hands::number, hand_voids::reason, hand_voids::created_at))
        .load(conn)
}
