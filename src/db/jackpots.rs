//! Jackpot hits after their hand (RULES §9): a hit locks its pool's balance
//! at commit and waits. A floor supervisor approves it; a second, different
//! floor or admin user verifies it, which pays it out by the pool's shares
//! as ledger rows to the players. A rejection (with a reason) returns the
//! amount to the pool. Every decision is an append-only sign-off row with
//! name and time, and an audit event.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::audit::{self, Actor};
use super::ledger::{self, EntryKind, NewEntry};
use super::schema::{
    casino_tables, hand_seats, hand_voids, hands, jackpot_hits, jackpot_signoffs, pools, seatings, users,
};
use super::users::{Role, User};
use super::{lock_pool, now, Database, DbConnection};
use crate::engine::jackpot::{split, Shares};
use crate::error::AppError;
use crate::money::from_cents;

#[derive(Clone, Debug, Serialize)]
pub struct SignoffView {
    pub username: String,
    pub display_name: String,
    /// UTC.
    pub at: NaiveDateTime,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct PayoutView {
    pub seat: i32,
    pub player: String,
    /// `loser`, `winner` or `other`.
    pub share: &'static str,
    pub amount: Decimal,
}

#[derive(Clone, Debug, Serialize)]
pub struct HitView {
    pub id: i64,
    pub pool_id: i64,
    pub pool_name: String,
    pub table_id: i64,
    pub table_name: String,
    pub hand_number: i32,
    pub kind: String,
    pub loser_seat: i32,
    pub winner_seat: i32,
    pub amount: Decimal,
    /// UTC.
    pub created_at: NaiveDateTime,
    /// `pending`, `approved`, `paid`, `rejected` or `voided` (its hand was voided).
    pub status: &'static str,
    pub approved: Option<SignoffView>,
    pub verified: Option<SignoffView>,
    pub rejected: Option<SignoffView>,
    /// How it is (or, while pending, would be) paid.
    pub payouts: Vec<PayoutView>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionRequest {
    /// Needed to reject; an optional remark otherwise.
    #[serde(default)]
    pub reason: String,
}

/// A hit's status from its sign-offs and its hand.
pub fn status_of(actions: &[String], hand_voided: bool) -> &'static str {
    let has = |a: &str| actions.iter().any(|x| x == a);
    if has("reject") {
        "rejected"
    } else if has("verify") {
        "paid"
    } else if has("approve") {
        "approved"
    } else if hand_voided {
        "voided"
    } else {
        "pending"
    }
}

/// The status of each of `hits` (two queries whatever their number): the
/// one place statuses are worked out, for hands, the floor and the reports.
pub fn statuses(conn: &mut DbConnection, hits: &[i64]) -> Result<HashMap<i64, &'static str>, AppError> {
    let mut out = HashMap::with_capacity(hits.len());
    for chunk in hits.chunks(500) {
        let actions = actions_of(conn, chunk)?;
        let voided: Vec<i64> = jackpot_hits::table
            .inner_join(hand_voids::table.on(hand_voids::hand_id.eq(jackpot_hits::hand_id)))
            .filter(jackpot_hits::id.eq_any(chunk))
            .select(jackpot_hits::id)
            .load(conn)?;
        for &hit in chunk {
            let done: Vec<String> = actions.iter().filter(|a| a.0 == hit).map(|a| a.1.clone()).collect();
            out.insert(hit, status_of(&done, voided.contains(&hit)));
        }
    }
    Ok(out)
}

/// The hits still waiting for a decision (pending or approved) whose hand
/// dealt `seating_id` in: its player is owed a share, so they cannot cash out
/// yet.
pub fn open_hits_for_seating(conn: &mut DbConnection, seating_id: i64) -> Result<Vec<i64>, AppError> {
    let candidates: Vec<i64> = jackpot_hits::table
        .inner_join(hand_seats::table.on(hand_seats::hand_id.eq(jackpot_hits::hand_id)))
        .filter(hand_seats::seating_id.eq(seating_id))
        .select(jackpot_hits::id)
        .load(conn)?;
    let status = statuses(conn, &candidates)?;
    Ok(candidates.into_iter().filter(|h| is_open(status[h])).collect())
}

/// Waiting for a decision.
fn is_open(status: &str) -> bool {
    matches!(status, "pending" | "approved")
}

/// The sign-off actions on each of `hits`.
pub fn actions_of(conn: &mut DbConnection, hits: &[i64]) -> Result<Vec<(i64, String)>, AppError> {
    Ok(jackpot_signoffs::table
        .filter(jackpot_signoffs::hit_id.eq_any(hits))
        .select((jackpot_signoffs::hit_id, jackpot_signoffs::action))
        .load(conn)?)
}

type HitRow = (i64, i64, String, i64, String, i64, i32, String, i32, i32, i64, NaiveDateTime, (i32, i32, i32));

fn hit_rows(conn: &mut DbConnection, only: Option<i64>) -> Result<Vec<HitRow>, AppError> {
    let mut query = jackpot_hits::table
        .inner_join(pools::table.on(pools::id.eq(jackpot_hits::pool_id)))
        .inner_join(hands::table.on(hands::id.eq(jackpot_hits::hand_id)))
        .inner_join(casino_tables::table.on(casino_tables::id.eq(hands::table_id)))
        .select((
            jackpot_hits::id,
            jackpot_hits::pool_id,
            pools::name,
            casino_tables::id,
            casino_tables::name,
            hands::id,
            hands::number,
            jackpot_hits::kind,
            jackpot_hits::loser_seat,
            jackpot_hits::winner_seat,
            jackpot_hits::amount_cents,
            jackpot_hits::created_at,
            (pools::loser_share_pct, pools::winner_share_pct, pools::others_share_pct),
        ))
        .order(jackpot_hits::id.desc())
        .into_boxed();
    if let Some(id) = only {
        query = query.filter(jackpot_hits::id.eq(id));
    }
    Ok(query.limit(500).load(conn)?)
}

fn signoffs(conn: &mut DbConnection, hit: i64) -> Result<Vec<(String, SignoffView, i64)>, AppError> {
    let rows: Vec<(String, String, String, NaiveDateTime, String, i64)> = jackpot_signoffs::table
        .inner_join(users::table.on(users::id.eq(jackpot_signoffs::user_id)))
        .filter(jackpot_signoffs::hit_id.eq(hit))
        .order(jackpot_signoffs::id.asc())
        .select((
            jackpot_signoffs::action,
            users::username,
            users::display_name,
            jackpot_signoffs::created_at,
            jackpot_signoffs::reason,
            users::id,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(action, username, display_name, at, reason, user_id)| {
            (action, SignoffView { username, display_name, at, reason }, user_id)
        })
        .collect())
}

/// The seats dealt in to a hand: (seat, seating, player).
fn hand_players(conn: &mut DbConnection, hand_id: i64) -> Result<Vec<(i32, i64, String)>, AppError> {
    Ok(hand_seats::table
        .inner_join(seatings::table.on(seatings::id.eq(hand_seats::seating_id)))
        .filter(hand_seats::hand_id.eq(hand_id))
        .order(hand_seats::seat.asc())
        .select((hand_seats::seat, hand_seats::seating_id, seatings::player))
        .load(conn)?)
}

/// The payout of a hit: (seat, seating, player, share, cents), loser first,
/// then winner, then the other seats in seat order.
fn payout_plan(
    conn: &mut DbConnection,
    hand_id: i64,
    loser: i32,
    winner: i32,
    amount: i64,
    shares: Shares,
) -> Result<Vec<(i32, i64, String, &'static str, i64)>, AppError> {
    let players = hand_players(conn, hand_id)?;
    let find = |seat: i32| {
        players
            .iter()
            .find(|p| p.0 == seat)
            .cloned()
            .ok_or_else(|| AppError::Internal(format!("hand {hand_id} has no seat {seat}")))
    };
    let (loser_p, winner_p) = (find(loser)?, find(winner)?);
    let others: Vec<_> = players.iter().filter(|p| p.0 != loser && p.0 != winner).cloned().collect();
    let payout = split(amount, shares, others.len());
    let mut plan = vec![
        (loser_p.0, loser_p.1, loser_p.2, "loser", payout.loser),
        (winner_p.0, winner_p.1, winner_p.2, "winner", payout.winner),
    ];
    for (p, cents) in others.into_iter().zip(payout.others) {
        plan.push((p.0, p.1, p.2, "other", cents));
    }
    Ok(plan)
}

fn shares_of(pct: (i32, i32, i32)) -> Shares {
    Shares { loser: pct.0.max(0) as u32, winner: pct.1.max(0) as u32, others: pct.2.max(0) as u32 }
}

fn view(conn: &mut DbConnection, row: HitRow) -> Result<HitView, AppError> {
    let (
        id,
        pool_id,
        pool_name,
        table_id,
        table_name,
        hand_id,
        hand_number,
        kind,
        loser,
        winner,
        amount,
        created_at,
        pct,
    ) = row;
    let status = statuses(conn, &[id])?[&id];
    let signed = signoffs(conn, id)?;
    let pick = |a: &str| signed.iter().find(|s| s.0 == a).map(|s| s.1.clone());
    let payouts = payout_plan(conn, hand_id, loser, winner, amount, shares_of(pct))?
        .into_iter()
        .map(|(seat, _, player, share, cents)| PayoutView { seat, player, share, amount: from_cents(cents) })
        .collect();
    Ok(HitView {
        id,
        pool_id,
        pool_name,
        table_id,
        table_name,
        hand_number,
        kind,
        loser_seat: loser,
        winner_seat: winner,
        amount: from_cents(amount),
        created_at,
        status,
        approved: pick("approve"),
        verified: pick("verify"),
        rejected: pick("reject"),
        payouts,
    })
}

/// Up to `limit` of the latest 500 hits, newest first; `status` filters
/// (`open`: waiting for a decision, pending or approved; `decided`: paid,
/// rejected or voided). Statuses are worked out for all of them at once, the
/// full view only for the hits listed.
pub fn list_hits(conn: &mut DbConnection, status: Option<&str>, limit: usize) -> Result<Vec<HitView>, AppError> {
    if let Some(s) = status {
        if !["pending", "approved", "paid", "rejected", "voided", "open", "decided"].contains(&s) {
            return Err(AppError::Invalid(format!(
                "status {s:?}: use pending, approved, paid, rejected, voided, open (pending or approved) \
                 or decided (paid, rejected or voided)"
            )));
        }
    }
    let rows = hit_rows(conn, None)?;
    let status_of_hit = statuses(conn, &rows.iter().map(|r| r.0).collect::<Vec<_>>())?;
    let keep = |hit: &i64| match (status, status_of_hit[hit]) {
        (None, _) => true,
        (Some("open"), s) => is_open(s),
        (Some("decided"), s) => !is_open(s),
        (Some(wanted), s) => wanted == s,
    };
    rows.into_iter().filter(|r| keep(&r.0)).take(limit).map(|r| view(conn, r)).collect()
}

pub fn get_hit(conn: &mut DbConnection, id: i64) -> Result<HitView, AppError> {
    let row = hit_rows(conn, Some(id))?.pop().ok_or_else(|| AppError::NotFound(format!("no jackpot hit {id}")))?;
    view(conn, row)
}

/// What a sign-off does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Approve,
    Verify,
    Reject,
}

impl Decision {
    fn action(self) -> &'static str {
        match self {
            Decision::Approve => "approve",
            Decision::Verify => "verify",
            Decision::Reject => "reject",
        }
    }

    /// Who may make it: approval is the floor's; verification and rejection
    /// a floor or admin user's.
    pub fn roles(self) -> &'static [Role] {
        match self {
            Decision::Approve => &[Role::Floor],
            Decision::Verify | Decision::Reject => &[Role::Floor, Role::Admin],
        }
    }
}

/// Records a decision on hit `id` by `user`; verification pays the hit out,
/// rejection returns it to its pool. All in one transaction.
pub fn decide(
    db: &Database,
    user: &User,
    actor: &Actor,
    id: i64,
    decision: Decision,
    reason: &str,
) -> Result<HitView, AppError> {
    user.require(decision.roles())?;
    let reason = reason.trim().to_string();
    if decision == Decision::Reject && (reason.is_empty() || reason.chars().count() > 500) {
        return Err(AppError::Invalid("reason: a rejection needs a reason (1 to 500 characters)".to_string()));
    }
    if reason.chars().count() > 500 {
        return Err(AppError::Invalid("reason: at most 500 characters".to_string()));
    }
    let table_id: Option<i64> = jackpot_hits::table
        .inner_join(hands::table.on(hands::id.eq(jackpot_hits::hand_id)))
        .filter(jackpot_hits::id.eq(id))
        .select(hands::table_id)
        .first(&mut *db.conn()?)
        .optional()?;
    let table_id = table_id.ok_or_else(|| AppError::NotFound(format!("no jackpot hit {id}")))?;
    let (user_id, actor) = (user.id, actor.clone());
    db.write(Some(table_id), move |conn| {
        let row = hit_rows(conn, Some(id))?.pop().ok_or_else(|| AppError::NotFound(format!("no jackpot hit {id}")))?;
        let (hand_id, loser, winner, amount, pool_id, pct) = (row.5, row.8, row.9, row.10, row.1, row.12);
        let hit = view(conn, row)?;
        let signed = signoffs(conn, id)?;
        let approver = signed.iter().find(|s| s.0 == "approve").map(|s| s.2);
        match (decision, hit.status) {
            (Decision::Approve, "pending") => {}
            (Decision::Verify, "approved") if approver == Some(user_id) => {
                return Err(AppError::Forbidden(format!(
                    "hit {id} was approved by {}; a second, different person must verify it",
                    hit.approved.as_ref().map_or("you", |s| s.username.as_str())
                )));
            }
            (Decision::Verify, "approved") => {
                // Stacks move only between hands: a hand in progress settles
                // from the stacks it started with.
                if let Some((_, n)) = super::tables::open_hand(conn, table_id)? {
                    return Err(AppError::Conflict(format!(
                        "hand {n} is in progress at {}; pay the hit between hands",
                        hit.table_name
                    )));
                }
            }
            (Decision::Verify, "pending") => {
                return Err(AppError::Conflict(format!(
                    "hit {id} is not approved yet; a floor supervisor approves it first"
                )));
            }
            (Decision::Reject, "pending" | "approved") => {}
            (_, status) => {
                return Err(AppError::Conflict(format!(
                    "hit {id} is {status}; it cannot be {}d now",
                    decision.action()
                )));
            }
        }
        diesel::insert_into(jackpot_signoffs::table)
            .values((
                jackpot_signoffs::hit_id.eq(id),
                jackpot_signoffs::action.eq(decision.action()),
                jackpot_signoffs::user_id.eq(user_id),
                jackpot_signoffs::reason.eq(&reason),
                jackpot_signoffs::created_at.eq(now()),
            ))
            .execute(conn)?;
        // The hit's rows name the hit (which names its hand), not the hand:
        // a hand's rows are its commit and their reversals.
        let on_hit =
            |kind, cents| NewEntry { table_id: Some(table_id), jackpot_hit_id: Some(id), ..NewEntry::new(kind, cents) };
        match decision {
            Decision::Approve => {}
            Decision::Verify => {
                let plan = payout_plan(conn, hand_id, loser, winner, amount, shares_of(pct))?;
                let entries: Vec<NewEntry> = plan
                    .iter()
                    .filter(|p| p.4 != 0)
                    .map(|p| NewEntry { seating_id: Some(p.1), ..on_hit(EntryKind::JackpotPayout, p.4) })
                    .collect();
                ledger::insert(conn, &entries)?;
            }
            Decision::Reject => {
                lock_pool(conn, pool_id)?;
                ledger::insert(
                    conn,
                    &[NewEntry { pool_id: Some(pool_id), ..on_hit(EntryKind::JackpotReturn, amount) }],
                )?;
            }
        }
        let detail = serde_json::json!({
            "hit": id, "amount": from_cents(amount).to_string(), "reason": reason,
            "table": table_id, "hand": hit.hand_number,
        });
        audit::record(conn, &actor, &format!("jackpot_{}", decision.action()), &format!("jackpot hit {id}"), detail)?;
        get_hit(conn, id)
    })
}

/// Each pool with its balance (the floor page and the public display).
#[derive(Debug, Serialize)]
pub struct PoolBalance {
    pub id: i64,
    pub name: String,
    pub balance: Decimal,
    pub tables: Vec<String>,
}

pub fn pool_balances(conn: &mut DbConnection) -> Result<Vec<PoolBalance>, AppError> {
    let rows: Vec<(i64, String)> = pools::table.order(pools::name.asc()).select((pools::id, pools::name)).load(conn)?;
    let mut out = Vec::new();
    for (id, name) in rows {
        let tables: Vec<String> = casino_tables::table
            .filter(casino_tables::pool_id.eq(id))
            .order(casino_tables::name.asc())
            .select(casino_tables::name)
            .load(conn)?;
        out.push(PoolBalance { id, name, balance: from_cents(ledger::pool_balance(conn, id)?), tables });
    }
    Ok(out)
}
