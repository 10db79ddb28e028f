//! Queries on the audit trail (append-only: triggers refuse UPDATE and
//! DELETE) and on the rows of the exception report.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{
    audit_events, casino_tables, hand_voids, hands, jackpot_hits, jackpot_signoffs, ruleset_versions, sign_in_unlocks,
    users,
};
use super::{now, DbConnection};
use crate::domain::{HandNumber, HitId, Money, SignoffAction, TableId, UserId, VoidReason};

pub struct NewEvent<'a> {
    pub user_id: Option<UserId>,
    pub username: &'a str,
    pub action: &'a str,
    pub target: &'a str,
    pub detail: String,
    pub ip: &'a str,
}

pub fn insert_event(conn: &mut DbConnection, e: &NewEvent) -> QueryResult<()> {
    diesel::insert_into(audit_events::table)
        .values((
            audit_events::created_at.eq(now()),
            audit_events::user_id.eq(e.user_id),
            audit_events::username.eq(e.username),
            audit_events::action.eq(e.action),
            audit_events::target.eq(e.target),
            audit_events::detail.eq(&e.detail),
            audit_events::ip.eq(e.ip),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The newest event's id (none on an empty trail): one walk down the
/// primary key.
pub fn latest_id(conn: &mut DbConnection) -> QueryResult<Option<i64>> {
    audit_events::table.select(diesel::dsl::max(audit_events::id)).first(conn)
}

/// The (id, action) of the events after `after` and of the ids in `also`
/// (ids not seen yet below it: a transaction that took its id earlier may
/// commit later), in id order, at most `limit`. Index walks on the primary key.
///
/// Two walks, not one `id > ? OR id IN (…)`: SQLite answers that `OR` (with
/// no ids missing, diesel writes the empty list as `1=0`) with a pass over the
/// whole trail, and the poll of the live board runs this four times a second.
pub fn ids_after(conn: &mut DbConnection, after: i64, also: &[i64], limit: i64) -> QueryResult<Vec<(i64, String)>> {
    let mut rows: Vec<(i64, String)> = audit_events::table
        .filter(audit_events::id.gt(after))
        .order(audit_events::id.asc())
        .limit(limit)
        .select((audit_events::id, audit_events::action))
        .load(conn)?;
    if !also.is_empty() {
        let missing: Vec<(i64, String)> = audit_events::table
            .filter(audit_events::id.eq_any(also))
            .select((audit_events::id, audit_events::action))
            .load(conn)?;
        rows.extend(missing);
        rows.sort_unstable_by_key(|r| r.0);
        rows.dedup_by_key(|r| r.0);
        rows.truncate(usize::try_from(limit).unwrap_or(0));
    }
    Ok(rows)
}

#[derive(Clone, Debug, Queryable)]
pub struct EventRow {
    pub id: i64,
    pub at: NaiveDateTime,
    pub username: String,
    pub action: String,
    pub target: String,
    pub detail: String,
    pub ip: String,
}

/// Newest first: optionally one action, one user, before an id; at most `limit`.
pub fn events(
    conn: &mut DbConnection,
    action: Option<&str>,
    username: Option<&str>,
    before: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<EventRow>> {
    let mut query = audit_events::table.into_boxed();
    if let Some(action) = action {
        query = query.filter(audit_events::action.eq(action.to_string()));
    }
    if let Some(username) = username {
        query = query.filter(audit_events::username.eq(username.to_string()));
    }
    if let Some(before) = before {
        query = query.filter(audit_events::id.lt(before));
    }
    query
        .order(audit_events::id.desc())
        .limit(limit)
        .select((
            audit_events::id,
            audit_events::created_at,
            audit_events::username,
            audit_events::action,
            audit_events::target,
            audit_events::detail,
            audit_events::ip,
        ))
        .load(conn)
}

/// How many `action` events since `since`, for a username and from an ip
/// (either may be left out), after `after` when given.
pub fn count_events(
    conn: &mut DbConnection,
    action: &str,
    username: Option<&str>,
    ip: Option<&str>,
    since: NaiveDateTime,
    after: Option<i64>,
) -> QueryResult<i64> {
    let mut query = audit_events::table
        .filter(audit_events::action.eq(action))
        .filter(audit_events::created_at.ge(since))
        .into_boxed();
    if let Some(id) = after {
        query = query.filter(audit_events::id.gt(id));
    }
    if let Some(username) = username {
        query = query.filter(audit_events::username.eq(username.to_string()));
    }
    if let Some(ip) = ip {
        query = query.filter(audit_events::ip.eq(ip.to_string()));
    }
    query.count().get_result(conn)
}

/// The id and time of a username's latest `action` event.
pub fn latest_event(
    conn: &mut DbConnection,
    action: &str,
    username: &str,
) -> QueryResult<Option<(i64, NaiveDateTime)>> {
    audit_events::table
        .filter(audit_events::action.eq(action))
        .filter(audit_events::username.eq(username))
        .order((audit_events::created_at.desc(), audit_events::id.desc()))
        .select((audit_events::id, audit_events::created_at))
        .first(conn)
        .optional()
}

// ---- the exception report's rows ----

/// Where the exception report looks: rows written from `start` to before
/// `end` (UTC), at one table or all.
#[derive(Clone, Copy, Debug)]
pub struct Within {
    pub start: NaiveDateTime,
    pub end: NaiveDateTime,
    pub table: Option<TableId>,
}

/// (when, table id, table, hand, reason, note, by)
pub type VoidRow = (NaiveDateTime, TableId, String, HandNumber, VoidReason, String, Option<String>);

pub fn voids(conn: &mut DbConnection, within: Within) -> QueryResult<Vec<VoidRow>> {
    let mut q = hand_voids::table
        .inner_join(hands::table.on(hands::id.eq(hand_voids::hand_id)))
        .inner_join(casino_tables::table.on(casino_tables::id.eq(hands::table_id)))
        .left_join(users::table.on(users::id.nullable().eq(hand_voids::voided_by)))
        .filter(hand_voids::created_at.ge(within.start))
        .filter(hand_voids::created_at.lt(within.end))
        .into_boxed();
    if let Some(t) = within.table {
        q = q.filter(super::hand_at_table(t));
    }
    q.select((
        hand_voids::created_at,
        casino_tables::id,
        casino_tables::name,
        hands::number,
        hand_voids::reason,
        hand_voids::note,
        users::username.nullable(),
    ))
    .load(conn)
}

/// (when, table id, table, hand, hit, amount, reason, by)
pub type RejectionRow = (NaiveDateTime, TableId, String, HandNumber, HitId, Money, String, String);

pub fn rejections(conn: &mut DbConnection, within: Within) -> QueryResult<Vec<RejectionRow>> {
    let mut q = jackpot_signoffs::table
        .inner_join(jackpot_hits::table.on(jackpot_hits::id.eq(jackpot_signoffs::hit_id)))
        .inner_join(hands::table.on(hands::id.eq(jackpot_hits::hand_id)))
        .inner_join(casino_tables::table.on(casino_tables::id.eq(hands::table_id)))
        .inner_join(users::table.on(users::id.eq(jackpot_signoffs::user_id)))
        .filter(jackpot_signoffs::action.eq(SignoffAction::Reject))
        .filter(jackpot_signoffs::created_at.ge(within.start))
        .filter(jackpot_signoffs::created_at.lt(within.end))
        .into_boxed();
    if let Some(t) = within.table {
        q = q.filter(super::hand_at_table(t));
    }
    q.select((
        jackpot_signoffs::created_at,
        casino_tables::id,
        casino_tables::name,
        hands::number,
        jackpot_hits::id,
        jackpot_hits::amount_cents,
        jackpot_signoffs::reason,
        users::username,
    ))
    .load(conn)
}

/// (when, table id, table, version, preset, unit, rake, jackpot part, by, pair units JSON)
pub type RulesetChangeRow = (NaiveDateTime, TableId, String, i32, String, Money, Money, Money, Option<String>, String);

/// Ruleset versions after a table's first.
pub fn ruleset_changes(conn: &mut DbConnection, within: Within) -> QueryResult<Vec<RulesetChangeRow>> {
    let mut q = ruleset_versions::table
        .inner_join(casino_tables::table.on(casino_tables::id.eq(ruleset_versions::table_id)))
        .left_join(users::table.on(users::id.nullable().eq(ruleset_versions::created_by)))
        .filter(ruleset_versions::version.gt(1))
        .filter(ruleset_versions::created_at.ge(within.start))
        .filter(ruleset_versions::created_at.lt(within.end))
        .into_boxed();
    if let Some(t) = within.table {
        q = q.filter(ruleset_versions::table_id.eq(t));
    }
    q.select((
        ruleset_versions::created_at,
        casino_tables::id,
        casino_tables::name,
        ruleset_versions::version,
        ruleset_versions::preset,
        ruleset_versions::unit_cents,
        ruleset_versions::rake_cents,
        ruleset_versions::jackpot_cents,
        users::username.nullable(),
        ruleset_versions::pair_units,
    ))
    .load(conn)
}

// ---- sign-in lockouts ----

/// When `username` was last unlocked by an admin (`sign_in_unlocks`).
pub fn latest_unlock(conn: &mut DbConnection, username: &str) -> QueryResult<Option<NaiveDateTime>> {
    sign_in_unlocks::table
        .filter(sign_in_unlocks::username.eq(username))
        .select(diesel::dsl::max(sign_in_unlocks::created_at))
        .first(conn)
}

/// Records that an admin unlocked `username`'s sign-in.
pub fn insert_unlock(conn: &mut DbConnection, username: &str, by: Option<UserId>) -> QueryResult<()> {
    diesel::insert_into(sign_in_unlocks::table)
        .values((
            sign_in_unlocks::username.eq(username),
            sign_in_unlocks::unlocked_by.eq(by),
            sign_in_unlocks::created_at.eq(now()),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The sign-in attempts, successful sign-ins and unlocks of every username
/// since `since`, oldest first: (username, time, what).
pub fn sign_in_events(
    conn: &mut DbConnection,
    since: NaiveDateTime,
) -> QueryResult<Vec<(String, NaiveDateTime, String)>> {
    // The partial index of sign-ins, by its own condition written out
    // (SQLite uses a partial index only for a query that repeats it).
    let mut rows: Vec<(String, NaiveDateTime, String)> = audit_events::table
        .filter(diesel::dsl::sql::<diesel::sql_types::Bool>("action IN ('login', 'login_attempt', 'login_failed')"))
        .filter(audit_events::created_at.ge(since))
        .order(audit_events::id.asc())
        .select((audit_events::username, audit_events::created_at, audit_events::action))
        .load::<(String, NaiveDateTime, String)>(conn)?
        .into_iter()
        .filter(|r| r.2 != "login_failed")
        .collect();
    let unlocks: Vec<(String, NaiveDateTime)> = sign_in_unlocks::table
        .filter(sign_in_unlocks::created_at.ge(since))
        .select((sign_in_unlocks::username, sign_in_unlocks::created_at))
        .load(conn)?;
    // By time, and within a second in the order written (an unlock after
    // the sign-ins of its second).
    rows.extend(unlocks.into_iter().map(|(u, at)| (u, at, "unlock".to_string())));
    rows.sort_by_key(|r| r.1);
    Ok(rows)
}

/// A pool's history in the audit trail (made, changed, seeded), newest
/// first. The actions are written into the statement so SQLite uses the
/// partial index of these rows.
pub fn pool_history(conn: &mut DbConnection, target: &str) -> QueryResult<Vec<EventRow>> {
    audit_events::table
        .filter(diesel::dsl::sql::<diesel::sql_types::Bool>("action IN ('pool_create', 'pool_edit', 'pool_seed')"))
        .filter(audit_events::target.eq(target))
        .order(audit_events::id.desc())
        .limit(200)
        .select((
            audit_events::id,
            audit_events::created_at,
            audit_events::username,
            audit_events::action,
            audit_events::target,
            audit_events::detail,
            audit_events::ip,
        ))
        .load(conn)
}

/// Who cashed a seat out: the `cash_out` events on `target` (a table's seat)
/// written at or after `at` (the cash-out's own time), oldest first, with the
/// user's display name: (username, display name, detail). The action is
/// written into the SQL, as the partial index of cash-out events
/// (`audit_cash_outs`) names it: a plan made for a bound action, whatever its
/// value, could not use that index.
pub fn cash_out_events_since(
    conn: &mut DbConnection,
    target: &str,
    at: NaiveDateTime,
) -> QueryResult<Vec<(String, Option<String>, String)>> {
    audit_events::table
        .left_join(users::table.on(users::id.nullable().eq(audit_events::user_id)))
        .filter(diesel::dsl::sql::<diesel::sql_types::Bool>("audit_events.action = 'cash_out'"))
        .filter(audit_events::target.eq(target))
        .filter(audit_events::created_at.ge(at))
        .order((audit_events::created_at.asc(), audit_events::id.asc()))
        .limit(20)
        .select((audit_events::username, users::display_name.nullable(), audit_events::detail))
        .load(conn)
}
