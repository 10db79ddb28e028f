//! The audit trail: every state change with who, when and what changed.
//! Rows are written in the same transaction as the change they record, so
//! a change and its audit row exist together or not at all. Append-only
//! (triggers refuse UPDATE and DELETE); no route edits it.

use chrono::NaiveDateTime;
use serde::Serialize;

use crate::db::reports::{self, Range};
use crate::db::{self, DbConnection};
use crate::domain::{Actor, AppError, TableId};

/// Records one event. `target` names what changed (`table 3 hand 12`),
/// `detail` says how (never a password or token). A change made with an API
/// token names the token (who minted it is in the trail as `token_create`).
pub fn record(
    conn: &mut DbConnection,
    actor: &Actor,
    action: &str,
    target: &str,
    detail: serde_json::Value,
) -> Result<(), AppError> {
    let detail = match (actor.token_id, detail) {
        (Some(token), serde_json::Value::Object(mut map)) => {
            map.insert("api_token".to_string(), token.get().into());
            serde_json::Value::Object(map)
        }
        (Some(token), other) => serde_json::json!({ "api_token": token.get(), "detail": other }),
        (None, detail) => detail,
    };
    db::audit::insert_event(
        conn,
        &db::audit::NewEvent {
            user_id: actor.user_id,
            username: &actor.username,
            action,
            target,
            detail: detail.to_string(),
            ip: &actor.ip,
        },
    )?;
    Ok(())
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AuditEventView {
    pub id: i64,
    /// UTC.
    pub at: NaiveDateTime,
    pub username: String,
    pub action: String,
    pub target: String,
    pub detail: serde_json::Value,
    pub ip: String,
}

/// What to list: newest first, optionally one action or one user, and
/// before an id (paging).
#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    pub action: Option<String>,
    pub username: Option<String>,
    pub before: Option<i64>,
    pub limit: Option<i64>,
}

pub fn list(conn: &mut DbConnection, q: &AuditQuery) -> Result<Vec<AuditEventView>, AppError> {
    for (text, field) in [(&q.action, "action"), (&q.username, "username")] {
        super::check_text(text.as_deref().unwrap_or(""), field)?;
    }
    let rows = db::audit::events(
        conn,
        q.action.as_deref().filter(|a| !a.is_empty()),
        q.username.as_deref().filter(|u| !u.is_empty()),
        q.before,
        q.limit.unwrap_or(200).clamp(1, 1000),
    )?;
    Ok(rows
        .into_iter()
        .map(|r| AuditEventView {
            id: r.id,
            at: r.at,
            username: r.username,
            action: r.action,
            target: r.target,
            detail: serde_json::from_str(&r.detail).unwrap_or(serde_json::Value::String(r.detail)),
            ip: r.ip,
        })
        .collect())
}

/// Sign-in attempts not followed by a successful sign-in, since `since`:
/// for `username` (since its last success) and from `ip`. Every attempt is
/// recorded (`login_attempt`) before its password is checked.
pub fn unsuccessful_sign_ins(
    conn: &mut DbConnection,
    username: &str,
    ip: &str,
    since: NaiveDateTime,
) -> Result<(i64, i64), AppError> {
    // A success's own attempt is recorded just before it.
    // An admin's unlock restarts the count as a success does.
    // The attempts after the last success are those with a later id (times
    // are kept to the second, and attempts come faster); after an unlock,
    // those of the seconds after it.
    let after_success =
        db::audit::latest_event(conn, "login", username)?.filter(|(_, at)| *at >= since).map(|(id, _)| id);
    let user_since = match db::audit::latest_unlock(conn, username)? {
        Some(t) if t >= since => t + chrono::Duration::seconds(1),
        _ => since,
    };
    let by_user = db::audit::count_events(conn, "login_attempt", Some(username), None, user_since, after_success)?;
    let from_ip = db::audit::count_events(conn, "login_attempt", None, Some(ip), since, None)?;
    let successes_from_ip = db::audit::count_events(conn, "login", None, Some(ip), since, None)?;
    Ok((by_user, (from_ip - successes_from_ip).max(0)))
}

/// One line of the exception report.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ExceptionView {
    /// UTC.
    pub at: NaiveDateTime,
    /// The gaming day it happened on, by its table's clock.
    pub gaming_day: chrono::NaiveDate,
    /// `void`, `jackpot_rejected` or `ruleset_change`.
    pub kind: &'static str,
    pub table_id: i64,
    pub table: String,
    /// What it was about: `hand 12`, `hit 3`, `ruleset v2 (typical)`.
    pub subject: String,
    pub reason: String,
    pub note: String,
    /// Who did it (`unknown` for rows from before sign-in existed).
    pub by: String,
}

/// Every void, rejected jackpot hit and ruleset change on a gaming day of
/// the range (its table's clock), at the range's table or all, newest first.
pub fn exceptions(conn: &mut DbConnection, range: &Range) -> Result<Vec<ExceptionView>, AppError> {
    let tables = reports::all_tables(conn)?;
    let (start, end) = range.window();
    let within = db::audit::Within { start, end, table: range.table.map(TableId) };
    let mut out = Vec::new();
    // The row, if it falls on a day of the range by its table's clock.
    let mut push = |at: NaiveDateTime, table_id: TableId, view: ExceptionView| {
        let Some(t) = tables.iter().find(|t| t.id == table_id.get()) else { return };
        let day = t.clock.day(at);
        if range.contains(day) {
            out.push(ExceptionView { at, gaming_day: day, table_id: t.id, ..view });
        }
    };
    let blank = |at, kind, table: String| ExceptionView {
        at,
        gaming_day: chrono::NaiveDate::MIN,
        kind,
        table_id: 0,
        table,
        subject: String::new(),
        reason: String::new(),
        note: String::new(),
        by: String::new(),
    };
    for (at, table_id, table, number, reason, note, by) in db::audit::voids(conn, within)? {
        push(
            at,
            table_id,
            ExceptionView {
                subject: format!("hand {number}"),
                reason: reason.name().to_string(),
                note,
                by: by.unwrap_or_else(|| "unknown".to_string()),
                ..blank(at, "void", table)
            },
        );
    }
    for (at, table_id, table, number, hit, amount, reason, by) in db::audit::rejections(conn, within)? {
        push(
            at,
            table_id,
            ExceptionView {
                subject: format!("hit {hit} (hand {number}, {amount} back to the pool)"),
                reason,
                by,
                ..blank(at, "jackpot_rejected", table)
            },
        );
    }
    for (at, table_id, table, version, preset, unit, rake, jackpot, by, pair_units) in
        db::audit::ruleset_changes(conn, within)?
    {
        let stakes: Vec<String> = serde_json::from_str::<Vec<crate::domain::PairUnit>>(&pair_units)
            .unwrap_or_default()
            .iter()
            .map(|p| format!("seats {}–{} at {}", p.seats[0], p.seats[1], p.unit_cents))
            .collect();
        push(
            at,
            table_id,
            ExceptionView {
                subject: format!("ruleset v{version}"),
                reason: format!(
                    "{preset}, unit {unit}, rake {rake}, jackpot part {jackpot}{}",
                    if stakes.is_empty() { String::new() } else { format!(", own stakes {}", stakes.join(", ")) }
                ),
                by: by.unwrap_or_else(|| "unknown".to_string()),
                ..blank(at, "ruleset_change", table)
            },
        );
    }
    out.sort_by_key(|e| std::cmp::Reverse(e.at));
    Ok(out)
}
