//! The live pit board: every table at a glance for the floor — open or
//! closed, stakes, dealers, the hand in progress and for how long, the time
//! since the last committed hand, seats filled, jackpot hits waiting for
//! sign-off and the voids of the table's gaming day. Read in a handful of
//! statements for all tables together (`db::board`).

use std::collections::HashMap;

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, Utc};
use serde::Serialize;

use crate::db::board as q;
use crate::db::rollups::clock;
use crate::db::{now, DbConnection};
use crate::domain::{AppError, HandNumber, HitId, Money, TableId, TableStatus, VoidReason};

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct BoardView {
    /// When the board was read (UTC).
    pub at: DateTime<Utc>,
    pub tables: Vec<BoardTableView>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct BoardTableView {
    pub id: TableId,
    pub name: String,
    pub status: TableStatus,
    /// When the floor last opened or closed the table (none: open since it was made).
    pub status_changed_at: Option<DateTime<Utc>>,
    /// Who did (username).
    pub status_changed_by: Option<String>,
    pub preset: String,
    pub unit: Money,
    pub rake_per_seat: Money,
    /// The active dealers assigned to the table (display names).
    pub dealers: Vec<String>,
    pub seat_count: i32,
    /// Players seated (not cashed out).
    pub seats_filled: usize,
    /// The hand started last (0 before the first).
    pub last_hand: HandNumber,
    /// The hand in progress, if any.
    pub open_hand: Option<BoardHandView>,
    /// When the last committed hand was committed.
    pub last_commit_at: Option<DateTime<Utc>>,
    pub seconds_since_commit: Option<i64>,
    /// The table's jackpot hits waiting for sign-off (pending or approved).
    pub pending_hits: Vec<HitId>,
    /// The table's current gaming day (its time zone and cutoff).
    pub gaming_day: NaiveDate,
    /// The voids of the current gaming day, oldest first.
    pub voids_today: Vec<BoardVoidView>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct BoardHandView {
    pub number: HandNumber,
    pub started_at: DateTime<Utc>,
    /// How long it has been in progress.
    pub seconds: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct BoardVoidView {
    pub hand_number: HandNumber,
    pub reason: VoidReason,
    pub at: DateTime<Utc>,
}

fn seconds_since(at: NaiveDateTime, now: NaiveDateTime) -> i64 {
    (now - at).num_seconds().max(0)
}

/// Every table, in id order.
pub fn board(conn: &mut DbConnection) -> Result<BoardView, AppError> {
    let at = now();
    let tables = q::tables(conn)?;
    let last_ids: Vec<_> = tables.iter().filter_map(|t| t.1).collect();
    let hands: HashMap<TableId, q::StartedHand> =
        q::hands_started(conn, &last_ids)?.into_iter().map(|h| (h.table_id, h)).collect();
    let rulesets: HashMap<TableId, crate::db::tables::RulesetRow> =
        q::current_rulesets(conn)?.into_iter().map(|r| (r.table_id, r)).collect();
    let statuses: HashMap<TableId, q::StatusLine> = q::latest_statuses(conn)?.into_iter().map(|s| (s.0, s)).collect();
    let mut dealers: HashMap<TableId, Vec<String>> = HashMap::new();
    for (table, name) in q::dealers(conn)? {
        dealers.entry(table).or_default().push(name);
    }
    let mut seated: HashMap<TableId, usize> = HashMap::new();
    for table in q::seated(conn)? {
        *seated.entry(table).or_default() += 1;
    }
    let undecided = q::undecided_hits(conn)?;
    let hit_ids: Vec<HitId> = undecided.iter().map(|h| h.0).collect();
    let hit_status = crate::db::jackpots::statuses(conn, &hit_ids)?;
    let mut hits: HashMap<TableId, Vec<HitId>> = HashMap::new();
    for (hit, table) in undecided {
        if hit_status.get(&hit).is_some_and(|s| s.is_open()) {
            hits.entry(table).or_default().push(hit);
        }
    }
    // A gaming day is at most 25 hours (a DST change): two days back holds
    // every void of every table's current day.
    let voids = q::voids_since(conn, at - Duration::hours(50))?;
    let mut out = Vec::with_capacity(tables.len());
    for (row, _, committed) in tables {
        let id = row.id;
        let ruleset = rulesets.get(&id).ok_or_else(|| AppError::internal(format!("table {id} has no ruleset")))?;
        let day_clock = clock(&row.time_zone, &row.gaming_day_cutoff)?;
        let today = day_clock.day(at);
        let hand = hands.get(&id);
        let status = statuses.get(&id);
        out.push(BoardTableView {
            id,
            name: row.name,
            status: status.map_or(TableStatus::Open, |s| s.1),
            status_changed_at: status.map(|s| s.2.and_utc()),
            status_changed_by: status.and_then(|s| s.3.clone()),
            preset: ruleset.preset.clone(),
            unit: ruleset.unit_cents,
            rake_per_seat: ruleset.rake_cents,
            dealers: dealers.remove(&id).unwrap_or_default(),
            seat_count: row.seat_count,
            seats_filled: seated.get(&id).copied().unwrap_or(0),
            last_hand: hand.map_or(HandNumber(0), |h| h.number),
            open_hand: hand.filter(|h| h.open).map(|h| BoardHandView {
                number: h.number,
                started_at: h.started_at.and_utc(),
                seconds: seconds_since(h.started_at, at),
            }),
            last_commit_at: committed.map(|c| c.and_utc()),
            seconds_since_commit: committed.map(|c| seconds_since(c, at)),
            pending_hits: hits.remove(&id).unwrap_or_default(),
            gaming_day: today,
            voids_today: voids
                .iter()
                .filter(|v| v.0 == id && day_clock.day(v.3) == today)
                .map(|v| BoardVoidView { hand_number: v.1, reason: v.2, at: v.3.and_utc() })
                .collect(),
        });
    }
    Ok(BoardView { at: at.and_utc(), tables: out })
}
