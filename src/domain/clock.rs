//! Gaming days: how a table or a pool counts its days (a time zone and a
//! cutoff), a pure computation the rollups and the reports share.

use chrono::{Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use chrono_tz::Tz;

/// The gaming day of an instant: the local date of (local time − cutoff). A
/// table with cutoff 06:00 books 05:59 local time to the day before.
pub fn gaming_day(utc: NaiveDateTime, tz: Tz, cutoff: NaiveTime) -> NaiveDate {
    let local = tz.from_utc_datetime(&utc).naive_local();
    (local - cutoff.signed_duration_since(NaiveTime::MIN)).date()
}

/// A time zone and a cutoff: how a table (or a pool) counts gaming days.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub tz: Tz,
    pub cutoff: NaiveTime,
}

impl Clock {
    pub fn day(&self, utc: NaiveDateTime) -> NaiveDate {
        gaming_day(utc, self.tz, self.cutoff)
    }

    /// The UTC instant a gaming day starts (for chart axes; around a DST
    /// change the earliest reading of the local time).
    pub fn day_start(&self, day: NaiveDate) -> NaiveDateTime {
        let local = day.and_time(self.cutoff);
        match self.tz.from_local_datetime(&local).earliest() {
            Some(t) => t.naive_utc(),
            // The cutoff falls in a DST gap: an hour later exists.
            None => {
                self.tz.from_local_datetime(&(local + Duration::hours(1))).earliest().map_or(local, |t| t.naive_utc())
            }
        }
    }
}
