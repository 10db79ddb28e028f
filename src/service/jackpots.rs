//! Jackpot hits after their hand (RULES §9): a hit locks its pool's balance
//! at commit and waits. A floor supervisor approves it; a second, different
//! floor or admin user verifies it, which pays it out by the pool's shares
//! as ledger rows to the players. A rejection (with a reason) returns the
//! amount to the pool. Every decision is an append-only sign-off row with
//! name and time, and an audit event.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};

use super::audit;
use crate::db::jackpots::{self as q, HitRow, SignoffRow};
use crate::db::ledger::{self, NewEntry};
use crate::db::rollups::{PoolDay, SeatingTotals};
use crate::db::{lock_pool, Database, DbConnection};
use crate::domain::money::check_table_money;
use crate::domain::{
    Actor, AppError, EntryId, EntryKind, HandId, HandNumber, HitId, HitStatus, Money, PoolId, Role, SeatNo, SeatingId,
    SignoffAction, TableId, User,
};
use crate::engine::jackpot::{split, Shares};

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SignoffView {
    pub username: String,
    pub display_name: String,
    /// UTC.
    pub at: NaiveDateTime,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct PayoutView {
    pub seat: SeatNo,
    pub player: String,
    /// `loser`, `winner` or `other`.
    pub share: &'static str,
    pub amount: Money,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct HitView {
    pub id: HitId,
    pub pool_id: PoolId,
    pub pool_name: String,
    pub table_id: TableId,
    pub table_name: String,
    pub hand_number: HandNumber,
    pub kind: String,
    pub loser_seat: SeatNo,
    pub winner_seat: SeatNo,
    pub amount: Money,
    /// UTC.
    pub created_at: NaiveDateTime,
    pub status: HitStatus,
    pub approved: Option<SignoffView>,
    pub verified: Option<SignoffView>,
    pub rejected: Option<SignoffView>,
    /// How it is (or, while pending, would be) paid.
    pub payouts: Vec<PayoutView>,
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DecisionRequest {
    /// Needed to reject; an optional remark otherwise.
    #[serde(default)]
    pub reason: String,
}

/// The status of each of `hits` (`db::jackpots::statuses`).
pub fn statuses(conn: &mut DbConnection, hits: &[HitId]) -> Result<HashMap<HitId, HitStatus>, AppError> {
    Ok(q::statuses(conn, hits)?)
}

/// The hits still waiting for a decision (pending or approved) whose hand
/// dealt `seating` in: its player is owed a share, so they cannot cash out yet.
pub fn open_hits_for_seating(conn: &mut DbConnection, seating: SeatingId) -> Result<Vec<HitId>, AppError> {
    let candidates = q::hits_dealing(conn, seating)?;
    let status = statuses(conn, &candidates)?;
    Ok(candidates.into_iter().filter(|h| status[h].is_open()).collect())
}

/// The hits of `pool` still waiting for a decision (pending or approved).
pub fn open_hits_of_pool(conn: &mut DbConnection, pool: PoolId) -> Result<Vec<HitId>, AppError> {
    let hits = q::hits_of_pool(conn, pool)?;
    let status = statuses(conn, &hits)?;
    Ok(hits.into_iter().filter(|h| status[h].is_open()).collect())
}

/// The first jackpot hit that locked `pool` after ledger row `row` and still
/// holds that money (not rejected, and its hand not voided), other than the
/// hits of hand `except_hand` itself: (hit, hand number). A row of the pool
/// written before such a lock is part of that hit.
pub fn standing_lock_after(
    conn: &mut DbConnection,
    pool: PoolId,
    row: EntryId,
    except_hand: HandId,
) -> Result<Option<(HitId, HandNumber)>, AppError> {
    let locks = ledger::locks_after(conn, pool, row)?;
    if locks.is_empty() {
        return Ok(None);
    }
    let hands = q::hands_of(conn, &locks)?;
    let status = statuses(conn, &locks)?;
    Ok(locks.into_iter().find_map(|hit| {
        let (_, hand, number) = *hands.iter().find(|h| h.0 == hit)?;
        (hand != except_hand && !status[&hit].returned()).then_some((hit, number))
    }))
}

fn shares_of(pct: (i32, i32, i32)) -> Shares {
    Shares { loser: pct.0.max(0) as u32, winner: pct.1.max(0) as u32, others: pct.2.max(0) as u32 }
}

/// One line of a hit's payout plan.
struct Planned {
    seat: SeatNo,
    seating: SeatingId,
    player: String,
    share: &'static str,
    amount: Money,
}

/// The payout of a hit: loser first, then winner, then the other seats in
/// seat order; cents that do not divide go to the loser.
fn payout_plan(conn: &mut DbConnection, hit: &HitRow) -> Result<Vec<Planned>, AppError> {
    let players = q::hand_players(conn, hit.hand_id)?;
    let find = |seat: SeatNo| {
        players
            .iter()
            .find(|p| p.0 == seat)
            .cloned()
            .ok_or_else(|| AppError::internal(format!("hand {} has no seat {seat}", hit.hand_id)))
    };
    let (loser, winner) = (find(hit.loser_seat)?, find(hit.winner_seat)?);
    let others: Vec<_> = players.iter().filter(|p| p.0 != hit.loser_seat && p.0 != hit.winner_seat).cloned().collect();
    let payout = split(hit.amount.cents(), shares_of(hit.shares), others.len());
    let line = |p: (SeatNo, SeatingId, String), share, cents| Planned {
        seat: p.0,
        seating: p.1,
        player: p.2,
        share,
        amount: Money::from_cents(cents),
    };
    let mut plan = vec![line(loser, "loser", payout.loser), line(winner, "winner", payout.winner)];
    for (p, cents) in others.into_iter().zip(payout.others) {
        plan.push(line(p, "other", cents));
    }
    Ok(plan)
}

fn signoff_view(s: &SignoffRow) -> SignoffView {
    SignoffView {
        username: s.username.clone(),
        display_name: s.display_name.clone(),
        at: s.at,
        reason: s.reason.clone(),
    }
}

fn view(conn: &mut DbConnection, row: HitRow, status: HitStatus) -> Result<HitView, AppError> {
    let signed = q::signoffs(conn, row.id)?;
    let pick = |a: SignoffAction| signed.iter().find(|s| s.action == a).map(signoff_view);
    let payouts = payout_plan(conn, &row)?
        .into_iter()
        .map(|p| PayoutView { seat: p.seat, player: p.player, share: p.share, amount: p.amount })
        .collect();
    Ok(HitView {
        id: row.id,
        pool_id: row.pool_id,
        pool_name: row.pool_name,
        table_id: row.table_id,
        table_name: row.table_name,
        hand_number: row.hand_number,
        kind: row.kind,
        loser_seat: row.loser_seat,
        winner_seat: row.winner_seat,
        amount: row.amount,
        created_at: row.created_at,
        status,
        approved: pick(SignoffAction::Approve),
        verified: pick(SignoffAction::Verify),
        rejected: pick(SignoffAction::Reject),
        payouts,
    })
}

/// Which hits a list shows: one status, or `open` (waiting for a decision:
/// pending or approved), or `decided` (paid, rejected or voided).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitFilter {
    Status(HitStatus),
    Open,
    Decided,
}

impl HitFilter {
    pub fn parse(text: &str) -> Result<HitFilter, AppError> {
        match text {
            "open" => Ok(HitFilter::Open),
            "decided" => Ok(HitFilter::Decided),
            other => HitStatus::parse(other).map(HitFilter::Status).ok_or_else(|| {
                AppError::invalid(
                    "bad_status",
                    format!(
                        "status {other:?}: use pending, approved, paid, rejected, voided, open (pending or \
                         approved) or decided (paid, rejected or voided)"
                    ),
                )
                .at_field("status")
            }),
        }
    }

    fn keeps(self, status: HitStatus) -> bool {
        match self {
            HitFilter::Status(s) => s == status,
            HitFilter::Open => status.is_open(),
            HitFilter::Decided => !status.is_open(),
        }
    }
}

/// Up to `limit` of the latest 500 hits, newest first. Statuses are worked
/// out for all of them at once, the full view only for the hits listed.
pub fn list_hits(conn: &mut DbConnection, filter: Option<HitFilter>, limit: usize) -> Result<Vec<HitView>, AppError> {
    let rows = q::hit_rows(conn, None)?;
    let status = statuses(conn, &rows.iter().map(|r| r.id).collect::<Vec<_>>())?;
    rows.into_iter()
        .filter(|r| filter.is_none_or(|f| f.keeps(status[&r.id])))
        .take(limit)
        .map(|r| {
            let s = status[&r.id];
            view(conn, r, s)
        })
        .collect()
}

pub fn get_hit(conn: &mut DbConnection, id: HitId) -> Result<HitView, AppError> {
    let row = hit_row(conn, id)?;
    let status = statuses(conn, &[id])?[&id];
    view(conn, row, status)
}

fn hit_row(conn: &mut DbConnection, id: HitId) -> Result<HitRow, AppError> {
    q::hit_rows(conn, Some(id))?.pop().ok_or_else(|| AppError::not_found("no_hit", format!("no jackpot hit {id}")))
}

/// A line of a payout slip: a seat's share as planned by the pool's shares
/// and, once the hit is paid, what the ledger paid that seat.
#[derive(Clone, Debug, Serialize)]
pub struct SlipLine {
    pub seat: SeatNo,
    pub player: String,
    /// `loser`, `winner` or `other`.
    pub share: &'static str,
    /// The share in percent of the hit (an `other` seat's part of the others' share).
    pub percent: String,
    pub amount: Money,
    /// Paid by the ledger (`None` while the hit is not paid).
    pub paid: Option<Money>,
}

/// A jackpot payout slip: the hit, its table's gaming day and time zone, the
/// pool's shares and each winner's share by seat and name, the sign-offs.
#[derive(Clone, Debug, Serialize)]
pub struct PayoutSlip {
    pub hit: HitView,
    /// The hit's table's gaming day (`YYYY-MM-DD`) and time zone.
    pub gaming_day: String,
    pub time_zone: String,
    /// The pool's shares in percent: loser, winner, the other seats together.
    pub shares: (i32, i32, i32),
    pub lines: Vec<SlipLine>,
    /// What the ledger paid for this hit (zero unless paid).
    pub paid_total: Money,
}

/// The payout slip of hit `id` (any status; a slip of a hit not paid says so).
pub fn payout_slip(conn: &mut DbConnection, id: HitId) -> Result<PayoutSlip, AppError> {
    let row = hit_row(conn, id)?;
    let table = crate::db::tables::table(conn, row.table_id)?
        .ok_or_else(|| AppError::internal(format!("hit {id} names no table")))?;
    let clock = crate::db::rollups::clock(&table.time_zone, &table.gaming_day_cutoff)?;
    let plan = payout_plan(conn, &row)?;
    let ledger_paid = ledger::payouts_of_hit(conn, id)?;
    let shares = row.shares;
    let others = plan.iter().filter(|p| p.share == "other").count().max(1);
    let status = statuses(conn, &[id])?[&id];
    let lines = plan
        .iter()
        .map(|p| SlipLine {
            seat: p.seat,
            player: p.player.clone(),
            share: p.share,
            percent: match p.share {
                "loser" => format!("{}%", shares.0),
                "winner" => format!("{}%", shares.1),
                _ => {
                    let each = rust_decimal::Decimal::from(shares.2) / rust_decimal::Decimal::from(others as i64);
                    format!("{}%", each.round_dp(2).normalize())
                }
            },
            amount: p.amount,
            paid: (status == HitStatus::Paid)
                .then(|| ledger_paid.iter().filter(|(s, _)| *s == Some(p.seating)).map(|(_, m)| *m).sum::<Money>()),
        })
        .collect();
    let paid_total = ledger_paid.iter().map(|(_, m)| *m).sum();
    Ok(PayoutSlip {
        gaming_day: crate::db::rollups::day(clock, row.created_at),
        time_zone: table.time_zone.clone(),
        shares,
        lines,
        paid_total,
        hit: view(conn, row, status)?,
    })
}

/// Who may make a decision: approval is the floor's; verification and
/// rejection a floor or admin user's.
pub fn roles_for(decision: SignoffAction) -> &'static [Role] {
    match decision {
        SignoffAction::Approve => &[Role::Floor],
        SignoffAction::Verify | SignoffAction::Reject => &[Role::Floor, Role::Admin],
    }
}

/// Records a decision on hit `id` by `user`; verification pays the hit out,
/// rejection returns it to its pool. All in one transaction.
pub fn decide(
    db: &Database,
    user: &User,
    actor: &Actor,
    id: HitId,
    decision: SignoffAction,
    reason: &str,
) -> Result<HitView, AppError> {
    user.require(roles_for(decision))?;
    // A sign-off is a person's: signed in with their own password, never an
    // API token (an admin could mint one for someone else).
    if let Some(token) = actor.token_id {
        return Err(AppError::forbidden(
            "signoff_needs_person",
            format!(
                "jackpot sign-offs are made by a person signed in with their password, not with an API token \
                 (this request came with token {token})"
            ),
        ));
    }
    let reason = reason.trim().to_string();
    super::check_text(&reason, "reason")?;
    if decision == SignoffAction::Reject && reason.is_empty() {
        return Err(AppError::invalid("reason_required", "reason: a rejection needs a reason (1 to 500 characters)")
            .at_field("reason"));
    }
    if reason.chars().count() > 500 {
        return Err(AppError::invalid("reason_too_long", "reason: at most 500 characters").at_field("reason"));
    }
    let table = q::table_of_hit(&mut *db.conn()?, id)?
        .ok_or_else(|| AppError::not_found("no_hit", format!("no jackpot hit {id}")))?;
    let (user_id, actor) = (user.id, actor.clone());
    db.write(Some(table), move |conn| {
        let row = hit_row(conn, id)?;
        let status = statuses(conn, &[id])?[&id];
        let signed = q::signoffs(conn, id)?;
        let approval = signed.iter().find(|s| s.action == SignoffAction::Approve);
        match (decision, status) {
            (SignoffAction::Approve, HitStatus::Pending) => {}
            (SignoffAction::Verify, HitStatus::Approved) if approval.is_some_and(|a| a.user_id == user_id) => {
                return Err(AppError::forbidden(
                    "second_person_required",
                    format!(
                        "hit {id} was approved by {}; a second, different person must verify it",
                        approval.map_or("you", |s| s.username.as_str())
                    ),
                ));
            }
            (SignoffAction::Verify, HitStatus::Approved) => {
                // Two people, each with a password of their own: neither set
                // the other's current password (an admin who reset a floor
                // user's password cannot sign off as them and as themself).
                let approver = approval.map(|a| a.user_id).unwrap_or_default();
                let setters = crate::db::users::password_setters(conn, &[approver, user_id])?;
                let set_by = |who| setters.iter().find(|s| s.0 == who).and_then(|s| s.1);
                if set_by(approver) == Some(user_id) || set_by(user_id) == Some(approver) {
                    let name = approval.map_or("the approver", |s| s.username.as_str());
                    return Err(AppError::forbidden(
                        "second_person_required",
                        format!(
                            "hit {id} was approved by {name}, and one of you set the other's current password; a \
                             second person with a password of their own must verify it ({name} can choose a new \
                             password of their own first)"
                        ),
                    ));
                }
                // Stacks move only between hands: a hand in progress settles
                // from the stacks it started with.
                if let Some(h) = crate::db::tables::open_hand(conn, table)? {
                    return Err(AppError::conflict(
                        "hand_in_progress",
                        format!("hand {} is in progress at {}; pay the hit between hands", h.number, row.table_name),
                    ));
                }
            }
            (SignoffAction::Verify, HitStatus::Pending) => {
                return Err(AppError::conflict(
                    "not_approved",
                    format!("hit {id} is not approved yet; a floor supervisor approves it first"),
                ));
            }
            (SignoffAction::Reject, HitStatus::Pending | HitStatus::Approved) => {}
            (_, status) => {
                return Err(AppError::conflict(
                    "hit_decided",
                    format!("hit {id} is {status}; it cannot be {} now", decision.past()),
                ));
            }
        }
        q::insert_signoff(conn, id, decision, user_id, &reason)?;
        // The hit's rows name the hit (which names its hand), not the hand:
        // a hand's rows are its commit and their reversals.
        // One time for the rows and the pool's day they change.
        let at = crate::db::now();
        let on_hit = |kind, amount| NewEntry {
            table_id: Some(table),
            jackpot_hit_id: Some(id),
            created_at: at,
            ..NewEntry::new(kind, amount)
        };
        match decision {
            SignoffAction::Approve => {}
            SignoffAction::Verify => {
                let plan = payout_plan(conn, &row)?;
                // The money paid to the table stays within its limit.
                let seated = crate::db::tables::active_seatings(conn, table)?;
                let to_table: Money =
                    plan.iter().filter(|p| seated.iter().any(|s| s.seating == p.seating)).map(|p| p.amount).sum();
                check_table_money(seated.iter().map(|s| s.stack), to_table, "the jackpot payout")
                    .map_err(|e| AppError::conflict(e.code, format!("{}; cash some players out first", e.message)))?;
                let paid: Vec<&Planned> = plan.iter().filter(|p| !p.amount.is_zero()).collect();
                let entries: Vec<NewEntry> = paid
                    .iter()
                    .map(|p| NewEntry { seating_id: Some(p.seating), ..on_hit(EntryKind::JackpotPayout, p.amount) })
                    .collect();
                ledger::insert(conn, &entries)?;
                let totals: Vec<(SeatingId, SeatingTotals)> = paid
                    .iter()
                    .map(|p| (p.seating, SeatingTotals { payouts: p.amount, ..Default::default() }))
                    .collect();
                crate::db::rollups::add_seating_totals(conn, &totals)?;
                let day = PoolDay { paid_out: paid.iter().map(|p| p.amount).sum(), ..Default::default() };
                super::rollups::add_pool_day(conn, row.pool_id, at, day)?;
            }
            SignoffAction::Reject => {
                lock_pool(conn, row.pool_id)?;
                ledger::insert(
                    conn,
                    &[NewEntry { pool_id: Some(row.pool_id), ..on_hit(EntryKind::JackpotReturn, row.amount) }],
                )?;
                let day = PoolDay { returned: row.amount, ..Default::default() };
                super::rollups::add_pool_day(conn, row.pool_id, at, day)?;
            }
        }
        let detail = serde_json::json!({
            "hit": id, "amount": row.amount, "reason": reason, "table": table, "hand": row.hand_number,
        });
        audit::record(conn, &actor, &format!("jackpot_{}", decision.name()), &format!("jackpot hit {id}"), detail)?;
        get_hit(conn, id)
    })
}

/// Each pool with its balance (the floor page and the public display).
#[derive(Debug, Serialize)]
pub struct PoolBalance {
    pub id: PoolId,
    pub name: String,
    pub balance: Money,
    pub tables: Vec<String>,
}

pub fn pool_balances(conn: &mut DbConnection) -> Result<Vec<PoolBalance>, AppError> {
    let mut out = Vec::new();
    for pool in crate::db::tables::pools_by_name(conn)? {
        let tables = crate::db::tables::tables_feeding(conn, pool.id)?;
        out.push(PoolBalance { id: pool.id, name: pool.name, balance: ledger::pool_balance(conn, pool.id)?, tables });
    }
    Ok(out)
}

/// The books' figures the metrics show: each pool's balance, open hands.
pub struct BooksFigures {
    pub pools: Vec<PoolBalance>,
    pub open_hands: i64,
}

pub fn books_figures(conn: &mut DbConnection) -> Result<BooksFigures, AppError> {
    Ok(BooksFigures { pools: pool_balances(conn)?, open_hands: crate::db::hands::open_hand_count(conn)? })
}
