//! The audit trail: every state change with who, when and what changed.
//! Rows are written in the same transaction as the change they record, so
//! a change and its audit row exist together or not at all. Append-only
//! (triggers refuse UPDATE and DELETE); no route edits it.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

use super::schema::audit_events;
use super::{now, DbConnection};
use crate::error::AppError;

/// Who is acting: a signed-in user, or the command line.
#[derive(Clone, Debug)]
pub struct Actor {
    pub user_id: Option<i64>,
    pub username: String,
    /// The client's address, or `command line`.
    pub ip: String,
}

impl Actor {
    /// `pitboss admin …` run on the server itself.
    pub fn command_line() -> Actor {
        let who = std::env::var("USER").unwrap_or_else(|_| "unknown".to_string());
        Actor { user_id: None, username: format!("command line ({who})"), ip: "command line".to_string() }
    }

    /// Someone not (yet) signed in, e.g. a failed login.
    pub fn anonymous(username: &str, ip: &str) -> Actor {
        Actor { user_id: None, username: username.to_string(), ip: ip.to_string() }
    }
}

/// Records one event. `target` names what changed (`table 3 hand 12`),
/// `detail` says how (never a password or token).
pub fn record(
    conn: &mut DbConnection,
    actor: &Actor,
    action: &str,
    target: &str,
    detail: serde_json::Value,
) -> Result<(), AppError> {
    diesel::insert_into(audit_events::table)
        .values((
            audit_events::created_at.eq(now()),
            audit_events::user_id.eq(actor.user_id),
            audit_events::username.eq(&actor.username),
            audit_events::action.eq(action),
            audit_events::target.eq(target),
            audit_events::detail.eq(detail.to_string()),
            audit_events::ip.eq(&actor.ip),
        ))
        .execute(conn)?;
    Ok(())
}

#[derive(Debug, Serialize)]
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
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    pub action: Option<String>,
    pub username: Option<String>,
    pub before: Option<i64>,
    pub limit: Option<i64>,
}

pub fn list(conn: &mut DbConnection, q: &AuditQuery) -> Result<Vec<AuditEventView>, AppError> {
    let mut query = audit_events::table.into_boxed();
    if let Some(action) = q.action.as_deref().filter(|a| !a.is_empty()) {
        query = query.filter(audit_events::action.eq(action.to_string()));
    }
    if let Some(username) = q.username.as_deref().filter(|u| !u.is_empty()) {
        query = query.filter(audit_events::username.eq(username.to_string()));
    }
    if let Some(before) = q.before {
        query = query.filter(audit_events::id.lt(before));
    }
    let limit = q.limit.unwrap_or(200).clamp(1, 1000);
    let rows: Vec<(i64, NaiveDateTime, String, String, String, String, String)> = query
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
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, at, username, action, target, detail, ip)| AuditEventView {
            id,
            at,
            username,
            action,
            target,
            detail: serde_json::from_str(&detail).unwrap_or(serde_json::Value::String(detail)),
            ip,
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
    let attempts = || {
        audit_events::table
            .filter(audit_events::action.eq("login_attempt"))
            .filter(audit_events::created_at.ge(since))
            .into_boxed()
    };
    let last_success: Option<NaiveDateTime> = audit_events::table
        .filter(audit_events::action.eq("login"))
        .filter(audit_events::username.eq(username))
        .select(diesel::dsl::max(audit_events::created_at))
        .first(conn)?;
    let mut by_user = attempts().filter(audit_events::username.eq(username.to_string()));
    if let Some(t) = last_success {
        // A success's own attempt is recorded just before it.
        by_user = by_user.filter(audit_events::created_at.gt(t));
    }
    let by_user: i64 = by_user.count().get_result(conn)?;
    let from_ip: i64 = attempts().filter(audit_events::ip.eq(ip.to_string())).count().get_result(conn)?;
    let successes_from_ip: i64 = audit_events::table
        .filter(audit_events::action.eq("login"))
        .filter(audit_events::created_at.ge(since))
        .filter(audit_events::ip.eq(ip))
        .count()
        .get_result(conn)?;
    Ok((by_user, (from_ip - successes_from_ip).max(0)))
}

/// One line of the exception report.
#[derive(Debug, Serialize)]
pub struct ExceptionView {
    /// UTC.
    pub at: NaiveDateTime,
    /// `void`, `jackpot_rejected` or `ruleset_change`.
    pub kind: &'static str,
    pub table: String,
    /// What it was about: `hand 12`, `hit 3`, `ruleset v2 (typical)`.
    pub subject: String,
    pub reason: String,
    pub note: String,
    /// Who did it (`unknown` for rows from before sign-in existed).
    pub by: String,
}

/// Every void, rejected jackpot hit and ruleset change, newest first.
pub fn exceptions(conn: &mut DbConnection) -> Result<Vec<ExceptionView>, AppError> {
    use super::schema::{casino_tables, hand_voids, hands, jackpot_hits, jackpot_signoffs, ruleset_versions, users};
    let mut out = Vec::new();
    let voids: Vec<(NaiveDateTime, String, i32, String, String, Option<String>)> = hand_voids::table
        .inner_join(hands::table.on(hands::id.eq(hand_voids::hand_id)))
        .inner_join(casino_tables::table.on(casino_tables::id.eq(hands::table_id)))
        .left_join(users::table.on(users::id.nullable().eq(hand_voids::voided_by)))
        .select((
            hand_voids::created_at,
            casino_tables::name,
            hands::number,
            hand_voids::reason,
            hand_voids::note,
            users::username.nullable(),
        ))
        .load(conn)?;
    for (at, table, number, reason, note, by) in voids {
        out.push(ExceptionView {
            at,
            kind: "void",
            table,
            subject: format!("hand {number}"),
            reason,
            note,
            by: by.unwrap_or_else(|| "unknown".to_string()),
        });
    }
    let rejected: Vec<(NaiveDateTime, String, i32, i64, i64, String, String)> = jackpot_signoffs::table
        .inner_join(jackpot_hits::table.on(jackpot_hits::id.eq(jackpot_signoffs::hit_id)))
        .inner_join(hands::table.on(hands::id.eq(jackpot_hits::hand_id)))
        .inner_join(casino_tables::table.on(casino_tables::id.eq(hands::table_id)))
        .inner_join(users::table.on(users::id.eq(jackpot_signoffs::user_id)))
        .filter(jackpot_signoffs::action.eq("reject"))
        .select((
            jackpot_signoffs::created_at,
            casino_tables::name,
            hands::number,
            jackpot_hits::id,
            jackpot_hits::amount_cents,
            jackpot_signoffs::reason,
            users::username,
        ))
        .load(conn)?;
    for (at, table, number, hit, amount, reason, by) in rejected {
        out.push(ExceptionView {
            at,
            kind: "jackpot_rejected",
            table,
            subject: format!("hit {hit} (hand {number}, {:.2} back to the pool)", crate::money::from_cents(amount)),
            reason,
            note: String::new(),
            by,
        });
    }
    let changes: Vec<(NaiveDateTime, String, i32, String, i64, i64, i64, Option<String>)> = ruleset_versions::table
        .inner_join(casino_tables::table.on(casino_tables::id.eq(ruleset_versions::table_id)))
        .left_join(users::table.on(users::id.nullable().eq(ruleset_versions::created_by)))
        .filter(ruleset_versions::version.gt(1))
        .select((
            ruleset_versions::created_at,
            casino_tables::name,
            ruleset_versions::version,
            ruleset_versions::preset,
            ruleset_versions::unit_cents,
            ruleset_versions::rake_cents,
            ruleset_versions::jackpot_cents,
            users::username.nullable(),
        ))
        .load(conn)?;
    for (at, table, version, preset, unit, rake, jackpot, by) in changes {
        let money = crate::money::from_cents;
        out.push(ExceptionView {
            at,
            kind: "ruleset_change",
            table,
            subject: format!("ruleset v{version}"),
            reason: format!(
                "{preset}, unit {:.2}, rake {:.2}, jackpot part {:.2}",
                money(unit),
                money(rake),
                money(jackpot)
            ),
            note: String::new(),
            by: by.unwrap_or_else(|| "unknown".to_string()),
        });
    }
    out.sort_by(|a, b| b.at.cmp(&a.at));
    Ok(out)
}
