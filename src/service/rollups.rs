//! The daily rollups as the use cases keep them (`db::rollups` has what each
//! sums): a pool's gaming day, on the pool's clock.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::rollups::{self as q, clock, day, PoolDay};
use crate::db::schema::casino_tables;
use crate::db::DbConnection;
use crate::domain::clock::Clock;
use crate::domain::{AppError, PoolId};

/// A pool's clock for a row written at `at`: the first table (lowest id)
/// feeding it that was made in an earlier second, or UTC midnight. Times
/// are kept to the second, so "earlier second" is what a recomputation from
/// the stored rows can tell apart (`db::rollups::recompute` applies the same
/// rule): a pool's rows from before its first table count on UTC days.
pub fn pool_clock(conn: &mut DbConnection, pool: PoolId, at: NaiveDateTime) -> Result<Clock, AppError> {
    let first: Option<(String, String)> = casino_tables::table
        .filter(casino_tables::pool_id.eq(pool))
        .filter(casino_tables::created_at.lt(at))
        .order(casino_tables::id.asc())
        .select((casino_tables::time_zone, casino_tables::gaming_day_cutoff))
        .first(conn)
        .optional()?;
    match first {
        Some((tz, cutoff)) => clock(&tz, &cutoff),
        None => Ok(Clock::UTC_MIDNIGHT),
    }
}

/// Adds to a pool's day (the day of `at` on the pool's clock).
pub fn add_pool_day(conn: &mut DbConnection, pool: PoolId, at: NaiveDateTime, d: PoolDay) -> Result<(), AppError> {
    let c = pool_clock(conn, pool, at)?;
    Ok(q::add_pool_day(conn, pool, &day(c, at), d)?)
}
