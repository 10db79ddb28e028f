//! The sessions CSV file's groups kept ready (issue 17). The file's rows go
//! by gaming day, table and seating; a group is one table's gaming day of
//! them. Once every session of a group has ended and its day is over, the
//! group is kept here as the file writes its rows (`web::sessions_file`
//! makes them and decides when a kept group is still true), with what they
//! were made from: the group's session day as it was then (its sessions,
//! sums and count of changes, which the database moves with every change of
//! the seatings' totals), the table's name, the zone of the times and the
//! layout of a row. It is the file's copy of what the books say, never the
//! books: a group that is not true is made again or read as before, and
//! any of it may be deleted. Plain queries.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::upsert::excluded;

use super::schema::{casino_tables, session_days, session_files};
use super::DbConnection;
use crate::domain::{Money, SeatingId, TableId};

/// A session day: its sessions, their sums and its count of changes (what
/// a group's rows are made from).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Queryable)]
pub struct DaySums {
    pub sessions: i64,
    pub buy_in: Money,
    pub add_ons: Money,
    pub cash_out: Money,
    pub rake: Money,
    pub payouts: Money,
    pub changes: i64,
}

/// A kept group: what it was made from, how its rows show, the rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub made_from: DaySums,
    /// The newest seating among its sessions.
    pub newest_seating: SeatingId,
    pub table_name: String,
    pub time_zone: String,
    pub layout: i32,
    /// The rows as the file writes them, LZ4 (a block, its length first).
    pub rows_lz4: Vec<u8>,
}

/// A group of a range: its table's gaming day, its session day now, and
/// what is kept of it.
#[derive(Clone, Debug)]
pub struct Group {
    pub gaming_day: String,
    pub table_id: TableId,
    pub now: DaySums,
    pub kept: Option<KeptRows>,
}

/// A kept group as the file reads it: whether it was made from its session
/// day as it is now (compared by the database), how its rows show, the rows.
#[derive(Clone, Debug)]
pub struct KeptRows {
    pub made_from_now: bool,
    pub newest_seating: SeatingId,
    pub table_name: String,
    pub time_zone: String,
    pub layout: i32,
    pub rows_lz4: Vec<u8>,
}

macro_rules! day_sums {
    ($t:ident) => {
        (
            $t::sessions,
            $t::buy_in_cents,
            $t::add_ons_cents,
            $t::cash_out_cents,
            $t::rake_cents,
            $t::payouts_cents,
            $t::changes,
        )
    };
}

type KeptTuple = (SeatingId, String, String, i32, Vec<u8>);

/// Each group with sessions of the gaming days `from..=to` (`YYYY-MM-DD`),
/// of one table or every table, in the file's order (gaming day, table),
/// with what is kept of it, handed to `each` as it is read (one walk of the
/// session days by their key; a row is let go before the next is read).
pub fn each_group(
    conn: &mut DbConnection,
    from: &str,
    to: &str,
    table: Option<TableId>,
    mut each: impl FnMut(Group),
) -> QueryResult<()> {
    let mut q = session_days::table
        .left_join(
            session_files::table.on(session_files::gaming_day
                .eq(session_days::gaming_day)
                .and(session_files::table_id.eq(session_days::table_id))),
        )
        .filter(session_days::gaming_day.ge(from.to_string()))
        .filter(session_days::gaming_day.le(to.to_string()))
        .filter(session_days::sessions.gt(0))
        .into_boxed();
    if let Some(t) = table {
        q = q.filter(session_days::table_id.eq(t));
    }
    // Made from the session day as it is now: its changes, sessions and sums.
    let made_from_now = session_files::changes
        .nullable()
        .eq(session_days::changes.nullable())
        .and(session_files::sessions.nullable().eq(session_days::sessions.nullable()))
        .and(session_files::buy_in_cents.nullable().eq(session_days::buy_in_cents.nullable()))
        .and(session_files::add_ons_cents.nullable().eq(session_days::add_ons_cents.nullable()))
        .and(session_files::cash_out_cents.nullable().eq(session_days::cash_out_cents.nullable()))
        .and(session_files::rake_cents.nullable().eq(session_days::rake_cents.nullable()))
        .and(session_files::payouts_cents.nullable().eq(session_days::payouts_cents.nullable()));
    let rows = q
        .order((session_days::gaming_day.asc(), session_days::table_id.asc()))
        .select((
            session_days::gaming_day,
            session_days::table_id,
            day_sums!(session_days),
            made_from_now,
            (
                session_files::newest_seating,
                session_files::table_name,
                session_files::time_zone,
                session_files::layout,
                session_files::rows_lz4,
            )
                .nullable(),
        ))
        .load_iter::<(String, TableId, DaySums, Option<bool>, Option<KeptTuple>), diesel::connection::DefaultLoadingMode>(
            conn,
        )?;
    for row in rows {
        let (gaming_day, table_id, now, same, kept) = row?;
        each(Group {
            gaming_day,
            table_id,
            now,
            kept: kept.map(|(newest_seating, table_name, time_zone, layout, rows_lz4)| KeptRows {
                made_from_now: same == Some(true),
                newest_seating,
                table_name,
                time_zone,
                layout,
                rows_lz4,
            }),
        });
    }
    Ok(())
}

/// A group's session day now (`None`: no sessions were seated on it).
pub fn day_sums(conn: &mut DbConnection, gaming_day: &str, table: TableId) -> QueryResult<Option<DaySums>> {
    session_days::table
        .filter(session_days::gaming_day.eq(gaming_day.to_string()))
        .filter(session_days::table_id.eq(table))
        .select(day_sums!(session_days))
        .first(conn)
        .optional()
}

/// The groups with sessions whose kept rows are missing or not true to
/// their session day, their table's name, the zone `time_zone` or the
/// layout `layout` (each group's day and table, in the file's order),
/// whether or not their sessions have ended.
pub fn not_kept(conn: &mut DbConnection, time_zone: &str, layout: i32) -> QueryResult<Vec<(String, TableId)>> {
    session_days::table
        .inner_join(casino_tables::table)
        .left_join(
            session_files::table.on(session_files::gaming_day
                .eq(session_days::gaming_day)
                .and(session_files::table_id.eq(session_days::table_id))),
        )
        .filter(session_days::sessions.gt(0))
        .filter(
            session_files::table_id
                .nullable()
                .is_null()
                .or(session_files::changes.nullable().ne(session_days::changes.nullable()))
                .or(session_files::sessions.nullable().ne(session_days::sessions.nullable()))
                .or(session_files::layout.nullable().ne(layout))
                .or(session_files::time_zone.nullable().ne(time_zone.to_string()))
                .or(session_files::table_name.nullable().ne(casino_tables::name.nullable())),
        )
        .order((session_days::gaming_day.asc(), session_days::table_id.asc()))
        .select((session_days::gaming_day, session_days::table_id))
        .load(conn)
}

/// A group's rows to keep.
#[derive(Clone, Debug)]
pub struct NewKept {
    pub gaming_day: String,
    pub table_id: TableId,
    pub kept: Kept,
    pub built_at: NaiveDateTime,
}

/// Keeps groups (a group kept before is replaced), in one statement.
pub fn put(conn: &mut DbConnection, groups: &[NewKept]) -> QueryResult<usize> {
    if groups.is_empty() {
        return Ok(0);
    }
    let values: Vec<_> = groups
        .iter()
        .map(|g| {
            let m = &g.kept.made_from;
            (
                (
                    session_files::gaming_day.eq(g.gaming_day.as_str()),
                    session_files::table_id.eq(g.table_id),
                    session_files::changes.eq(m.changes),
                    session_files::sessions.eq(m.sessions),
                    session_files::buy_in_cents.eq(m.buy_in),
                    session_files::add_ons_cents.eq(m.add_ons),
                    session_files::cash_out_cents.eq(m.cash_out),
                    session_files::rake_cents.eq(m.rake),
                ),
                (
                    session_files::payouts_cents.eq(m.payouts),
                    session_files::newest_seating.eq(g.kept.newest_seating),
                    session_files::table_name.eq(g.kept.table_name.as_str()),
                    session_files::time_zone.eq(g.kept.time_zone.as_str()),
                    session_files::layout.eq(g.kept.layout),
                    session_files::built_at.eq(g.built_at),
                    session_files::rows_lz4.eq(g.kept.rows_lz4.as_slice()),
                ),
            )
        })
        .collect();
    let set = (
        (
            session_files::changes.eq(excluded(session_files::changes)),
            session_files::sessions.eq(excluded(session_files::sessions)),
            session_files::buy_in_cents.eq(excluded(session_files::buy_in_cents)),
            session_files::add_ons_cents.eq(excluded(session_files::add_ons_cents)),
            session_files::cash_out_cents.eq(excluded(session_files::cash_out_cents)),
            session_files::rake_cents.eq(excluded(session_files::rake_cents)),
            session_files::payouts_cents.eq(excluded(session_files::payouts_cents)),
        ),
        (
            session_files::newest_seating.eq(excluded(session_files::newest_seating)),
            session_files::table_name.eq(excluded(session_files::table_name)),
            session_files::time_zone.eq(excluded(session_files::time_zone)),
            session_files::layout.eq(excluded(session_files::layout)),
            session_files::built_at.eq(excluded(session_files::built_at)),
            session_files::rows_lz4.eq(excluded(session_files::rows_lz4)),
        ),
    );
    crate::on_backend!(conn, |c| diesel::insert_into(session_files::table)
        .values(&values)
        .on_conflict((session_files::gaming_day, session_files::table_id))
        .do_update()
        .set(set)
        .execute(c))
}

/// Groups kept now.
pub fn count(conn: &mut DbConnection) -> QueryResult<i64> {
    session_files::table.count().get_result(conn)
}

/// Lets go of every kept group (the rollups they were made from are made
/// again: their counts of changes start again).
pub fn clear(conn: &mut DbConnection) -> QueryResult<usize> {
    diesel::delete(session_files::table).execute(conn)
}
