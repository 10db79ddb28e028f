//! Daily rollups: what the reports read instead of the whole ledger. Each is
//! kept in the same transaction as the ledger rows it sums (an upsert that
//! adds a change); [`recompute`] sums them again from the ledger itself, to
//! check the ones kept (a test does after random commits and voids) and to
//! build them for a database written before they existed.
//!
//! What each sums:
//! - a table's day (the day its hand was committed, in the table's clock):
//!   hands committed and not voided; rake (net of reversals), the house's
//!   share (with refunds of locked contributions), the jackpot's share; and,
//!   by the day written, what the table put into its pool;
//! - a pool's day (on the pool's own clock, set when it was made): its
//!   seeds, locks, returns (a reversal counts as the kind it reverses) and the payouts of its hits;
//! - a seating: buy-in, add-ons, cash-out, rake and payouts, with its table
//!   and the gaming day it was seated on (made at its buy-in), and its seat,
//!   player and time seated as its seating and player say ([`Seated`]: the
//!   sessions report reads a session's row from its totals alone);
//! - a table's sessions by the day they were seated on: how many, and the
//!   sums of their totals (kept by the database itself, by triggers on the
//!   seatings' totals, so that it cannot differ from them).

use std::collections::BTreeMap;

use chrono::{NaiveDateTime, NaiveTime};
use diesel::prelude::*;
use diesel::upsert::excluded;

use super::cached;
use super::schema::{
    casino_tables, hand_voids, hands, jackpot_hits, ledger_entries, players, pool_days, pools, seating_totals,
    seatings, session_days, showdowns, table_days,
};
use super::DbConnection;
use crate::domain::clock::{gaming_day, Clock};
use crate::domain::{AppError, EntryId, EntryKind, HandId, HitId, Money, PlayerId, PoolId, SeatNo, SeatingId, TableId};
use crate::on_backend;

/// What a change adds to a table's gaming day.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableDay {
    /// Hands committed (−1 for a void).
    pub hands: i64,
    pub rake: Money,
    pub house: Money,
    pub jackpot: Money,
    /// Money the table put into its pool on this day (contributions less
    /// their reversals, by the day written).
    pub pool_in: Money,
}

pub fn add_table_day(
    conn: &mut DbConnection,
    table: TableId,
    day: &str,
    pool: Option<PoolId>,
    d: TableDay,
) -> QueryResult<()> {
    let row = (
        table_days::table_id.eq(table),
        table_days::gaming_day.eq(day),
        table_days::hands.eq(d.hands),
        table_days::rake_cents.eq(d.rake),
        table_days::house_cents.eq(d.house),
        table_days::jackpot_cents.eq(d.jackpot),
        table_days::pool_id.eq(pool),
        table_days::pool_in_cents.eq(d.pool_in),
    );
    let set = (
        table_days::hands.eq(table_days::hands + excluded(table_days::hands)),
        table_days::rake_cents.eq(table_days::rake_cents + excluded(table_days::rake_cents)),
        table_days::house_cents.eq(table_days::house_cents + excluded(table_days::house_cents)),
        table_days::jackpot_cents.eq(table_days::jackpot_cents + excluded(table_days::jackpot_cents)),
        table_days::pool_in_cents.eq(table_days::pool_in_cents + excluded(table_days::pool_in_cents)),
    );
    cached::execute(
        conn,
        diesel::insert_into(table_days::table)
            .values(row)
            .on_conflict((table_days::table_id, table_days::gaming_day))
            .do_update()
            .set(set),
    )?;
    Ok(())
}

/// What a change adds to a pool's gaming day (its own rows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolDay {
    pub seeds: Money,
    /// Hits locked (positive: money out of the pool).
    pub locked: Money,
    pub returned: Money,
    /// The pool's own rows of no other column here (a void's reversal of a
    /// lock or a re-seed counts as the kind it reverses: in `locked` or
    /// `seeds`).
    pub other: Money,
    /// Paid to players by verified hits.
    pub paid_out: Money,
}

pub fn add_pool_day(conn: &mut DbConnection, pool: PoolId, day: &str, d: PoolDay) -> QueryResult<()> {
    let row = (
        pool_days::pool_id.eq(pool),
        pool_days::gaming_day.eq(day),
        pool_days::seeds_cents.eq(d.seeds),
        pool_days::locked_cents.eq(d.locked),
        pool_days::returned_cents.eq(d.returned),
        pool_days::other_cents.eq(d.other),
        pool_days::paid_out_cents.eq(d.paid_out),
    );
    let set = (
        pool_days::seeds_cents.eq(pool_days::seeds_cents + excluded(pool_days::seeds_cents)),
        pool_days::locked_cents.eq(pool_days::locked_cents + excluded(pool_days::locked_cents)),
        pool_days::returned_cents.eq(pool_days::returned_cents + excluded(pool_days::returned_cents)),
        pool_days::other_cents.eq(pool_days::other_cents + excluded(pool_days::other_cents)),
        pool_days::paid_out_cents.eq(pool_days::paid_out_cents + excluded(pool_days::paid_out_cents)),
    );
    cached::execute(
        conn,
        diesel::insert_into(pool_days::table)
            .values(row)
            .on_conflict((pool_days::pool_id, pool_days::gaming_day))
            .do_update()
            .set(set),
    )?;
    Ok(())
}

/// What a change adds to a seating's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatingTotals {
    pub buy_in: Money,
    pub add_ons: Money,
    /// Taken off the table (positive).
    pub cash_out: Money,
    /// Rake paid (positive).
    pub rake: Money,
    pub payouts: Money,
}

/// Makes the totals of new seatings (at the buy-in, or in a rebuild), naming
/// each one's table and the gaming day it was seated on, with what its
/// session's row says of it that never changes ([`Seated`]; the database
/// refuses totals that say otherwise than the seating and player).
pub fn make_seating_totals(conn: &mut DbConnection, rows: &[SeatingTotalsRow]) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let values: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                seating_totals::seating_id.eq(r.seating_id),
                seating_totals::table_id.eq(r.table_id),
                seating_totals::gaming_day.eq(r.gaming_day.clone()),
                seating_totals::buy_in_cents.eq(r.buy_in),
                seating_totals::add_ons_cents.eq(r.add_ons),
                seating_totals::cash_out_cents.eq(r.cash_out),
                seating_totals::rake_cents.eq(r.rake),
                seating_totals::payouts_cents.eq(r.payouts),
                (
                    seating_totals::seat.eq(r.seat),
                    seating_totals::player.eq(r.player.as_deref()),
                    seating_totals::seated_at.eq(r.seated_at),
                    seating_totals::player_id.eq(r.player_id),
                    seating_totals::member_no.eq(r.member_no.as_deref()),
                ),
            )
        })
        .collect();
    on_backend!(conn, |c| diesel::insert_into(seating_totals::table).values(&values).execute(c))?;
    Ok(())
}

/// Adds to the totals of several seatings, in one statement. Their totals
/// were made at their buy-in ([`make_seating_totals`]): an addition to
/// totals that do not exist is refused by the database.
pub fn add_seating_totals(conn: &mut DbConnection, rows: &[(SeatingId, SeatingTotals)]) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let values: Vec<_> = rows
        .iter()
        .map(|(s, t)| {
            (
                seating_totals::seating_id.eq(*s),
                seating_totals::buy_in_cents.eq(t.buy_in),
                seating_totals::add_ons_cents.eq(t.add_ons),
                seating_totals::cash_out_cents.eq(t.cash_out),
                seating_totals::rake_cents.eq(t.rake),
                seating_totals::payouts_cents.eq(t.payouts),
            )
        })
        .collect();
    let set = (
        seating_totals::buy_in_cents.eq(seating_totals::buy_in_cents + excluded(seating_totals::buy_in_cents)),
        seating_totals::add_ons_cents.eq(seating_totals::add_ons_cents + excluded(seating_totals::add_ons_cents)),
        seating_totals::cash_out_cents.eq(seating_totals::cash_out_cents + excluded(seating_totals::cash_out_cents)),
        seating_totals::rake_cents.eq(seating_totals::rake_cents + excluded(seating_totals::rake_cents)),
        seating_totals::payouts_cents.eq(seating_totals::payouts_cents + excluded(seating_totals::payouts_cents)),
    );
    on_backend!(conn, |c| diesel::insert_into(seating_totals::table)
        .values(&values)
        .on_conflict(seating_totals::seating_id)
        .do_update()
        .set(set)
        .execute(c))?;
    Ok(())
}

/// Adds a hand's rake to its seatings' totals (each made at the seating's
/// buy-in): one statement, kept prepared (a text per number of seats). A
/// seating without its totals row is an error, never rake left out.
pub fn add_rake(conn: &mut DbConnection, seatings: &[SeatingId], rake: Money) -> QueryResult<()> {
    if seatings.is_empty() || rake.is_zero() {
        return Ok(());
    }
    let updated = cached::execute(
        conn,
        diesel::update(seating_totals::table.filter(seating_totals::seating_id.eq_any(seatings)))
            .set(seating_totals::rake_cents.eq(seating_totals::rake_cents + rake)),
    )?;
    if updated != seatings.len() {
        // Not a `books:` refusal (those are the database's guards, answered
        // 409): a missing totals row is a broken invariant, an internal error.
        return Err(diesel::result::Error::QueryBuilderError(
            format!("only {updated} of the hand's {} seatings have their totals row", seatings.len()).into(),
        ));
    }
    Ok(())
}

// ---- reading ----

#[derive(Clone, Debug, Queryable, PartialEq, Eq)]
pub struct TableDayRow {
    pub table_id: TableId,
    pub gaming_day: String,
    pub hands: i64,
    pub rake: Money,
    pub house: Money,
    pub jackpot: Money,
    pub pool_id: Option<PoolId>,
    pub pool_in: Money,
}

fn table_day_columns() -> (
    table_days::table_id,
    table_days::gaming_day,
    table_days::hands,
    table_days::rake_cents,
    table_days::house_cents,
    table_days::jackpot_cents,
    table_days::pool_id,
    table_days::pool_in_cents,
) {
    (
        table_days::table_id,
        table_days::gaming_day,
        table_days::hands,
        table_days::rake_cents,
        table_days::house_cents,
        table_days::jackpot_cents,
        table_days::pool_id,
        table_days::pool_in_cents,
    )
}

/// The table days from `from` to `to` (`YYYY-MM-DD`, inclusive) of these
/// tables (all when `None`).
pub fn table_days(
    conn: &mut DbConnection,
    tables: Option<&[TableId]>,
    from: &str,
    to: &str,
) -> QueryResult<Vec<TableDayRow>> {
    let mut q = table_days::table
        .filter(table_days::gaming_day.ge(from.to_string()))
        .filter(table_days::gaming_day.le(to.to_string()))
        .into_boxed();
    if let Some(t) = tables {
        q = q.filter(table_days::table_id.eq_any(t.to_vec()));
    }
    q.order((table_days::gaming_day, table_days::table_id)).select(table_day_columns()).load(conn)
}

/// Every table day (for checking and rebuilding).
pub fn all_table_days(conn: &mut DbConnection) -> QueryResult<Vec<TableDayRow>> {
    table_days::table.order((table_days::table_id, table_days::gaming_day)).select(table_day_columns()).load(conn)
}

/// What tables put into `pool` before `day` and from `day` to `to`.
pub fn pool_in(conn: &mut DbConnection, pool: PoolId, before: &str) -> QueryResult<Money> {
    let cents: Option<i64> = table_days::table
        .filter(table_days::pool_id.eq(pool))
        .filter(table_days::gaming_day.lt(before.to_string()))
        .select(diesel::dsl::sql::<diesel::sql_types::Nullable<diesel::sql_types::BigInt>>(
            "CAST(SUM(pool_in_cents) AS BIGINT)",
        ))
        .first(conn)?;
    Ok(Money::from_cents(cents.unwrap_or(0)))
}

#[derive(Clone, Debug, Queryable, PartialEq, Eq)]
pub struct PoolDayRow {
    pub pool_id: PoolId,
    pub gaming_day: String,
    pub seeds: Money,
    pub locked: Money,
    pub returned: Money,
    pub other: Money,
    pub paid_out: Money,
}

/// A pool's days, oldest first (all of them: a pool has one a day at most).
pub fn pool_days(conn: &mut DbConnection, pool: Option<PoolId>) -> QueryResult<Vec<PoolDayRow>> {
    let mut q = pool_days::table.into_boxed();
    if let Some(p) = pool {
        q = q.filter(pool_days::pool_id.eq(p));
    }
    q.order((pool_days::pool_id, pool_days::gaming_day))
        .select((
            pool_days::pool_id,
            pool_days::gaming_day,
            pool_days::seeds_cents,
            pool_days::locked_cents,
            pool_days::returned_cents,
            pool_days::other_cents,
            pool_days::paid_out_cents,
        ))
        .load(conn)
}

#[derive(Clone, Debug, Queryable, PartialEq, Eq)]
pub struct SeatingTotalsRow {
    pub seating_id: SeatingId,
    pub table_id: Option<TableId>,
    /// The gaming day it was seated on, `YYYY-MM-DD`.
    pub gaming_day: Option<String>,
    pub buy_in: Money,
    pub add_ons: Money,
    pub cash_out: Money,
    pub rake: Money,
    pub payouts: Money,
    /// The session's seat, player and time seated, as its seating and player
    /// say ([`Seated`]; copied when the totals are made, never changed: the
    /// sessions report reads a session's row from its totals alone).
    pub seat: Option<SeatNo>,
    pub player: Option<String>,
    pub seated_at: Option<NaiveDateTime>,
    pub player_id: Option<PlayerId>,
    pub member_no: Option<String>,
}

impl SeatingTotalsRow {
    /// The totals of a seating before any money, on the gaming day `day`.
    pub fn made(seating_id: SeatingId, seated: &Seated, day: String) -> SeatingTotalsRow {
        SeatingTotalsRow {
            seating_id,
            table_id: Some(seated.table_id),
            gaming_day: Some(day),
            buy_in: Money::ZERO,
            add_ons: Money::ZERO,
            cash_out: Money::ZERO,
            rake: Money::ZERO,
            payouts: Money::ZERO,
            seat: Some(seated.seat),
            player: Some(seated.player.clone()),
            seated_at: Some(seated.seated_at),
            player_id: seated.player_id,
            member_no: seated.member_no.clone(),
        }
    }
}

/// What a session's row says of it that never changes, as its seating and
/// its player say (a player's member number is never changed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seated {
    pub table_id: TableId,
    pub seat: SeatNo,
    pub player: String,
    pub seated_at: NaiveDateTime,
    pub player_id: Option<PlayerId>,
    pub member_no: Option<String>,
}

/// Every seating as [`Seated`] (a rebuild of the totals).
pub fn every_seated(conn: &mut DbConnection) -> QueryResult<BTreeMap<SeatingId, Seated>> {
    type Row = (SeatingId, TableId, SeatNo, String, NaiveDateTime, Option<PlayerId>, Option<String>);
    let rows: Vec<Row> = seatings::table
        .left_join(players::table.on(players::id.nullable().eq(seatings::player_id)))
        .select((
            seatings::id,
            seatings::table_id,
            seatings::seat,
            seatings::player,
            seatings::seated_at,
            seatings::player_id,
            players::member_no.nullable(),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, table_id, seat, player, seated_at, player_id, member_no)| {
            (id, Seated { table_id, seat, player, seated_at, player_id, member_no })
        })
        .collect())
}

pub fn seating_totals(conn: &mut DbConnection, seatings: Option<&[SeatingId]>) -> QueryResult<Vec<SeatingTotalsRow>> {
    let mut q = seating_totals::table.into_boxed();
    if let Some(s) = seatings {
        q = q.filter(seating_totals::seating_id.eq_any(s.to_vec()));
    }
    q.order(seating_totals::seating_id)
        .select((
            seating_totals::seating_id,
            seating_totals::table_id,
            seating_totals::gaming_day,
            seating_totals::buy_in_cents,
            seating_totals::add_ons_cents,
            seating_totals::cash_out_cents,
            seating_totals::rake_cents,
            seating_totals::payouts_cents,
            seating_totals::seat,
            seating_totals::player,
            seating_totals::seated_at,
            seating_totals::player_id,
            seating_totals::member_no,
        ))
        .load(conn)
}

/// A table's sessions seated on one gaming day: how many, and their totals.
#[derive(Clone, Debug, Queryable, PartialEq, Eq)]
pub struct SessionDayRow {
    pub gaming_day: String,
    pub table_id: TableId,
    pub sessions: i64,
    pub buy_in: Money,
    pub add_ons: Money,
    pub cash_out: Money,
    pub rake: Money,
    pub payouts: Money,
}

/// The session days from `from` to `to` (`YYYY-MM-DD`, inclusive) of these
/// tables (all when `None`), by day and table.
pub fn session_days(
    conn: &mut DbConnection,
    tables: Option<&[TableId]>,
    from: &str,
    to: &str,
) -> QueryResult<Vec<SessionDayRow>> {
    let mut q = session_days::table
        .filter(session_days::gaming_day.ge(from.to_string()))
        .filter(session_days::gaming_day.le(to.to_string()))
        .into_boxed();
    if let Some(t) = tables {
        q = q.filter(session_days::table_id.eq_any(t.to_vec()));
    }
    q.order((session_days::gaming_day, session_days::table_id))
        .select((
            session_days::gaming_day,
            session_days::table_id,
            session_days::sessions,
            session_days::buy_in_cents,
            session_days::add_ons_cents,
            session_days::cash_out_cents,
            session_days::rake_cents,
            session_days::payouts_cents,
        ))
        .load(conn)
}

/// The sums of the session days from `from` to `to` (inclusive) of one
/// table or all, added up by the database (one row back however long the
/// range): (sessions, buy-in, add-ons, cash-out, rake, payouts).
pub fn session_days_sum(
    conn: &mut DbConnection,
    table: Option<TableId>,
    from: &str,
    to: &str,
) -> QueryResult<(i64, Money, Money, Money, Money, Money)> {
    use diesel::dsl::sql;
    use diesel::sql_types::BigInt;
    let mut q = session_days::table
        .filter(session_days::gaming_day.ge(from.to_string()))
        .filter(session_days::gaming_day.le(to.to_string()))
        .into_boxed();
    if let Some(t) = table {
        q = q.filter(session_days::table_id.eq(t));
    }
    let sum = |column: &str| sql::<BigInt>(&format!("CAST(COALESCE(SUM({column}), 0) AS BIGINT)"));
    let (n, buy_in, add_ons, cash_out, rake, payouts): (i64, i64, i64, i64, i64, i64) = q
        .select((
            sum("sessions"),
            sum("buy_in_cents"),
            sum("add_ons_cents"),
            sum("cash_out_cents"),
            sum("rake_cents"),
            sum("payouts_cents"),
        ))
        .first(conn)?;
    let m = Money::from_cents;
    Ok((n, m(buy_in), m(add_ons), m(cash_out), m(rake), m(payouts)))
}

/// Empties every rollup (before a rebuild from the ledger), and lets go of
/// the sessions file's kept groups, which were made from the session days
/// (a session day made again counts its changes from the start again).
pub fn clear(conn: &mut DbConnection) -> QueryResult<()> {
    diesel::delete(table_days::table).execute(conn)?;
    diesel::delete(pool_days::table).execute(conn)?;
    diesel::delete(seating_totals::table).execute(conn)?;
    diesel::delete(session_days::table).execute(conn)?;
    super::session_files::clear(conn)?;
    Ok(())
}

/// What tables put into `pool` on each day from `from` to `to` (inclusive).
pub fn pool_in_days(conn: &mut DbConnection, pool: PoolId, from: &str, to: &str) -> QueryResult<Vec<(String, Money)>> {
    let rows: Vec<(String, Money)> = table_days::table
        .filter(table_days::pool_id.eq(pool))
        .filter(table_days::gaming_day.ge(from.to_string()))
        .filter(table_days::gaming_day.le(to.to_string()))
        .order(table_days::gaming_day)
        .select((table_days::gaming_day, table_days::pool_in_cents))
        .load(conn)?;
    let mut out: Vec<(String, Money)> = Vec::new();
    for (day, amount) in rows {
        match out.last_mut() {
            Some(last) if last.0 == day => last.1 += amount,
            _ => out.push((day, amount)),
        }
    }
    Ok(out)
}

// ---- checking and building ----

/// A table's clock from its stored time zone and cutoff.
pub fn clock(time_zone: &str, cutoff: &str) -> Result<Clock, AppError> {
    let tz = time_zone.parse().map_err(|_| AppError::internal(format!("stored time zone {time_zone:?}")))?;
    let cutoff = NaiveTime::parse_from_str(cutoff, "%H:%M")
        .map_err(|_| AppError::internal(format!("stored gaming-day cutoff {cutoff:?}")))?;
    Ok(Clock { tz, cutoff })
}

/// The gaming day of `at` (UTC) on `clock`, as stored: `YYYY-MM-DD`.
pub fn day(clock: Clock, at: NaiveDateTime) -> String {
    gaming_day(at, clock.tz, clock.cutoff).format("%Y-%m-%d").to_string()
}

/// Every rollup, recomputed from the ledger (and the hands' commit times).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Recomputed {
    pub table_days: Vec<TableDayRow>,
    pub pool_days: Vec<PoolDayRow>,
    pub seatings: Vec<SeatingTotalsRow>,
    pub session_days: Vec<SessionDayRow>,
    /// Each seating's stack now, by seating: as the database keeps it
    /// (`seating_stacks`), and as the sum of its seat rows.
    pub stacks: Vec<(SeatingId, Money)>,
    /// Each pool's shares that hold money, by pool and table (0: its rows of
    /// no table): as the database keeps them (`pool_balances`), and as the
    /// sum of the pool's rows of that table.
    pub pool_shares: Vec<((PoolId, i64), Money)>,
}

/// The rollups as kept, in the same shape as [`recompute`] gives them.
pub fn kept(conn: &mut DbConnection) -> Result<Recomputed, AppError> {
    let nonzero_table = |r: &TableDayRow| {
        r.hands != 0 || !(r.rake.is_zero() && r.house.is_zero() && r.jackpot.is_zero() && r.pool_in.is_zero())
    };
    let nonzero_pool = |r: &PoolDayRow| {
        !(r.seeds.is_zero() && r.locked.is_zero() && r.returned.is_zero() && r.other.is_zero() && r.paid_out.is_zero())
    };
    Ok(Recomputed {
        table_days: all_table_days(conn)?.into_iter().filter(nonzero_table).collect(),
        pool_days: pool_days(conn, None)?.into_iter().filter(nonzero_pool).collect(),
        seatings: seating_totals(conn, None)?,
        session_days: session_days(conn, None, "0000-00-00", "9999-99-99")?,
        stacks: super::schema::seating_stacks::table
            .order(super::schema::seating_stacks::seating_id.asc())
            .select((super::schema::seating_stacks::seating_id, super::schema::seating_stacks::stack_cents))
            .load(conn)?,
        pool_shares: super::schema::pool_balances::table
            .filter(super::schema::pool_balances::balance_cents.ne(0))
            .order((super::schema::pool_balances::pool_id.asc(), super::schema::pool_balances::table_key.asc()))
            .select((
                (super::schema::pool_balances::pool_id, super::schema::pool_balances::table_key),
                super::schema::pool_balances::balance_cents,
            ))
            .load(conn)?,
    })
}

/// Recomputes every rollup from the ledger rows (O(the whole ledger): for
/// checks and rebuilds, never on a request).
pub fn recompute(conn: &mut DbConnection) -> Result<Recomputed, AppError> {
    type Row = (
        EntryId,
        Option<TableId>,
        Option<HandId>,
        Option<SeatingId>,
        Option<PoolId>,
        Option<HitId>,
        EntryKind,
        Money,
        Option<EntryId>,
        NaiveDateTime,
        Option<Money>,
    );
    let rows: Vec<Row> = ledger_entries::table
        .order(ledger_entries::id.asc())
        .select((
            ledger_entries::id,
            ledger_entries::table_id,
            ledger_entries::hand_id,
            ledger_entries::seating_id,
            ledger_entries::pool_id,
            ledger_entries::jackpot_hit_id,
            ledger_entries::kind,
            ledger_entries::amount_cents,
            ledger_entries::reverses_id,
            ledger_entries::created_at,
            ledger_entries::rake_cents,
        ))
        .load(conn)?;
    let kinds: BTreeMap<EntryId, EntryKind> = rows.iter().map(|r| (r.0, r.6)).collect();
    let tables: Vec<(TableId, Option<PoolId>, String, String)> = casino_tables::table
        .order(casino_tables::id.asc())
        .select((casino_tables::id, casino_tables::pool_id, casino_tables::time_zone, casino_tables::gaming_day_cutoff))
        .load(conn)?;
    let clocks: BTreeMap<TableId, (Clock, Option<PoolId>)> = tables
        .iter()
        .map(|(id, pool, tz, cutoff)| Ok((*id, (clock(tz, cutoff)?, *pool))))
        .collect::<Result<_, AppError>>()?;
    // Each committed hand's day and whether it was voided.
    let committed: Vec<(HandId, TableId, NaiveDateTime)> = hands::table
        .inner_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .select((hands::id, hands::table_id, showdowns::committed_at))
        .load(conn)?;
    let voided: Vec<HandId> = hand_voids::table.select(hand_voids::hand_id).load(conn)?;
    // Voids of closed days' hands, booked into an open day.
    let corrected: BTreeMap<HandId, String> =
        super::gaming_days::all_corrections(conn)?.into_iter().map(|c| (c.hand_id, c.booked_day)).collect();
    let mut table_days: BTreeMap<(TableId, String), TableDayRow> = BTreeMap::new();
    let mut hand_day: BTreeMap<HandId, (TableId, String)> = BTreeMap::new();
    for (hand, table, at) in &committed {
        let d = day(clocks[table].0, *at);
        let row = table_day(&mut table_days, &clocks, *table, &d);
        if !voided.contains(hand) || corrected.contains_key(hand) {
            row.hands += 1;
        }
        if let Some(booked) = corrected.get(hand) {
            table_day(&mut table_days, &clocks, *table, booked).hands -= 1;
        }
        hand_day.insert(*hand, (*table, d));
    }
    let pool_clocks = pool_clocks(conn)?;
    let hit_pools = hit_pools(conn)?;
    // Each seating as seated, and the day it was seated on.
    let seated: BTreeMap<SeatingId, (Seated, String)> = every_seated(conn)?
        .into_iter()
        .map(|(s, x)| {
            let d = day(clocks.get(&x.table_id).ok_or_else(|| AppError::internal("seating's table"))?.0, x.seated_at);
            Ok((s, (x, d)))
        })
        .collect::<Result<_, AppError>>()?;
    let mut pool_days: BTreeMap<(PoolId, String), PoolDayRow> = BTreeMap::new();
    let mut seatings: BTreeMap<SeatingId, SeatingTotalsRow> = BTreeMap::new();
    let mut stacks: BTreeMap<SeatingId, Money> = BTreeMap::new();
    let mut pool_shares: BTreeMap<(PoolId, i64), Money> = BTreeMap::new();
    for (_, table, hand, seating, pool, hit, kind, amount, reverses, at, rake) in &rows {
        let counts_as = match (kind, reverses) {
            (EntryKind::Reversal, Some(r)) => kinds.get(r).copied().unwrap_or(*kind),
            _ => *kind,
        };
        let rake = super::ledger::rake_taken(counts_as, *amount, *rake);
        if let Some(s) = seating {
            *stacks.entry(*s).or_default() += *amount;
        }
        if let Some(p) = pool {
            *pool_shares.entry((*p, table.map_or(0, |t| t.get()))).or_default() += *amount;
        }
        // A table's day: by its hand's commit day (rake, house, jackpot).
        if let Some((t, d)) = hand.and_then(|h| hand_day.get(&h)) {
            // A void's rows of a corrected hand count on the day booked.
            let d = match hand.and_then(|h| corrected.get(&h)) {
                Some(booked) if matches!(kind, EntryKind::Reversal | EntryKind::ContributionRefund) => booked,
                _ => d,
            };
            let row = table_day(&mut table_days, &clocks, *t, d);
            row.rake += rake;
            match counts_as {
                EntryKind::HouseRake | EntryKind::ContributionRefund => row.house += *amount,
                EntryKind::JackpotContribution => row.jackpot += *amount,
                _ => {}
            }
        }
        // What a table put into its pool, by the day written.
        if counts_as == EntryKind::JackpotContribution && pool.is_some() {
            if let Some(t) = table {
                // A correction of a closed day: on the open day it was booked on.
                let d = match hand.and_then(|h| corrected.get(&h)) {
                    Some(booked) if *kind == EntryKind::Reversal => booked.clone(),
                    _ => day(clocks[t].0, *at),
                };
                table_day(&mut table_days, &clocks, *t, &d).pool_in += *amount;
            }
        }
        // A pool's own rows, by the day written on its clock.
        count_pool_row(&mut pool_days, &pool_clocks, &hit_pools, counts_as, *pool, *hit, *amount, *at)?;
        // A seating's totals.
        if let Some(s) = seating {
            let Some((x, d)) = seated.get(s) else { return Err(AppError::internal(format!("seating {s}"))) };
            let row = seatings.entry(*s).or_insert_with(|| SeatingTotalsRow::made(*s, x, d.clone()));
            match counts_as {
                EntryKind::BuyIn => row.buy_in += *amount,
                EntryKind::AddOn => row.add_ons += *amount,
                EntryKind::CashOut => row.cash_out += -*amount,
                EntryKind::JackpotPayout => row.payouts += *amount,
                _ => {}
            }
            row.rake += rake;
        }
    }
    let nonzero_table = |r: &TableDayRow| {
        r.hands != 0 || !(r.rake.is_zero() && r.house.is_zero() && r.jackpot.is_zero() && r.pool_in.is_zero())
    };
    let nonzero_pool = |r: &PoolDayRow| {
        !(r.seeds.is_zero() && r.locked.is_zero() && r.returned.is_zero() && r.other.is_zero() && r.paid_out.is_zero())
    };
    let mut days: BTreeMap<(String, TableId), SessionDayRow> = BTreeMap::new();
    for r in seatings.values() {
        let (Some(t), Some(d)) = (r.table_id, &r.gaming_day) else { continue };
        let row = days.entry((d.clone(), t)).or_insert_with(|| SessionDayRow {
            gaming_day: d.clone(),
            table_id: t,
            sessions: 0,
            buy_in: Money::ZERO,
            add_ons: Money::ZERO,
            cash_out: Money::ZERO,
            rake: Money::ZERO,
            payouts: Money::ZERO,
        });
        row.sessions += 1;
        row.buy_in += r.buy_in;
        row.add_ons += r.add_ons;
        row.cash_out += r.cash_out;
        row.rake += r.rake;
        row.payouts += r.payouts;
    }
    Ok(Recomputed {
        table_days: table_days.into_values().filter(nonzero_table).collect(),
        pool_days: pool_days.into_values().filter(nonzero_pool).collect(),
        seatings: seatings.into_values().collect(),
        session_days: days.into_values().collect(),
        stacks: stacks.into_iter().collect(),
        pool_shares: pool_shares.into_iter().filter(|(_, m)| !m.is_zero()).collect(),
    })
}

/// The row of a table's day in a recomputation, made empty when new.
fn table_day<'a>(
    map: &'a mut BTreeMap<(TableId, String), TableDayRow>,
    clocks: &BTreeMap<TableId, (Clock, Option<PoolId>)>,
    table: TableId,
    d: &str,
) -> &'a mut TableDayRow {
    map.entry((table, d.to_string())).or_insert_with(|| TableDayRow {
        table_id: table,
        gaming_day: d.to_string(),
        hands: 0,
        rake: Money::ZERO,
        house: Money::ZERO,
        jackpot: Money::ZERO,
        pool_id: clocks.get(&table).and_then(|c| c.1),
        pool_in: Money::ZERO,
    })
}

/// Replaces every rollup by its recomputation from the ledger (after an
/// upgrade from a version without rollups, or if a check ever fails). Run it
/// in a transaction: the rollups are emptied first.
pub fn rebuild(conn: &mut DbConnection) -> Result<(), AppError> {
    let fresh = recompute(conn)?;
    clear(conn)?;
    for r in &fresh.table_days {
        add_table_day(
            conn,
            r.table_id,
            &r.gaming_day,
            r.pool_id,
            TableDay { hands: r.hands, rake: r.rake, house: r.house, jackpot: r.jackpot, pool_in: r.pool_in },
        )?;
    }
    put_pool_days(conn, &fresh.pool_days)?;
    // The session days follow from the seatings' totals (the triggers).
    for chunk in fresh.seatings.chunks(200) {
        make_seating_totals(conn, chunk)?;
    }
    Ok(())
}

/// Makes every seating's totals (and so the session days) from the ledger,
/// summed by the database (a reversal counts as the kind it reverses), with
/// each seating's day by its table's clock: for a database whose seatings'
/// totals were emptied by an upgrade. The seatings' totals must be empty.
pub fn rebuild_seating_totals(conn: &mut DbConnection) -> Result<(), AppError> {
    #[derive(QueryableByName)]
    struct Sums {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        seating_id: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        buy_in: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        add_ons: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        cash_out: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        rake: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        payouts: i64,
    }
    let sum = |kind: &str, sign: &str| {
        format!(
            "CAST(SUM(CASE WHEN COALESCE(r.kind, l.kind) = '{kind}' THEN {sign}l.amount_cents ELSE 0 END) AS BIGINT)"
        )
    };
    // The rake: the old `rake` rows' (negative), and the rake a hand result
    // carries (its reversal: the negative; no other row carries one).
    let rake = format!("CAST({} + COALESCE(SUM(l.rake_cents), 0) AS BIGINT)", sum("rake", "-"));
    let query = format!(
        "SELECT l.seating_id AS seating_id, {} AS buy_in, {} AS add_ons, {} AS cash_out, {} AS rake, {} AS payouts \
         FROM ledger_entries l LEFT JOIN ledger_entries r ON l.kind = 'reversal' AND r.id = l.reverses_id \
         WHERE l.seating_id IS NOT NULL GROUP BY l.seating_id ORDER BY l.seating_id",
        sum("buy_in", ""),
        sum("add_on", ""),
        sum("cash_out", "-"),
        rake,
        sum("jackpot_payout", ""),
    );
    let sums: Vec<Sums> = diesel::sql_query(query).load(conn)?;
    let clocks: BTreeMap<TableId, Clock> = casino_tables::table
        .select((casino_tables::id, casino_tables::time_zone, casino_tables::gaming_day_cutoff))
        .load::<(TableId, String, String)>(conn)?
        .into_iter()
        .map(|(id, tz, cutoff)| Ok((id, clock(&tz, &cutoff)?)))
        .collect::<Result<_, AppError>>()?;
    let seated = every_seated(conn)?;
    let rows = sums
        .into_iter()
        .map(|s| {
            let id = SeatingId(s.seating_id);
            let x = seated.get(&id).ok_or_else(|| AppError::internal(format!("seating {id}")))?;
            let c =
                clocks.get(&x.table_id).copied().ok_or_else(|| AppError::internal(format!("table {}", x.table_id)))?;
            Ok(SeatingTotalsRow {
                buy_in: Money::from_cents(s.buy_in),
                add_ons: Money::from_cents(s.add_ons),
                cash_out: Money::from_cents(s.cash_out),
                rake: Money::from_cents(s.rake),
                payouts: Money::from_cents(s.payouts),
                ..SeatingTotalsRow::made(id, x, day(c, x.seated_at))
            })
        })
        .collect::<Result<Vec<_>, AppError>>()?;
    diesel::delete(session_days::table).execute(conn)?;
    // (The kept groups were made from the session days emptied here.)
    super::session_files::clear(conn)?;
    for chunk in rows.chunks(200) {
        make_seating_totals(conn, chunk)?;
    }
    Ok(())
}

/// Each pool's own clock (`service::rollups::pool_clock`).
fn pool_clocks(conn: &mut DbConnection) -> Result<BTreeMap<PoolId, Clock>, AppError> {
    pools::table
        .select((pools::id, pools::time_zone, pools::gaming_day_cutoff))
        .load::<(PoolId, String, String)>(conn)?
        .into_iter()
        .map(|(id, tz, cutoff)| Ok((id, clock(&tz, &cutoff)?)))
        .collect()
}

/// Each jackpot hit's pool.
fn hit_pools(conn: &mut DbConnection) -> QueryResult<BTreeMap<HitId, PoolId>> {
    Ok(jackpot_hits::table
        .select((jackpot_hits::id, jackpot_hits::pool_id))
        .load::<(HitId, PoolId)>(conn)?
        .into_iter()
        .collect())
}

/// The kinds of row a pool's days sum (a reversal of one counts as it).
const POOL_KINDS: [EntryKind; 4] =
    [EntryKind::PoolSeed, EntryKind::JackpotLock, EntryKind::JackpotReturn, EntryKind::JackpotPayout];

/// Adds a ledger row to its pool's day, if it is one of a pool's own rows
/// (`counts_as`: its kind, or for a reversal the kind it reverses), by the
/// day written on the pool's clock.
#[allow(clippy::too_many_arguments)]
fn count_pool_row(
    pool_days: &mut BTreeMap<(PoolId, String), PoolDayRow>,
    pool_clocks: &BTreeMap<PoolId, Clock>,
    hit_pools: &BTreeMap<HitId, PoolId>,
    counts_as: EntryKind,
    pool: Option<PoolId>,
    hit: Option<HitId>,
    amount: Money,
    at: NaiveDateTime,
) -> Result<(), AppError> {
    let pool_of_row = match counts_as {
        EntryKind::PoolSeed | EntryKind::JackpotLock | EntryKind::JackpotReturn => pool,
        EntryKind::JackpotPayout => hit.and_then(|h| hit_pools.get(&h).copied()),
        _ => None,
    };
    let Some(p) = pool_of_row else { return Ok(()) };
    let clock = pool_clocks.get(&p).ok_or_else(|| AppError::internal(format!("pool {p} has no clock")))?;
    let d = day(*clock, at);
    let row = pool_days.entry((p, d.clone())).or_insert_with(|| PoolDayRow {
        pool_id: p,
        gaming_day: d,
        seeds: Money::ZERO,
        locked: Money::ZERO,
        returned: Money::ZERO,
        other: Money::ZERO,
        paid_out: Money::ZERO,
    });
    match counts_as {
        EntryKind::PoolSeed => row.seeds += amount,
        EntryKind::JackpotLock => row.locked += -amount,
        EntryKind::JackpotReturn => row.returned += amount,
        EntryKind::JackpotPayout => row.paid_out += amount,
        _ => row.other += amount,
    }
    Ok(())
}

/// Books every pool's days again from the ledger, on each pool's clock as
/// it is now: for the upgrade that gave pools their own clock (a pool's rows
/// from before it had a table were on UTC days). Reads only a pool's own
/// rows and the reversals (a full pass over the ledger by the database, once).
pub fn rebuild_pool_days(conn: &mut DbConnection) -> Result<(), AppError> {
    let pool_clocks = pool_clocks(conn)?;
    let hit_pools = hit_pools(conn)?;
    type Own = (EntryId, Option<PoolId>, Option<HitId>, EntryKind, Money, NaiveDateTime);
    let own: Vec<Own> = ledger_entries::table
        .filter(ledger_entries::kind.eq_any(POOL_KINDS))
        .select((
            ledger_entries::id,
            ledger_entries::pool_id,
            ledger_entries::jackpot_hit_id,
            ledger_entries::kind,
            ledger_entries::amount_cents,
            ledger_entries::created_at,
        ))
        .load(conn)?;
    type Reversal = (Option<EntryId>, Option<PoolId>, Option<HitId>, Money, NaiveDateTime);
    let reversals: Vec<Reversal> = ledger_entries::table
        .filter(ledger_entries::kind.eq(EntryKind::Reversal))
        .select((
            ledger_entries::reverses_id,
            ledger_entries::pool_id,
            ledger_entries::jackpot_hit_id,
            ledger_entries::amount_cents,
            ledger_entries::created_at,
        ))
        .load(conn)?;
    let kinds: BTreeMap<EntryId, EntryKind> = own.iter().map(|r| (r.0, r.3)).collect();
    let mut days: BTreeMap<(PoolId, String), PoolDayRow> = BTreeMap::new();
    for (_, pool, hit, kind, amount, at) in &own {
        count_pool_row(&mut days, &pool_clocks, &hit_pools, *kind, *pool, *hit, *amount, *at)?;
    }
    for (reverses, pool, hit, amount, at) in &reversals {
        if let Some(kind) = reverses.and_then(|r| kinds.get(&r)) {
            count_pool_row(&mut days, &pool_clocks, &hit_pools, *kind, *pool, *hit, *amount, *at)?;
        }
    }
    diesel::delete(pool_days::table).execute(conn)?;
    put_pool_days(conn, &days.into_values().collect::<Vec<_>>())?;
    Ok(())
}

/// Writes pool days as summed (into empty days).
fn put_pool_days(conn: &mut DbConnection, rows: &[PoolDayRow]) -> QueryResult<()> {
    for r in rows {
        add_pool_day(
            conn,
            r.pool_id,
            &r.gaming_day,
            PoolDay { seeds: r.seeds, locked: r.locked, returned: r.returned, other: r.other, paid_out: r.paid_out },
        )?;
    }
    Ok(())
}

/// Builds the rollups of a database written before they existed (books with
/// rows, no rollup yet): once, at start-up, whichever process gets there
/// first (the others find them built). Says whether it built them.
pub fn build_if_missing(conn: &mut DbConnection) -> Result<bool, AppError> {
    #[derive(PartialEq)]
    enum Missing {
        Nothing,
        /// Books, and no rollup at all: every rollup is built.
        All,
        /// Seatings, and no seatings' totals (a database from before the
        /// totals named their gaming day): only those are built.
        SeatingTotals,
        /// Pools, and no pool's days (the upgrade that gave pools their own
        /// clock emptied them): only those are built.
        PoolDays,
    }
    fn missing(conn: &mut DbConnection) -> Result<Missing, AppError> {
        let books: bool =
            diesel::select(diesel::dsl::exists(ledger_entries::table.select(ledger_entries::id))).get_result(conn)?;
        let seating_totals =
            diesel::select(diesel::dsl::exists(seating_totals::table.select(seating_totals::seating_id)))
                .get_result::<bool>(conn)?;
        let days = diesel::select(diesel::dsl::exists(table_days::table.select(table_days::table_id)))
            .get_result::<bool>(conn)?
            || diesel::select(diesel::dsl::exists(pool_days::table.select(pool_days::pool_id)))
                .get_result::<bool>(conn)?;
        let seated =
            diesel::select(diesel::dsl::exists(seatings::table.select(seatings::id))).get_result::<bool>(conn)?;
        let pooled = diesel::select(diesel::dsl::exists(pools::table.select(pools::id))).get_result::<bool>(conn)?;
        let pool_days = diesel::select(diesel::dsl::exists(pool_days::table.select(pool_days::pool_id)))
            .get_result::<bool>(conn)?;
        Ok(match (books, days, seating_totals) {
            (true, false, false) => Missing::All,
            _ if seated && !seating_totals => Missing::SeatingTotals,
            _ if pooled && !pool_days => Missing::PoolDays,
            _ => Missing::Nothing,
        })
    }
    if missing(conn)? == Missing::Nothing {
        return Ok(false);
    }
    let build = |conn: &mut DbConnection| -> Result<bool, AppError> {
        // Looked at again under the write lock: another process may have
        // built them meanwhile. An upgrade over several releases may miss
        // more than one part: each is built in turn.
        let mut built = false;
        for _ in 0..3 {
            match missing(conn)? {
                Missing::Nothing => break,
                Missing::All => {
                    log::info!("building the daily rollups from the ledger (a database from before they existed)");
                    rebuild(conn)?;
                }
                Missing::SeatingTotals => {
                    log::info!("building the seatings' totals and session days from the ledger (an upgrade)");
                    rebuild_seating_totals(conn)?;
                }
                Missing::PoolDays => {
                    log::info!("booking the pools' days again on their own clocks (an upgrade)");
                    rebuild_pool_days(conn)?;
                }
            }
            built = true;
        }
        Ok(built)
    };
    match conn {
        DbConnection::Pg(_) => conn.transaction(|conn| {
            if let DbConnection::Pg(pg) = conn {
                diesel::connection::SimpleConnection::batch_execute(pg, "SELECT pg_advisory_xact_lock(7420017)")?;
            }
            build(conn)
        }),
        DbConnection::Sqlite(_) => {
            // The write lock first (BEGIN IMMEDIATE), so that the look is
            // under it.
            diesel::connection::SimpleConnection::batch_execute(conn, "BEGIN IMMEDIATE")?;
            match build(conn) {
                Ok(built) => {
                    diesel::connection::SimpleConnection::batch_execute(conn, "COMMIT")?;
                    Ok(built)
                }
                Err(e) => {
                    let _ = diesel::connection::SimpleConnection::batch_execute(conn, "ROLLBACK");
                    Err(e)
                }
            }
        }
    }
}
