//! The gaming-day close: drop counts, the day's two sign-offs and the voids
//! of a closed day's hands booked into an open day. Plain queries; every
//! table here is append-only (the database refuses UPDATE and DELETE).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{casino_tables, day_corrections, drop_counts, gaming_day_signoffs, hands, users};
use super::{now, DbConnection};
use crate::domain::{HandId, HandNumber, Money, TableId, UserId};

/// A table as the day's pages list it, with its clock.
#[derive(Clone, Debug, Queryable)]
pub struct TableClock {
    pub id: TableId,
    pub name: String,
    pub time_zone: String,
    pub gaming_day_cutoff: String,
    pub created_at: NaiveDateTime,
}

pub fn tables(conn: &mut DbConnection) -> QueryResult<Vec<TableClock>> {
    casino_tables::table
        .order(casino_tables::id.asc())
        .select((
            casino_tables::id,
            casino_tables::name,
            casino_tables::time_zone,
            casino_tables::gaming_day_cutoff,
            casino_tables::created_at,
        ))
        .load(conn)
}

/// One count as entered, with who entered it.
#[derive(Clone, Debug, Queryable)]
pub struct CountRow {
    pub id: i64,
    pub gaming_day: String,
    pub table_id: TableId,
    pub rake_drop: Money,
    pub jackpot_drop: Option<Money>,
    pub note: String,
    pub counted_by: String,
    pub created_at: NaiveDateTime,
}

/// Every count of the days `from` to `to` (inclusive), oldest first.
pub fn counts(conn: &mut DbConnection, from: &str, to: &str) -> QueryResult<Vec<CountRow>> {
    drop_counts::table
        .inner_join(users::table.on(users::id.eq(drop_counts::counted_by)))
        .filter(drop_counts::gaming_day.ge(from.to_string()))
        .filter(drop_counts::gaming_day.le(to.to_string()))
        .order(drop_counts::id.asc())
        .select((
            drop_counts::id,
            drop_counts::gaming_day,
            drop_counts::table_id,
            drop_counts::rake_drop_cents,
            drop_counts::jackpot_drop_cents,
            drop_counts::note,
            users::username,
            drop_counts::created_at,
        ))
        .load(conn)
}

pub struct NewCount<'a> {
    pub day: &'a str,
    pub table: TableId,
    pub rake_drop: Money,
    pub jackpot_drop: Option<Money>,
    pub note: &'a str,
    pub by: UserId,
}

pub fn insert_count(conn: &mut DbConnection, c: NewCount) -> QueryResult<()> {
    diesel::insert_into(drop_counts::table)
        .values((
            drop_counts::gaming_day.eq(c.day),
            drop_counts::table_id.eq(c.table),
            drop_counts::rake_drop_cents.eq(c.rake_drop),
            drop_counts::jackpot_drop_cents.eq(c.jackpot_drop),
            drop_counts::note.eq(c.note),
            drop_counts::counted_by.eq(c.by),
            drop_counts::created_at.eq(now()),
        ))
        .execute(conn)
        .map(|_| ())
}

/// A sign-off of a day: `count` (the count team) or `accountant` (closes it).
#[derive(Clone, Debug, Queryable)]
pub struct SignoffRow {
    pub gaming_day: String,
    pub action: String,
    pub user_id: UserId,
    pub username: String,
    pub display_name: String,
    pub note: String,
    pub created_at: NaiveDateTime,
}

/// The sign-offs of the days `from` to `to` (inclusive), oldest first.
pub fn signoffs(conn: &mut DbConnection, from: &str, to: &str) -> QueryResult<Vec<SignoffRow>> {
    gaming_day_signoffs::table
        .inner_join(users::table.on(users::id.eq(gaming_day_signoffs::user_id)))
        .filter(gaming_day_signoffs::gaming_day.ge(from.to_string()))
        .filter(gaming_day_signoffs::gaming_day.le(to.to_string()))
        .order(gaming_day_signoffs::id.asc())
        .select((
            gaming_day_signoffs::gaming_day,
            gaming_day_signoffs::action,
            gaming_day_signoffs::user_id,
            users::username,
            users::display_name,
            gaming_day_signoffs::note,
            gaming_day_signoffs::created_at,
        ))
        .load(conn)
}

pub fn insert_signoff(conn: &mut DbConnection, day: &str, action: &str, by: UserId, note: &str) -> QueryResult<()> {
    diesel::insert_into(gaming_day_signoffs::table)
        .values((
            gaming_day_signoffs::gaming_day.eq(day),
            gaming_day_signoffs::action.eq(action),
            gaming_day_signoffs::user_id.eq(by),
            gaming_day_signoffs::note.eq(note),
            gaming_day_signoffs::created_at.eq(now()),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Whether `day` is closed (the accountant has signed it off).
pub fn is_closed(conn: &mut DbConnection, day: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        gaming_day_signoffs::table
            .filter(gaming_day_signoffs::gaming_day.eq(day.to_string()))
            .filter(gaming_day_signoffs::action.eq("accountant")),
    ))
    .get_result(conn)
}

/// Every closed day from `from` to `to` (inclusive).
pub fn closed_days(conn: &mut DbConnection, from: &str, to: &str) -> QueryResult<Vec<String>> {
    gaming_day_signoffs::table
        .filter(gaming_day_signoffs::action.eq("accountant"))
        .filter(gaming_day_signoffs::gaming_day.ge(from.to_string()))
        .filter(gaming_day_signoffs::gaming_day.le(to.to_string()))
        .order(gaming_day_signoffs::gaming_day.asc())
        .select(gaming_day_signoffs::gaming_day)
        .load(conn)
}

/// Every day with a count or a sign-off (for the list of days).
pub fn days_with_counts_or_signoffs(conn: &mut DbConnection) -> QueryResult<Vec<String>> {
    let mut days: Vec<String> = drop_counts::table.select(drop_counts::gaming_day).distinct().load(conn)?;
    days.extend(gaming_day_signoffs::table.select(gaming_day_signoffs::gaming_day).distinct().load::<String>(conn)?);
    days.sort();
    days.dedup();
    Ok(days)
}

pub fn insert_correction(
    conn: &mut DbConnection,
    hand: HandId,
    table: TableId,
    closed_day: &str,
    booked_day: &str,
) -> QueryResult<()> {
    diesel::insert_into(day_corrections::table)
        .values((
            day_corrections::hand_id.eq(hand),
            day_corrections::table_id.eq(table),
            day_corrections::closed_day.eq(closed_day),
            day_corrections::booked_day.eq(booked_day),
            day_corrections::created_at.eq(now()),
        ))
        .execute(conn)
        .map(|_| ())
}

/// A void of a closed day's hand, booked into an open day.
#[derive(Clone, Debug, Queryable)]
pub struct CorrectionRow {
    pub hand_id: HandId,
    pub table_id: TableId,
    pub number: HandNumber,
    pub closed_day: String,
    pub booked_day: String,
    pub created_at: NaiveDateTime,
}

fn correction_columns() -> (
    day_corrections::hand_id,
    day_corrections::table_id,
    hands::number,
    day_corrections::closed_day,
    day_corrections::booked_day,
    day_corrections::created_at,
) {
    (
        day_corrections::hand_id,
        day_corrections::table_id,
        hands::number,
        day_corrections::closed_day,
        day_corrections::booked_day,
        day_corrections::created_at,
    )
}

/// The corrections booked into `day` or naming it as their closed day.
pub fn corrections_of(conn: &mut DbConnection, day: &str) -> QueryResult<Vec<CorrectionRow>> {
    day_corrections::table
        .inner_join(hands::table.on(hands::id.eq(day_corrections::hand_id)))
        .filter(day_corrections::booked_day.eq(day.to_string()).or(day_corrections::closed_day.eq(day.to_string())))
        .order(day_corrections::id.asc())
        .select(correction_columns())
        .load(conn)
}

/// Every correction (for recomputing the rollups).
pub fn all_corrections(conn: &mut DbConnection) -> QueryResult<Vec<CorrectionRow>> {
    day_corrections::table
        .inner_join(hands::table.on(hands::id.eq(day_corrections::hand_id)))
        .order(day_corrections::id.asc())
        .select(correction_columns())
        .load(conn)
}

/// The open hands (not committed, not voided) with their tables and start
/// times.
pub fn open_hands(conn: &mut DbConnection) -> QueryResult<Vec<(TableId, HandNumber, NaiveDateTime)>> {
    use super::schema::{hand_voids, showdowns};
    hands::table
        .left_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(showdowns::hand_id.is_null())
        .filter(hand_voids::id.is_null())
        .select((hands::table_id, hands::number, hands::started_at))
        .load(conn)
}
