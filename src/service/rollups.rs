//! The daily rollups as the use cases keep them (`db::rollups` has what each
//! sums): a pool's gaming day, on the pool's clock.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::rollups::{self as q, clock, day, PoolDay};
use crate::db::schema::pools;
use crate::db::DbConnection;
use crate::domain::clock::Clock;
use crate::domain::{AppError, PoolId};

/// A pool's clock: the time zone and start of day it was made with.
pub fn pool_clock(conn: &mut DbConnection, pool: PoolId) -> Result<Clock, AppError> {
    let (tz, cutoff): (String, String) =
        pools::table.find(pool).select((pools::time_zone, pools::gaming_day_cutoff)).first(conn)?;
    clock(&tz, &cutoff)
}

/// Adds to a pool's day (the day of `at` on the pool's clock).
pub fn add_pool_day(conn: &mut DbConnection, pool: PoolId, at: NaiveDateTime, d: PoolDay) -> Result<(), AppError> {
    let c = pool_clock(conn, pool)?;
    Ok(q::add_pool_day(conn, pool, &day(c, at), d)?)
}
