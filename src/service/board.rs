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
    /// Those of them signed in now (display names): signed in within the
    /// last 12 hours (a session's length), and not signed out nor their
    /// password changed by themselves since. (A screen closed without
    /// signing out, or sessions ended by an admin's change, count until the
    /// 12 hours pass.)
    pub dealers_signed_in: Vec<String>,
    /// Each of `dealers` in the same order, with whether that dealer is
    /// signed in (as for `dealers_signed_in`); two dealers with the same
    /// display name are told apart here.
    pub dealer_status: Vec<BoardDealerView>,
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
    /// Why the floor cannot close the table now, in words (a hand in
    /// progress, players seated); none when it can or it is closed already.
    pub cannot_close: Option<String>,
    /// The table's current gaming day (its time zone and cutoff).
    pub gaming_day: NaiveDate,
    /// The voids of the current gaming day, oldest first.
    pub voids_today: Vec<BoardVoidView>,
}

/// A dealer assigned to a table, on the board.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct BoardDealerView {
    /// Display name.
    pub name: String,
    pub signed_in: bool,
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
    // Who is signed in: whose latest sign-in, sign-out or own password
    // change (it ends their sessions) of a session's length is a sign-in.
    let mut signed_in: HashMap<String, bool> = HashMap::new();
    for (username, action) in q::sessions_since(conn, at - Duration::hours(super::users::SESSION_HOURS))? {
        signed_in.insert(username, action == "login");
    }
    let mut dealers: HashMap<TableId, Vec<BoardDealerView>> = HashMap::new();
    for (table, username, name) in q::dealers(conn)? {
        let signed_in = signed_in.get(&username).copied().unwrap_or(false);
        dealers.entry(table).or_default().push(BoardDealerView { name, signed_in });
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
        let table_status = status.map_or(TableStatus::Open, |s| s.1);
        let open_hand = hand.filter(|h| h.open);
        let seats_filled = seated.get(&id).copied().unwrap_or(0);
        let dealers_here = dealers.remove(&id).unwrap_or_default();
        let cannot_close = match (table_status, open_hand) {
            (TableStatus::Closed, _) => None,
            (_, Some(h)) => Some(format!("hand {} in progress", h.number)),
            _ if seats_filled == 1 => Some("1 player seated: cash out first".to_string()),
            _ if seats_filled > 1 => Some(format!("{seats_filled} players seated: cash out first")),
            _ => None,
        };
        out.push(BoardTableView {
            id,
            name: row.name,
            status: table_status,
            status_changed_at: status.map(|s| s.2.and_utc()),
            status_changed_by: status.and_then(|s| s.3.clone()),
            preset: ruleset.preset.clone(),
            unit: ruleset.unit_cents,
            rake_per_seat: ruleset.rake_cents,
            dealers: dealers_here.iter().map(|d| d.name.clone()).collect(),
            dealers_signed_in: dealers_here.iter().filter(|d| d.signed_in).map(|d| d.name.clone()).collect(),
            dealer_status: dealers_here,
            seat_count: row.seat_count,
            seats_filled,
            last_hand: hand.map_or(HandNumber(0), |h| h.number),
            open_hand: open_hand.map(|h| BoardHandView {
                number: h.number,
                started_at: h.started_at.and_utc(),
                seconds: seconds_since(h.started_at, at),
            }),
            last_commit_at: committed.map(|c| c.and_utc()),
            seconds_since_commit: committed.map(|c| seconds_since(c, at)),
            pending_hits: hits.remove(&id).unwrap_or_default(),
            cannot_close,
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

/// Audit actions that never change the board: attempts to sign in, API
/// tokens (a sign-in, a sign-out and an own password change do: the board
/// shows the dealers signed in).
const QUIET_ACTIONS: &[&str] = &["login_attempt", "login_failed", "token_create", "token_revoke"];

/// How long an audit id missing below the newest one seen is waited for.
/// A transaction takes its id when it writes the row and may commit after a
/// later one did (PostgreSQL, several app servers); an id whose transaction
/// rolled back never comes.
pub const AUDIT_GAP_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// How far back a new watch looks for ids still to come.
pub const AUDIT_LOOKBACK: i64 = 256;

/// Rows read per look.
const AUDIT_BATCH: i64 = 1000;

/// What one app server has seen of the audit trail, to tell when the board
/// may have changed: every id up to `low`, the ids seen above it, and the
/// ids missing between (waited for, each at most `AUDIT_GAP_WAIT`).
#[derive(Debug, Default)]
pub struct AuditWatch {
    low: i64,
    seen: std::collections::BTreeSet<i64>,
    gaps: std::collections::BTreeMap<i64, std::time::Instant>,
}

impl AuditWatch {
    /// A watch that takes every id up to `low` as seen.
    pub fn from(low: i64) -> AuditWatch {
        AuditWatch { low: low.max(0), ..AuditWatch::default() }
    }

    /// The newest id seen: the id of the board read after it.
    pub fn newest(&self) -> i64 {
        self.seen.last().copied().unwrap_or(self.low)
    }

    /// The ids waited for below the newest.
    pub fn missing(&self) -> Vec<i64> {
        self.gaps.keys().copied().collect()
    }

    /// Takes the rows read (id, action); answers whether one of them may
    /// change the board.
    pub fn take(&mut self, rows: &[(i64, String)], now: std::time::Instant) -> bool {
        let mut changed = false;
        for (id, action) in rows {
            if *id <= self.low || !self.seen.insert(*id) {
                continue;
            }
            self.gaps.remove(id);
            changed |= !QUIET_ACTIONS.contains(&action.as_str());
        }
        let newest = self.newest();
        // A jump far ahead (a sequence that skipped): wait for the last
        // stretch only.
        if newest - self.low > 10 * AUDIT_BATCH {
            self.low = newest - 10 * AUDIT_BATCH;
            let low = self.low;
            self.seen.retain(|id| *id > low);
            self.gaps.retain(|id, _| *id > low);
        }
        for id in self.low + 1..newest {
            if !self.seen.contains(&id) {
                self.gaps.entry(id).or_insert(now);
            }
        }
        while self.low < newest {
            let next = self.low + 1;
            if self.seen.remove(&next) {
                self.low = next;
            } else if self.gaps.get(&next).is_some_and(|since| now.duration_since(*since) >= AUDIT_GAP_WAIT) {
                self.gaps.remove(&next);
                self.low = next;
            } else {
                break;
            }
        }
        changed
    }
}

/// A watch of the audit trail from now on (the last `AUDIT_LOOKBACK` ids
/// still to look at: one of them may be about to commit).
pub fn watch_audit(conn: &mut DbConnection) -> Result<AuditWatch, AppError> {
    let latest = crate::db::audit::latest_id(conn)?.unwrap_or(0);
    Ok(AuditWatch::from(latest - AUDIT_LOOKBACK))
}

/// Looks at the audit trail once: whether the board may have changed since
/// the last look.
pub fn audit_changed(conn: &mut DbConnection, watch: &mut AuditWatch) -> Result<bool, AppError> {
    let rows = crate::db::audit::ids_after(conn, watch.newest(), &watch.missing(), AUDIT_BATCH)?;
    Ok(watch.take(&rows, std::time::Instant::now()))
}
