//! The accountant's reports: rake by gaming day and table, jackpot pools and
//! hits, player sessions. Each is a plain struct with its rows and totals
//! (money in cents, shown with two decimals), read from the daily rollups
//! (`db::rollups`), which are kept in the same transaction as the ledger rows
//! they sum: a report costs the days in its range, not the hands.
//!
//! A gaming day of a table is the local date of (local time − the table's
//! cutoff). Reversals (a void) are netted against the kind of the row they
//! reverse: a voided hand's rake is not rake. In the rake report every row
//! counts on the gaming day its hand was committed, so a voided hand vanishes
//! from its day (and from the hand count). In the jackpot report rows count
//! on the day they were written, so balances are the pool's true balance over
//! time: a pool's own rows (seeds, locks, returns, payouts) on the pool's
//! own clock (set when it is made), the contributions on the clock of the
//! table that paid them (the same day when the pool and its tables share a
//! clock).

use std::collections::{BTreeMap, HashMap};

use chrono::{Duration, NaiveDate, NaiveDateTime, NaiveTime};
use chrono_tz::Tz;
use diesel::prelude::*;
use rust_decimal::Decimal;
use serde::Serialize;

use super::rollups;
use super::schema::{
    casino_tables, hands, jackpot_hits, ledger_entries, open_seatings, pools, seating_stacks, seating_totals, seatings,
};
use super::session_files::DaySums;
use super::DbConnection;
use crate::domain::{AppError, EntryKind, HitId, Money, PlayerId, PoolId, SeatNo, SeatingId, TableId};

/// Cents as a decimal with two places (the report rows' money).
fn from_cents(cents: i64) -> Decimal {
    Decimal::new(cents, 2)
}

/// The longest range a report covers, in gaming days.
pub const MAX_DAYS: i64 = 366;
/// Gaming days in the default range (ending with today's).
pub const DEFAULT_DAYS: i64 = 7;

use crate::domain::clock;
pub use crate::domain::clock::{gaming_day, Clock};

#[derive(Clone, Debug)]
pub struct TableInfo {
    pub id: i64,
    pub name: String,
    pub pool_id: Option<i64>,
    pub clock: Clock,
}

/// Every table, by id.
pub fn all_tables(conn: &mut DbConnection) -> Result<Vec<TableInfo>, AppError> {
    let rows: Vec<(i64, String, Option<i64>, String, String)> = casino_tables::table
        .order(casino_tables::id.asc())
        .select((
            casino_tables::id,
            casino_tables::name,
            casino_tables::pool_id,
            casino_tables::time_zone,
            casino_tables::gaming_day_cutoff,
        ))
        .load(conn)?;
    rows.into_iter()
        .map(|(id, name, pool_id, tz, cutoff)| {
            let tz = tz.parse::<Tz>().map_err(|_| AppError::internal(format!("table {id}: time zone {tz:?}")))?;
            let cutoff = NaiveTime::parse_from_str(&cutoff, "%H:%M")
                .map_err(|_| AppError::internal(format!("table {id}: gaming-day cutoff {cutoff:?}")))?;
            Ok(TableInfo { id, name, pool_id, clock: Clock { tz, cutoff } })
        })
        .collect()
}

// ---- parameters ----

/// The query parameters as given (empty values count as absent).
#[derive(Clone, Debug, Default)]
pub struct RawParams {
    pub from: Option<String>,
    pub to: Option<String>,
    pub table: Option<String>,
    /// A paged report's page ([`Page`]).
    pub after: Option<String>,
    pub before: Option<String>,
    pub limit: Option<String>,
}

impl RawParams {
    /// From query pairs; an unknown parameter is an error naming it.
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<RawParams, AppError> {
        let mut raw = RawParams::default();
        for (key, value) in pairs {
            let value = value.trim();
            let slot = match key.as_str() {
                "from" => &mut raw.from,
                "to" => &mut raw.to,
                "table" => &mut raw.table,
                "after" => &mut raw.after,
                "before" => &mut raw.before,
                "limit" => &mut raw.limit,
                other => {
                    return Err(AppError::invalid(
                        "unknown_parameter",
                        format!("unknown parameter {other:?}; a report takes from, to and table (and the sessions report after, before and limit)"),
                    )
                    .at_field(other))
                }
            };
            *slot = (!value.is_empty()).then(|| value.to_string());
        }
        Ok(raw)
    }
}

/// A checked range of gaming days (inclusive) and an optional table.
#[derive(Clone, Debug, Serialize)]
pub struct Range {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub table: Option<i64>,
}

impl Range {
    pub fn days(&self) -> impl Iterator<Item = NaiveDate> {
        let to = self.to;
        self.from.iter_days().take_while(move |d| *d <= to)
    }

    pub fn contains(&self, day: NaiveDate) -> bool {
        self.from <= day && day <= self.to
    }

    /// A UTC window holding every instant of the range's gaming days in any
    /// time zone (a gaming day lies within local [day, day + 2), and a zone
    /// is at most 14 hours from UTC).
    pub fn window(&self) -> (NaiveDateTime, NaiveDateTime) {
        let start = (self.from - Duration::days(1)).and_time(NaiveTime::MIN);
        let end = (self.to + Duration::days(3)).and_time(NaiveTime::MIN);
        (start, end)
    }
}

/// Checks the parameters. Defaults: `to` is today's gaming day (the table's,
/// or the latest among all tables); `from` is `to` − 6 days (7 gaming days).
pub fn resolve(conn: &mut DbConnection, raw: &RawParams, now: NaiveDateTime) -> Result<Range, AppError> {
    let tables = all_tables(conn)?;
    let table = match &raw.table {
        None => None,
        Some(text) => {
            let id: i64 = text.parse().map_err(|_| {
                AppError::invalid("bad_table", format!("table {text:?} is not a table id")).at_field("table")
            })?;
            Some(tables.iter().find(|t| t.id == id).ok_or_else(|| {
                AppError::invalid("bad_table", format!("table {id} is not a table")).at_field("table")
            })?)
        }
    };
    let from = raw.from.as_deref().map(|t| clock::parse_day(t, "from", "from")).transpose()?;
    let to = raw.to.as_deref().map(|t| clock::parse_day(t, "to", "to")).transpose()?;
    let today = match table {
        Some(t) => t.clock.day(now),
        None => tables.iter().map(|t| t.clock.day(now)).max().unwrap_or(now.date()),
    };
    let to = to.unwrap_or(today);
    let from = from.unwrap_or(to - Duration::days(DEFAULT_DAYS - 1));
    if from > to {
        return Err(AppError::invalid("bad_range", format!("from {from} is after to {to}")).at_field("from"));
    }
    let days = (to - from).num_days() + 1;
    if days > MAX_DAYS {
        return Err(AppError::invalid(
            "range_too_long",
            format!("from {from} to {to} is {days} gaming days; a report covers at most {MAX_DAYS}"),
        )
        .at_field("from"));
    }
    Ok(Range { from, to, table: table.map(|t| t.id) })
}

fn selected_tables(conn: &mut DbConnection, range: &Range) -> Result<Vec<TableInfo>, AppError> {
    Ok(all_tables(conn)?.into_iter().filter(|t| range.table.is_none_or(|id| id == t.id)).collect())
}

fn text_day(day: NaiveDate) -> String {
    day.format("%Y-%m-%d").to_string()
}

fn stored_day(text: &str) -> Result<NaiveDate, AppError> {
    text.parse::<NaiveDate>().map_err(|_| AppError::internal(format!("stored gaming day {text:?}")))
}

// ---- 1. rake ----

/// One gaming day at one table.
#[derive(Clone, Debug, Serialize)]
pub struct RakeRow {
    pub gaming_day: NaiveDate,
    pub table_id: i64,
    pub table: String,
    /// Hands committed that day and not voided.
    pub hands: i64,
    /// Rake collected from the seats (= house + jackpot).
    pub rake: Decimal,
    pub house: Decimal,
    pub jackpot: Decimal,
    /// `open` or `closed` (the gaming day's close: its figures are locked).
    pub day_status: &'static str,
}

/// One gaming day, all selected tables (every day of the range, also empty ones).
#[derive(Clone, Debug, Serialize)]
pub struct RakeDay {
    pub gaming_day: NaiveDate,
    pub hands: i64,
    pub rake: Decimal,
    pub house: Decimal,
    pub jackpot: Decimal,
    /// `open` or `closed`.
    pub day_status: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct RakeTotals {
    pub hands: i64,
    pub rake: Decimal,
    pub house: Decimal,
    pub jackpot: Decimal,
}

#[derive(Clone, Debug, Serialize)]
pub struct RakeReport {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub table: Option<i64>,
    pub rows: Vec<RakeRow>,
    pub days: Vec<RakeDay>,
    pub totals: RakeTotals,
}

#[derive(Clone, Copy, Debug, Default)]
struct RakeCell {
    hands: i64,
    rake: i64,
    house: i64,
    jackpot: i64,
}

impl RakeCell {
    fn add(&mut self, other: &RakeCell) {
        self.hands += other.hands;
        self.rake += other.rake;
        self.house += other.house;
        self.jackpot += other.jackpot;
    }
}

/// Rake per (gaming day, table): every rake, house-share and contribution row
/// (net of reversals) counts on the gaming day its hand was committed; read
/// from the tables' days.
pub fn rake_report(conn: &mut DbConnection, range: &Range) -> Result<RakeReport, AppError> {
    let tables = selected_tables(conn, range)?;
    let only: Option<Vec<TableId>> = range.table.map(|t| vec![TableId(t)]);
    let mut cells: BTreeMap<(NaiveDate, i64), RakeCell> = BTreeMap::new();
    for d in rollups::table_days(conn, only.as_deref(), &text_day(range.from), &text_day(range.to))? {
        let cell = cells.entry((stored_day(&d.gaming_day)?, d.table_id.get())).or_default();
        cell.add(&RakeCell {
            hands: d.hands,
            rake: d.rake.cents(),
            house: d.house.cents(),
            jackpot: d.jackpot.cents(),
        });
    }
    let name = |id: i64| tables.iter().find(|t| t.id == id).map(|t| t.name.clone()).unwrap_or_default();
    let closed = super::gaming_days::closed_days(conn, &text_day(range.from), &text_day(range.to))?;
    let status = |day: &NaiveDate| if closed.contains(&text_day(*day)) { "closed" } else { "open" };
    let mut totals = RakeCell::default();
    let mut per_day: BTreeMap<NaiveDate, RakeCell> = range.days().map(|d| (d, RakeCell::default())).collect();
    let mut out = Vec::new();
    for ((day, table_id), cell) in &cells {
        if cell.hands == 0 && cell.rake == 0 && cell.house == 0 && cell.jackpot == 0 {
            continue;
        }
        totals.add(cell);
        per_day.entry(*day).or_default().add(cell);
        out.push(RakeRow {
            gaming_day: *day,
            table_id: *table_id,
            table: name(*table_id),
            hands: cell.hands,
            rake: from_cents(cell.rake),
            house: from_cents(cell.house),
            jackpot: from_cents(cell.jackpot),
            day_status: status(day),
        });
    }
    Ok(RakeReport {
        from: range.from,
        to: range.to,
        table: range.table,
        rows: out,
        days: per_day
            .into_iter()
            .map(|(gaming_day, c)| RakeDay {
                day_status: status(&gaming_day),
                gaming_day,
                hands: c.hands,
                rake: from_cents(c.rake),
                house: from_cents(c.house),
                jackpot: from_cents(c.jackpot),
            })
            .collect(),
        totals: RakeTotals {
            hands: totals.hands,
            rake: from_cents(totals.rake),
            house: from_cents(totals.house),
            jackpot: from_cents(totals.jackpot),
        },
    })
}

// ---- 2. jackpots ----

/// One pool over the range. `closing` = `opening` + `seeds` + `contributions`
/// − `locked` + `returned` + `other`, and is the sum of the pool's ledger rows
/// written up to the end of the range.
#[derive(Clone, Debug, Serialize)]
pub struct PoolRow {
    pub pool_id: i64,
    pub pool: String,
    /// The balance before the first gaming day of the range.
    pub opening: Decimal,
    /// Seeds (at creation and each restart after a hit).
    pub seeds: Decimal,
    pub contributions: Decimal,
    /// Hits locked (taken out of the pool).
    pub locked: Decimal,
    /// Rejected hits returned to the pool.
    pub returned: Decimal,
    /// Any other pool rows (none today; kept so the balance always adds up).
    pub other: Decimal,
    /// Paid to players out of locked hits (these leave the hit, not the pool).
    pub paid_out: Decimal,
    pub closing: Decimal,
}

/// A jackpot hit whose lock falls in the range.
#[derive(Clone, Debug, Serialize)]
pub struct HitRow {
    pub hit_id: i64,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub gaming_day: NaiveDate,
    pub pool_id: i64,
    pub pool: String,
    pub table_id: i64,
    pub table: String,
    pub hand: i32,
    pub kind: String,
    pub loser_seat: i32,
    pub winner_seat: i32,
    pub amount: Decimal,
    /// Paid out of this hit so far.
    pub paid: Decimal,
    /// As on the floor page: `pending`, `approved`, `paid`, `rejected` or `voided` (its hand was voided).
    pub status: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct JackpotTotals {
    pub opening: Decimal,
    pub seeds: Decimal,
    pub contributions: Decimal,
    pub locked: Decimal,
    pub returned: Decimal,
    pub other: Decimal,
    pub paid_out: Decimal,
    pub closing: Decimal,
}

/// A pool's balance over the range, for the chart: the opening balance at
/// `start`, then the balance after each row.
#[derive(Clone, Debug)]
pub struct BalanceSeries {
    pub pool: String,
    pub start: NaiveDateTime,
    pub end: NaiveDateTime,
    pub opening: i64,
    pub points: Vec<(NaiveDateTime, i64)>,
    /// The pool's hits and seeds in the range, oldest first, for the chart's markers.
    pub marks: Vec<PoolMark>,
}

/// A hit or a seed of a pool, marked on the jackpot chart at its time (UTC).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolMark {
    pub at: NaiveDateTime,
    pub kind: MarkKind,
    /// "hit 3: 100.80, LA 1 hand #2 (paid)", "seed 100.00".
    pub label: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Hit,
    Seed,
}

#[derive(Clone, Debug, Serialize)]
pub struct JackpotReport {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub table: Option<i64>,
    pub pools: Vec<PoolRow>,
    pub hits: Vec<HitRow>,
    pub totals: JackpotTotals,
    #[serde(skip)]
    pub series: Vec<BalanceSeries>,
}

/// (hit id, created at, table id, hand number, kind, loser seat, winner seat, amount).
type HitTuple = (i64, NaiveDateTime, i64, i32, String, i32, i32, i64);

#[derive(Clone, Copy, Debug, Default)]
struct PoolCell {
    opening: i64,
    seeds: i64,
    contributions: i64,
    locked: i64,
    returned: i64,
    other: i64,
    paid_out: i64,
}

impl PoolCell {
    fn closing(&self) -> i64 {
        self.opening + self.seeds + self.contributions - self.locked + self.returned + self.other
    }

    fn add(&mut self, o: &PoolCell) {
        self.opening += o.opening;
        self.seeds += o.seeds;
        self.contributions += o.contributions;
        self.locked += o.locked;
        self.returned += o.returned;
        self.other += o.other;
        self.paid_out += o.paid_out;
    }
}

/// Pools (all, or the one the `table` feeds): a pool counts gaming days on
/// its own clock; read from the pools' and tables' days, and the hits
/// themselves.
pub fn jackpot_report(conn: &mut DbConnection, range: &Range) -> Result<JackpotReport, AppError> {
    let (start, end) = range.window();
    let tables = all_tables(conn)?;
    let all_pools: Vec<(i64, String, String, String)> = pools::table
        .order(pools::id.asc())
        .select((pools::id, pools::name, pools::time_zone, pools::gaming_day_cutoff))
        .load(conn)?;
    let selected: Vec<(i64, String, String, String)> = match range.table {
        None => all_pools,
        Some(id) => {
            let feeds = tables.iter().find(|t| t.id == id).and_then(|t| t.pool_id);
            all_pools.into_iter().filter(|p| Some(p.0) == feeds).collect()
        }
    };
    let table_name = |id: i64| tables.iter().find(|t| t.id == id).map(|t| t.name.clone()).unwrap_or_default();
    let (from, to) = (text_day(range.from), text_day(range.to));

    let mut pool_rows = Vec::new();
    let mut series = Vec::new();
    let mut hits_out = Vec::new();
    let mut totals = PoolCell::default();
    for (pool_id, pool_name, tz, cutoff) in &selected {
        let pool = PoolId(*pool_id);
        let clock = rollups::clock(tz, cutoff)?;
        // Each day's change, and the balance before the range.
        let mut days: BTreeMap<NaiveDate, PoolCell> = BTreeMap::new();
        let mut cell = PoolCell::default();
        for d in rollups::pool_days(conn, Some(pool))? {
            let change = PoolCell {
                seeds: d.seeds.cents(),
                locked: d.locked.cents(),
                returned: d.returned.cents(),
                other: d.other.cents(),
                paid_out: d.paid_out.cents(),
                ..Default::default()
            };
            if d.gaming_day < from {
                cell.opening += change.closing();
            } else if d.gaming_day <= to {
                days.entry(stored_day(&d.gaming_day)?).or_default().add(&change);
            }
        }
        cell.opening += rollups::pool_in(conn, pool, &from)?.cents();
        for (day, amount) in rollups::pool_in_days(conn, pool, &from, &to)? {
            days.entry(stored_day(&day)?).or_default().contributions += amount.cents();
        }
        // The balance at the end of each day with a change.
        let mut points = Vec::new();
        for (day, change) in &days {
            cell.add(&PoolCell { opening: 0, ..*change });
            points.push((clock.day_start(*day + Duration::days(1)), cell.closing()));
        }

        // The pool's hits locked in the range, with what each has paid.
        let hits: Vec<HitTuple> = jackpot_hits::table
            .inner_join(hands::table.on(hands::id.eq(jackpot_hits::hand_id)))
            .filter(jackpot_hits::pool_id.eq(pool_id))
            .filter(jackpot_hits::created_at.ge(start))
            .filter(jackpot_hits::created_at.lt(end))
            .order(jackpot_hits::id.asc())
            .select((
                jackpot_hits::id,
                jackpot_hits::created_at,
                hands::table_id,
                hands::number,
                jackpot_hits::kind,
                jackpot_hits::loser_seat,
                jackpot_hits::winner_seat,
                jackpot_hits::amount_cents,
            ))
            .load(conn)?;
        let hits: Vec<HitTuple> = hits.into_iter().filter(|h| range.contains(clock.day(h.1))).collect();
        let typed: Vec<HitId> = hits.iter().map(|h| HitId(h.0)).collect();
        let status_of_hit: HashMap<i64, &'static str> =
            super::jackpots::statuses(conn, &typed)?.into_iter().map(|(k, v)| (k.get(), v.name())).collect();
        let paid = super::jackpots::paid_out(conn, &typed)?;
        let mut marks: Vec<PoolMark> = ledger_entries::table
            .filter(ledger_entries::pool_id.eq(pool_id))
            .filter(ledger_entries::kind.eq(EntryKind::PoolSeed))
            .filter(ledger_entries::created_at.ge(start))
            .filter(ledger_entries::created_at.lt(end))
            .order(ledger_entries::id.asc())
            .select((ledger_entries::created_at, ledger_entries::amount_cents))
            .load::<(NaiveDateTime, Money)>(conn)?
            .into_iter()
            .filter(|(at, _)| range.contains(clock.day(*at)))
            .map(|(at, amount)| PoolMark { at, kind: MarkKind::Seed, label: format!("seed {amount}") })
            .collect();
        for h in &hits {
            let (id, at, table, hand, amount) = (h.0, h.1, h.2, h.3, h.7);
            marks.push(PoolMark {
                at,
                kind: MarkKind::Hit,
                label: format!(
                    "hit {id}: {}, {} hand #{hand} ({})",
                    Money::from_cents(amount),
                    table_name(table),
                    status_of_hit[&id]
                ),
            });
        }
        marks.sort_by_key(|m| m.at);
        for (hit_id, created_at, table_id, hand, hit_kind, loser_seat, winner_seat, amount) in hits {
            hits_out.push(HitRow {
                hit_id,
                created_at: created_at.and_utc(),
                gaming_day: clock.day(created_at),
                pool_id: *pool_id,
                pool: pool_name.clone(),
                table_id,
                table: table_name(table_id),
                hand,
                kind: hit_kind,
                loser_seat,
                winner_seat,
                amount: from_cents(amount),
                paid: from_cents(paid.get(&HitId(hit_id)).map_or(0, |m| m.cents())),
                status: status_of_hit[&hit_id],
            });
        }
        totals.add(&cell);
        series.push(BalanceSeries {
            pool: pool_name.clone(),
            start: clock.day_start(range.from),
            end: clock.day_start(range.to + Duration::days(1)),
            opening: cell.opening,
            points,
            marks,
        });
        pool_rows.push(pool_row(*pool_id, pool_name.clone(), &cell));
    }
    let t = pool_row(0, String::new(), &totals);
    Ok(JackpotReport {
        from: range.from,
        to: range.to,
        table: range.table,
        pools: pool_rows,
        hits: hits_out,
        totals: JackpotTotals {
            opening: t.opening,
            seeds: t.seeds,
            contributions: t.contributions,
            locked: t.locked,
            returned: t.returned,
            other: t.other,
            paid_out: t.paid_out,
            closing: t.closing,
        },
        series,
    })
}

fn pool_row(pool_id: i64, pool: String, c: &PoolCell) -> PoolRow {
    PoolRow {
        pool_id,
        pool,
        opening: from_cents(c.opening),
        seeds: from_cents(c.seeds),
        contributions: from_cents(c.contributions),
        locked: from_cents(c.locked),
        returned: from_cents(c.returned),
        other: from_cents(c.other),
        paid_out: from_cents(c.paid_out),
        closing: from_cents(c.closing()),
    }
}

// ---- 3. player sessions ----

/// One seating (a player's session in a seat) seated on a gaming day of the range.
#[derive(Clone, Debug, Serialize)]
pub struct SessionRow {
    pub seating_id: i64,
    pub table_id: i64,
    pub table: String,
    pub seat: i32,
    /// The name the player was seated with.
    pub player: String,
    /// The player's record (none for seatings made before records existed).
    pub player_id: Option<i64>,
    /// The record's member or ID number, if it has one.
    pub member_no: Option<String>,
    pub seated_at: chrono::DateTime<chrono::Utc>,
    pub gaming_day: NaiveDate,
    /// `seated` or `cashed out`.
    pub status: &'static str,
    pub buy_in: Decimal,
    pub add_ons: Decimal,
    pub cash_out: Decimal,
    /// Rake paid (net of voided hands).
    pub rake: Decimal,
    pub jackpot_payouts: Decimal,
    /// The stack now (0 once cashed out).
    pub stack: Decimal,
    /// cash_out + stack − buy_in − add_ons: what the session won (lost if negative).
    pub net: Decimal,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SessionTotals {
    pub sessions: usize,
    pub buy_in: Decimal,
    pub add_ons: Decimal,
    pub cash_out: Decimal,
    pub rake: Decimal,
    pub jackpot_payouts: Decimal,
    pub stack: Decimal,
    pub net: Decimal,
}

impl Default for SessionTotals {
    /// No sessions: money zeros with their two places (`"0.00"` in the JSON,
    /// as every sum of sessions reads).
    fn default() -> SessionTotals {
        let zero = Decimal::new(0, 2);
        SessionTotals {
            sessions: 0,
            buy_in: zero,
            add_ons: zero,
            cash_out: zero,
            rake: zero,
            jackpot_payouts: zero,
            stack: zero,
            net: zero,
        }
    }
}

impl SessionTotals {
    /// Adds a session's row (a player's sessions, a CSV file's rows).
    pub fn add(&mut self, s: &SessionRow) {
        self.sessions += 1;
        self.buy_in += s.buy_in;
        self.add_ons += s.add_ons;
        self.cash_out += s.cash_out;
        self.rake += s.rake;
        self.jackpot_payouts += s.jackpot_payouts;
        self.stack += s.stack;
        self.net += s.net;
    }

    /// Adds a session day whose sessions have all ended (a kept group of
    /// the CSV file: each stack 0).
    pub fn add_ended(&mut self, d: &DaySums) {
        self.sessions += usize::try_from(d.sessions).unwrap_or(0);
        self.buy_in += from_cents(d.buy_in.cents());
        self.add_ons += from_cents(d.add_ons.cents());
        self.cash_out += from_cents(d.cash_out.cents());
        self.rake += from_cents(d.rake.cents());
        self.jackpot_payouts += from_cents(d.payouts.cents());
        self.net += from_cents(d.cash_out.cents() - d.buy_in.cents() - d.add_ons.cents());
    }

    /// Adds the totals of other rows (a later part of a file).
    pub fn merge(&mut self, o: &SessionTotals) {
        self.sessions += o.sessions;
        self.buy_in += o.buy_in;
        self.add_ons += o.add_ons;
        self.cash_out += o.cash_out;
        self.rake += o.rake;
        self.jackpot_payouts += o.jackpot_payouts;
        self.stack += o.stack;
        self.net += o.net;
    }
}

/// The sessions report: one page of its rows, the totals of the whole range.
#[derive(Clone, Debug, Serialize)]
pub struct SessionReport {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub table: Option<i64>,
    /// This page's sessions, by gaming day, table and seating.
    pub sessions: Vec<SessionRow>,
    /// Every session of the range, not only this page's.
    pub totals: SessionTotals,
    /// The most rows a page holds.
    pub limit: i64,
    /// The page after this one: `after=<next>` (none on the last page).
    pub next: Option<i64>,
    /// The page before this one: `before=<previous>` (none on the first).
    pub previous: Option<i64>,
}

#[derive(Clone, Copy, Debug, Default)]
struct SessionCell {
    sessions: usize,
    buy_in: i64,
    add_ons: i64,
    cash_out: i64,
    rake: i64,
    jackpot_payouts: i64,
    stack: i64,
}

impl SessionCell {
    fn net(&self) -> i64 {
        self.cash_out + self.stack - self.buy_in - self.add_ons
    }

    fn totals(&self) -> SessionTotals {
        SessionTotals {
            sessions: self.sessions,
            buy_in: from_cents(self.buy_in),
            add_ons: from_cents(self.add_ons),
            cash_out: from_cents(self.cash_out),
            rake: from_cents(self.rake),
            jackpot_payouts: from_cents(self.jackpot_payouts),
            stack: from_cents(self.stack),
            net: from_cents(self.net()),
        }
    }
}

/// Rows on a page of the sessions report unless `limit` says otherwise.
pub const PAGE_ROWS: i64 = 100;
/// The most rows a page of the sessions report holds (`limit`).
pub const MAX_PAGE_ROWS: i64 = 1000;

/// Which page of a paged report: the rows after a row, before a row, or
/// the first ones; at most `limit` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    pub after: Option<SeatingId>,
    pub before: Option<SeatingId>,
    pub limit: i64,
}

impl Page {
    /// Checks `after`, `before` and `limit` as given.
    pub fn parse(raw: &RawParams) -> Result<Page, AppError> {
        let id = |text: &Option<String>, name: &str| -> Result<Option<SeatingId>, AppError> {
            text.as_deref()
                .map(|t| match t.parse::<i64>() {
                    Ok(n) if n > 0 => Ok(SeatingId(n)),
                    _ => Err(AppError::invalid("bad_page", format!("{name} {t:?} is not a session's seating id"))
                        .at_field(name)),
                })
                .transpose()
        };
        let (after, before) = (id(&raw.after, "after")?, id(&raw.before, "before")?);
        if after.is_some() && before.is_some() {
            return Err(AppError::invalid("bad_page", "give after or before, not both").at_field("before"));
        }
        let limit = match raw.limit.as_deref() {
            None => PAGE_ROWS,
            Some(t) => match t.parse::<i64>() {
                Ok(n) if (1..=MAX_PAGE_ROWS).contains(&n) => n,
                _ => {
                    return Err(AppError::invalid(
                        "bad_page",
                        format!("limit {t:?} is not a number of rows from 1 to {MAX_PAGE_ROWS}"),
                    )
                    .at_field("limit"))
                }
            },
        };
        Ok(Page { after, before, limit })
    }
}

/// The sessions seated on a gaming day of the range (each seating's own
/// table's clock at its buy-in), with their totals as of now (rows written
/// after the range count too): one page of rows, by gaming day, table and
/// seating, and the totals of the whole range from the day rollups.
pub fn session_report(conn: &mut DbConnection, range: &Range, page: Page) -> Result<SessionReport, AppError> {
    let rows = session_page(conn, range, page)?;
    let totals = session_totals(conn, range)?;
    Ok(SessionReport {
        from: range.from,
        to: range.to,
        table: range.table,
        sessions: rows.sessions,
        totals,
        limit: page.limit,
        next: rows.next,
        previous: rows.previous,
    })
}

/// A page of the sessions report's rows.
pub struct SessionPage {
    pub sessions: Vec<SessionRow>,
    /// The last row's seating id, if rows follow it.
    pub next: Option<i64>,
    /// The first row's seating id, if rows come before it.
    pub previous: Option<i64>,
}

/// The seatings' totals after (`forward`) or before a place in the
/// sessions' order (gaming day, table, seating), as one row-value
/// comparison, `(gaming_day, table_id, seating_id) > (…)`: both databases
/// seek to it in `seating_totals_day`. It stands for the range's bound on
/// its side (`bound`: the range's first day going forward, its last going
/// back), and is that bound alone where the place lies outside the range
/// there. (Spelled out with OR beside that bound, SQLite sought to the
/// range's first day and filtered every row from there, so each later part
/// of a month's file took longer than the one before: 7 ms for the fifth
/// part of 1,000 sessions, 22 ms for the thirtieth; PostgreSQL read every
/// row from the place's day to the range's end and sorted them. So callers
/// give no other bound on that side.) Its own expression, not an SQL
/// literal, so that the query stays prepared.
#[derive(Debug, Clone)]
struct BeyondPlace {
    day: String,
    /// The place's table and seating; `None`: the bound alone.
    place: Option<(i64, i64)>,
    forward: bool,
}

impl BeyondPlace {
    fn new((day, table, seating): (String, TableId, SeatingId), forward: bool, bound: &str) -> BeyondPlace {
        let outside = if forward { day.as_str() < bound } else { day.as_str() > bound };
        if outside {
            BeyondPlace { day: bound.to_string(), place: None, forward }
        } else {
            BeyondPlace { day, place: Some((table.get(), seating.get())), forward }
        }
    }
}

impl diesel::Expression for BeyondPlace {
    type SqlType = diesel::sql_types::Bool;
}

impl<QS> diesel::AppearsOnTable<QS> for BeyondPlace where seating_totals::gaming_day: diesel::AppearsOnTable<QS> {}

impl<QS> diesel::SelectableExpression<QS> for BeyondPlace where
    seating_totals::gaming_day: diesel::SelectableExpression<QS>
{
}

impl<GB> diesel::expression::ValidGrouping<GB> for BeyondPlace {
    type IsAggregate = diesel::expression::is_aggregate::Never;
}

// Its text differs by direction and form, so no static id: a query holding it is
// kept prepared by its text.
impl diesel::query_builder::QueryId for BeyondPlace {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl diesel::query_builder::QueryFragment<super::MultiBackend> for BeyondPlace {
    fn walk_ast<'b>(&'b self, mut out: diesel::query_builder::AstPass<'_, 'b, super::MultiBackend>) -> QueryResult<()> {
        use diesel::sql_types::{BigInt, Text};
        let Some((table, seating)) = &self.place else {
            out.push_sql(if self.forward { "seating_totals.gaming_day >= " } else { "seating_totals.gaming_day <= " });
            return out.push_bind_param::<Text, _>(&self.day);
        };
        out.push_sql("(seating_totals.gaming_day, seating_totals.table_id, seating_totals.seating_id) ");
        out.push_sql(if self.forward { "> (" } else { "< (" });
        out.push_bind_param::<Text, _>(&self.day)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(table)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(seating)?;
        out.push_sql(")");
        Ok(())
    }
}

/// One page of the sessions seated in the range: a seek on the seatings'
/// totals by (gaming day, table, seating), then one query for the rows.
pub fn session_page(conn: &mut DbConnection, range: &Range, page: Page) -> Result<SessionPage, AppError> {
    let tables = all_tables(conn)?;
    let (from, to) = (text_day(range.from), text_day(range.to));
    let in_table = || {
        let mut q = seating_totals::table.into_boxed();
        if let Some(t) = range.table {
            q = q.filter(seating_totals::table_id.eq(TableId(t)));
        }
        q
    };
    let in_range = || {
        in_table().filter(seating_totals::gaming_day.ge(from.clone())).filter(seating_totals::gaming_day.le(to.clone()))
    };
    // Rows after (or before) a place in the order (day, table, seating).
    type Place = (String, TableId, SeatingId);
    // (The seek stands for the bound on its own side; the other side's bound
    // and the order's direction go with it.)
    let beyond = |place: &Place, forward: bool| {
        let q = in_table().filter(BeyondPlace::new(place.clone(), forward, if forward { &from } else { &to }));
        use seating_totals::{gaming_day as day, seating_id as seating, table_id as table};
        if forward {
            q.filter(day.le(to.clone())).order((day.asc(), table.asc(), seating.asc()))
        } else {
            q.filter(day.ge(from.clone())).order((day.desc(), table.desc(), seating.desc()))
        }
    };
    // The row a page starts after or ends before, by its place in the order.
    let place_of = |conn: &mut DbConnection, id: SeatingId, name: &str| -> Result<Place, AppError> {
        let found: Option<(Option<String>, Option<TableId>)> = seating_totals::table
            .filter(seating_totals::seating_id.eq(id))
            .select((seating_totals::gaming_day, seating_totals::table_id))
            .first(conn)
            .optional()?;
        match found {
            // A place at another table than the range's would skip (or
            // repeat) this table's rows of that day.
            Some((Some(_), Some(t))) if range.table.is_some_and(|only| TableId(only) != t) => Err(AppError::invalid(
                "bad_page",
                format!("{name} {id}: that session is at another table than the report's"),
            )
            .at_field(name)),
            Some((Some(d), Some(t))) => Ok((d, t, id)),
            _ => Err(AppError::invalid("bad_page", format!("{name} {id}: there is no such session")).at_field(name)),
        }
    };
    // This page's seating ids in order, and whether rows lie beyond each end.
    let select = (seating_totals::gaming_day, seating_totals::table_id, seating_totals::seating_id);
    let load_places = |conn: &mut DbConnection, q: BoxedTotals<'_>, n: i64| -> Result<Vec<Place>, AppError> {
        let rows: Vec<(Option<String>, Option<TableId>, SeatingId)> = q.select(select).limit(n).load(conn)?;
        Ok(rows.into_iter().filter_map(|(d, t, s)| Some((d?, t?, s))).collect())
    };
    let n = page.limit;
    let (places, more_before, more_after) = match (page.after, page.before) {
        (None, Some(before)) => {
            let place = place_of(conn, before, "before")?;
            let mut places = load_places(conn, beyond(&place, false), n + 1)?;
            let more_before = places.len() as i64 > n;
            places.truncate(n as usize);
            places.reverse();
            let more_after = match places.last() {
                Some(last) => !load_places(conn, beyond(last, true), 1)?.is_empty(),
                None => false,
            };
            (places, more_before, more_after)
        }
        (after, _) => {
            let mut places = match after {
                Some(a) => {
                    let place = place_of(conn, a, "after")?;
                    load_places(conn, beyond(&place, true), n + 1)?
                }
                None => {
                    let q = in_range().order((
                        seating_totals::gaming_day.asc(),
                        seating_totals::table_id.asc(),
                        seating_totals::seating_id.asc(),
                    ));
                    load_places(conn, q, n + 1)?
                }
            };
            let more_after = places.len() as i64 > n;
            places.truncate(n as usize);
            let more_before = match places.first() {
                Some(first) => !load_places(conn, beyond(first, false), 1)?.is_empty(),
                None => false,
            };
            (places, more_before, more_after)
        }
    };
    let ids: Vec<SeatingId> = places.iter().map(|p| p.2).collect();
    Ok(SessionPage {
        sessions: session_rows(conn, &tables, &ids)?,
        next: if more_after { ids.last().map(|s| s.get()) } else { None },
        previous: if more_before { ids.first().map(|s| s.get()) } else { None },
    })
}

type BoxedTotals<'a> = seating_totals::BoxedQuery<'a, super::MultiBackend>;

/// The totals of every session seated in the range: the day rollups' sums,
/// and the stacks of those still seated (`seating_stacks`; a cashed-out
/// session's stack is 0).
pub fn session_totals(conn: &mut DbConnection, range: &Range) -> Result<SessionTotals, AppError> {
    let (from, to) = (text_day(range.from), text_day(range.to));
    let (from, to) = (from.as_str(), to.as_str());
    let (sessions, buy_in, add_ons, cash_out, rake, payouts) =
        rollups::session_days_sum(conn, range.table.map(TableId), from, to)?;
    let mut cell = SessionCell {
        sessions: usize::try_from(sessions).unwrap_or(0),
        buy_in: buy_in.cents(),
        add_ons: add_ons.cents(),
        cash_out: cash_out.cents(),
        rake: rake.cents(),
        jackpot_payouts: payouts.cents(),
        stack: 0,
    };
    let mut q = open_seatings::table
        .inner_join(seating_totals::table.on(seating_totals::seating_id.eq(open_seatings::seating_id)))
        .left_join(seating_stacks::table.on(seating_stacks::seating_id.eq(open_seatings::seating_id)))
        .filter(seating_totals::gaming_day.ge(from.to_string()))
        .filter(seating_totals::gaming_day.le(to.to_string()))
        .into_boxed();
    if let Some(t) = range.table {
        q = q.filter(open_seatings::table_id.eq(TableId(t)));
    }
    let stacks: Vec<Option<Money>> = q.select(seating_stacks::stack_cents.nullable()).load(conn)?;
    cell.stack = stacks.into_iter().map(|s| s.unwrap_or_default().cents()).sum();
    Ok(cell.totals())
}

/// At most this many of a player's sessions are read (the latest).
pub const PLAYER_SESSIONS: i64 = 500;

/// A player's latest [`PLAYER_SESSIONS`] sessions, oldest first, with
/// their totals.
pub fn player_sessions(
    conn: &mut DbConnection,
    player: PlayerId,
) -> Result<(Vec<SessionRow>, SessionTotals), AppError> {
    let tables = all_tables(conn)?;
    let mut ids: Vec<SeatingId> = seatings::table
        .filter(seatings::player_id.eq(player))
        .order(seatings::id.desc())
        .limit(PLAYER_SESSIONS)
        .select(seatings::id)
        .load(conn)?;
    ids.reverse();
    let sessions = session_rows(conn, &tables, &ids)?;
    let mut totals = SessionTotals::default();
    sessions.iter().for_each(|s| totals.add(s));
    Ok((sessions, totals))
}

/// A session as read from its totals: the seating and what its totals say
/// of it (its table, seat, player, time seated, player id and member
/// number: always set, `db::rollups::Seated`), the gaming day it was
/// seated on and its totals, its stack, and whether it is still seated.
type SessionTuple = (
    (SeatingId, Option<TableId>, Option<SeatNo>, Option<String>, Option<NaiveDateTime>, Option<PlayerId>),
    Option<String>,
    (Option<String>, Money, Money, Money, Money, Money),
    Option<Money>,
    bool,
);

/// The columns of a [`SessionTuple`]: the seating's totals, its stack and
/// whether it is seated (two probes a row).
macro_rules! session_columns {
    () => {
        (
            (
                seating_totals::seating_id,
                seating_totals::table_id,
                seating_totals::seat,
                seating_totals::player,
                seating_totals::seated_at,
                seating_totals::player_id,
            ),
            seating_totals::member_no,
            (
                seating_totals::gaming_day,
                seating_totals::buy_in_cents,
                seating_totals::add_ons_cents,
                seating_totals::cash_out_cents,
                seating_totals::rake_cents,
                seating_totals::payouts_cents,
            ),
            seating_stacks::stack_cents.nullable(),
            diesel::dsl::exists(open_seatings::table.filter(open_seatings::seating_id.eq(seating_totals::seating_id))),
        )
    };
}

/// The sessions of these seatings, in the order given: one query.
fn session_rows(conn: &mut DbConnection, tables: &[TableInfo], ids: &[SeatingId]) -> Result<Vec<SessionRow>, AppError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let found: Vec<SessionTuple> = seating_totals::table
        .left_join(seating_stacks::table.on(seating_stacks::seating_id.eq(seating_totals::seating_id)))
        .filter(seating_totals::seating_id.eq_any(ids.to_vec()))
        .select(session_columns!())
        .load(conn)?;
    if found.len() != ids.len() {
        // The database makes a seating's totals with the seating.
        return Err(AppError::internal(format!(
            "{} of {} seatings have no totals",
            ids.len() - found.len(),
            ids.len()
        )));
    }
    let mut by_id: HashMap<SeatingId, SessionRow> = HashMap::with_capacity(found.len());
    for tuple in found {
        let id = (tuple.0).0;
        if let Some(row) = session_row(tables, tuple)? {
            by_id.insert(id, row);
        }
    }
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

/// A session's row from what was read; `None` for a table not in `tables`.
fn session_row(tables: &[TableInfo], found: SessionTuple) -> Result<Option<SessionRow>, AppError> {
    let ((seating_id, table_id, seat, player, seated_at, player_id), member_no, sums, stack, seated) = found;
    let (day, buy_in, add_ons, cash_out, rake, payouts) = sums;
    let (Some(table_id), Some(seat), Some(player), Some(seated_at), Some(day)) =
        (table_id, seat, player, seated_at, day)
    else {
        // The database makes totals with every one of them.
        return Err(AppError::internal(format!("seating {seating_id}: its totals do not say where it sat")));
    };
    let Some(t) = tables.iter().find(|t| t.id == table_id.get()) else { return Ok(None) };
    let gaming_day = stored_day(&day)?;
    let stack = stack.unwrap_or_default();
    let net = cash_out.cents() + stack.cents() - buy_in.cents() - add_ons.cents();
    Ok(Some(SessionRow {
        seating_id: seating_id.get(),
        table_id: t.id,
        table: t.name.clone(),
        seat: seat.get(),
        player,
        player_id: player_id.map(PlayerId::get),
        member_no,
        seated_at: seated_at.and_utc(),
        gaming_day,
        status: if seated { "seated" } else { "cashed out" },
        buy_in: from_cents(buy_in.cents()),
        add_ons: from_cents(add_ons.cents()),
        cash_out: from_cents(cash_out.cents()),
        rake: from_cents(rake.cents()),
        jackpot_payouts: from_cents(payouts.cents()),
        stack: from_cents(stack.cents()),
        net: from_cents(net),
    }))
}

/// The groups of the sessions file (a table's gaming day of sessions) in
/// which a player is still seated: each open seating's day and table.
pub fn open_groups(conn: &mut DbConnection) -> Result<std::collections::HashSet<(String, TableId)>, AppError> {
    let rows: Vec<(Option<String>, Option<TableId>)> = open_seatings::table
        .inner_join(seating_totals::table.on(seating_totals::seating_id.eq(open_seatings::seating_id)))
        .select((seating_totals::gaming_day, seating_totals::table_id))
        .load(conn)?;
    Ok(rows.into_iter().filter_map(|(day, table)| Some((day?, table?))).collect())
}

/// The newest session there is (`None`: none yet). A sessions file holds
/// the sessions there were when it began.
pub fn newest_session(conn: &mut DbConnection) -> Result<Option<SeatingId>, AppError> {
    Ok(seating_totals::table.select(diesel::dsl::max(seating_totals::seating_id)).first(conn)?)
}

/// Every session seated on the gaming days `from..=to` (`YYYY-MM-DD`) at
/// one table or every table, up to the seating `newest`, in the file's order
/// (gaming day, table, seating): one seek on the seatings' totals by that
/// order, each row joined to its stack and whether it is seated. `tables`
/// from [`all_tables`] (a session of a table not in it is left out).
pub fn sessions_of_days(
    conn: &mut DbConnection,
    tables: &[TableInfo],
    (from, to): (&str, &str),
    table: Option<TableId>,
    newest: SeatingId,
) -> Result<Vec<SessionRow>, AppError> {
    let mut q = seating_totals::table
        .left_join(seating_stacks::table.on(seating_stacks::seating_id.eq(seating_totals::seating_id)))
        .filter(seating_totals::gaming_day.ge(from.to_string()))
        .filter(seating_totals::gaming_day.le(to.to_string()))
        .filter(seating_totals::seating_id.le(newest))
        .into_boxed();
    if let Some(t) = table {
        q = q.filter(seating_totals::table_id.eq(t));
    }
    let found: Vec<SessionTuple> = q
        .order((seating_totals::gaming_day.asc(), seating_totals::table_id.asc(), seating_totals::seating_id.asc()))
        .select(session_columns!())
        .load(conn)?;
    let mut rows = Vec::with_capacity(found.len());
    for tuple in found {
        rows.extend(session_row(tables, tuple)?);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S").unwrap()
    }

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    fn six() -> NaiveTime {
        NaiveTime::from_hms_opt(6, 0, 0).unwrap()
    }

    #[test]
    fn before_and_after_the_cutoff() {
        let la: Tz = "America/Los_Angeles".parse().unwrap();
        // 2026-11-21 is PST (UTC−8): 06:00 local is 14:00 UTC.
        assert_eq!(gaming_day(utc("2026-11-21 13:59:59"), la, six()), day("2026-11-20"));
        assert_eq!(gaming_day(utc("2026-11-21 14:00:00"), la, six()), day("2026-11-21"));
        // Local midnight to 05:59 belongs to the day before.
        assert_eq!(gaming_day(utc("2026-11-22 08:30:00"), la, six()), day("2026-11-21"));
    }

    #[test]
    fn across_a_dst_change() {
        let la: Tz = "America/Los_Angeles".parse().unwrap();
        // Clocks go forward at 02:00 on 2026-03-08: the cutoff moves from
        // 14:00 UTC (PST) to 13:00 UTC (PDT).
        assert_eq!(gaming_day(utc("2026-03-07 13:59:00"), la, six()), day("2026-03-06"));
        assert_eq!(gaming_day(utc("2026-03-07 14:00:00"), la, six()), day("2026-03-07"));
        assert_eq!(gaming_day(utc("2026-03-08 12:59:00"), la, six()), day("2026-03-07"));
        assert_eq!(gaming_day(utc("2026-03-08 13:00:00"), la, six()), day("2026-03-08"));
        // The short night (02:00–03:00 does not exist) is still the 7th.
        assert_eq!(gaming_day(utc("2026-03-08 10:30:00"), la, six()), day("2026-03-07"));
        // Clocks go back on 2026-11-01: 01:30 happens twice, both the 31st.
        assert_eq!(gaming_day(utc("2026-11-01 08:30:00"), la, six()), day("2026-10-31"));
        assert_eq!(gaming_day(utc("2026-11-01 09:30:00"), la, six()), day("2026-10-31"));
        assert_eq!(gaming_day(utc("2026-11-01 14:00:00"), la, six()), day("2026-11-01"));
    }

    #[test]
    fn east_of_utc_and_midnight_cutoff() {
        let macau: Tz = "Asia/Macau".parse().unwrap();
        let cutoff = NaiveTime::from_hms_opt(4, 30, 0).unwrap();
        // UTC+8: 04:30 local is 20:30 UTC the day before.
        assert_eq!(gaming_day(utc("2026-11-20 20:29:00"), macau, cutoff), day("2026-11-20"));
        assert_eq!(gaming_day(utc("2026-11-20 20:30:00"), macau, cutoff), day("2026-11-21"));
        assert_eq!(gaming_day(utc("2026-11-20 23:59:59"), chrono_tz::UTC, NaiveTime::MIN), day("2026-11-20"));
        assert_eq!(gaming_day(utc("2026-11-21 00:00:00"), chrono_tz::UTC, NaiveTime::MIN), day("2026-11-21"));
    }

    #[test]
    fn day_start_is_the_cutoff_in_utc() {
        let la = Clock { tz: "America/Los_Angeles".parse().unwrap(), cutoff: six() };
        assert_eq!(la.day_start(day("2026-03-07")), utc("2026-03-07 14:00:00"));
        assert_eq!(la.day_start(day("2026-03-08")), utc("2026-03-08 13:00:00"));
        // A cutoff inside the DST gap starts an hour later.
        let two = Clock { tz: la.tz, cutoff: NaiveTime::from_hms_opt(2, 30, 0).unwrap() };
        assert_eq!(two.day_start(day("2026-03-08")), utc("2026-03-08 10:30:00"));
    }

    #[test]
    fn params() {
        let pairs = |p: &[(&str, &str)]| -> Vec<(String, String)> {
            p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        let raw = RawParams::from_pairs(&pairs(&[("from", "2026-11-01"), ("to", ""), ("table", " 3 ")])).unwrap();
        assert_eq!(raw.from.as_deref(), Some("2026-11-01"));
        assert_eq!(raw.to, None);
        assert_eq!(raw.table.as_deref(), Some("3"));
        let err = RawParams::from_pairs(&pairs(&[("form", "x")])).unwrap_err().to_string();
        assert!(err.contains("form"), "{err}");
        let range = Range { from: day("2026-11-01"), to: day("2026-11-03"), table: None };
        assert_eq!(range.days().count(), 3);
    }
}
