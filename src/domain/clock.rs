//! Gaming days: how a table or a pool counts its days (a time zone and a
//! cutoff), a pure computation the rollups and the reports share.

use chrono::{Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use chrono_tz::Tz;

use super::AppError;

/// The years a date given at the edge may name. chrono reads `%Y` as any
/// signed year it can hold (`+262142-12-31`), and a day or two added to its
/// last date panics; such a year is no gaming day and would not sort as text.
pub const YEARS: std::ops::RangeInclusive<i32> = 1900..=9999;

/// A date as people and clients give it: exactly `YYYY-MM-DD` (surrounding
/// spaces aside), a real day, a year in [`YEARS`]; `None` otherwise.
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    use chrono::Datelike;
    let text = text.trim();
    let shaped = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
    if !shaped {
        return None;
    }
    let day = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    YEARS.contains(&day.year()).then_some(day)
}

/// A gaming day given in `field` ([`parse_date`]), or `bad_date` naming the
/// field and, in its message, `label` and the text.
pub fn parse_day(text: &str, field: &str, label: &str) -> Result<NaiveDate, AppError> {
    parse_date(text).ok_or_else(|| {
        let (first, last) = (YEARS.start(), YEARS.end());
        AppError::invalid("bad_date", format!("{label} {text:?} is not a date YYYY-MM-DD (years {first} to {last})"))
            .at_field(field)
    })
}

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

#[cfg(test)]
mod tests {
    use super::parse_date;
    use chrono::NaiveDate;

    #[test]
    fn a_date_is_four_two_and_two_digits_in_the_years_given() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d);
        assert_eq!(parse_date("2026-11-29"), day(2026, 11, 29));
        assert_eq!(parse_date(" 1900-01-01 "), day(1900, 1, 1));
        assert_eq!(parse_date("9999-12-31"), day(9999, 12, 31));
        for text in [
            "1899-12-31",
            "0999-12-31",
            "10000-01-01",
            "+262142-12-31",
            "-262143-01-01",
            "+2026-11-29",
            "2026-1-05",
            "2026-11-5",
            "2026/11/29",
            "2026-02-30",
            "２０２６-11-29",
            "",
        ] {
            assert_eq!(parse_date(text), None, "{text:?}");
        }
    }
}
