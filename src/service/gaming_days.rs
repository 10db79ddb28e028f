//! The gaming-day close (issue 16): the count team enters what each table's
//! drop boxes held; pitboss shows it beside what the ledger says was
//! collected, with the variance; the count team signs the day off and an
//! accountant, a different person, closes it. A closed day is locked: its
//! counts and its tables' figures change no more (the database refuses a
//! change to a closed day's rollups), and a void of one of its hands is
//! booked into the table's open day with a reference to the closed one
//! (`hands::void`, `day_corrections`).
//!
//! The readings, in the users' words in docs/guide.md:
//! - a gaming day is a date, the same for every table, each table counting
//!   it on its own clock (time zone and cutoff);
//! - expected in the rake drop box: the rake the ledger collected, less the
//!   jackpot part when the jackpot drop is counted apart; variance = counted
//!   − expected (negative: short);
//! - a table with figures that day (a rollup row) needs a count before the
//!   day can be signed off; tables without play need none (a count of one is
//!   taken and shown);
//! - a day is closed no earlier than it started at every table, with no hand
//!   in progress that would count on it.

use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};

use super::audit;
use crate::db::gaming_days::{self as q, CountRow, NewCount, SignoffRow, TableClock};
use crate::db::rollups::{self, clock};
use crate::db::{now, Database, DbConnection};
use crate::domain::{Actor, AppError, Money, Role, TableId, User};

/// Who reads the days: the count team, accountants, the floor, admins.
pub const READERS: &[Role] = &[Role::Count, Role::Accountant, Role::Floor, Role::Admin];
/// Who enters counts: the count team.
pub const COUNTERS: &[Role] = &[Role::Count];

/// The two sign-offs, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Signoff {
    /// The count team: the counts are complete.
    Count,
    /// An accountant, another person: the day is closed.
    Accountant,
}

impl Signoff {
    pub fn name(self) -> &'static str {
        match self {
            Signoff::Count => "count",
            Signoff::Accountant => "accountant",
        }
    }

    pub fn parse(text: &str) -> Option<Signoff> {
        match text {
            "count" => Some(Signoff::Count),
            "accountant" => Some(Signoff::Accountant),
            _ => None,
        }
    }

    /// Who may sign it.
    pub fn roles(self) -> &'static [Role] {
        match self {
            Signoff::Count => &[Role::Count],
            Signoff::Accountant => &[Role::Accountant],
        }
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CountRequest {
    pub table_id: i64,
    /// What the rake drop box held (a decimal string, zero or more).
    pub rake_drop: String,
    /// What the jackpot drop box held, where it is kept apart.
    #[serde(default)]
    pub jackpot_drop: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignoffRequest {
    /// `count` (the count team, first) or `accountant` (second: closes the day).
    pub signoff: Signoff,
    #[serde(default)]
    pub note: Option<String>,
}

/// One table on one gaming day: the ledger's figures, the count, the variances.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct DayTableView {
    pub table_id: i64,
    pub table: String,
    /// Hands committed that day and not voided.
    pub hands: i64,
    /// Rake the ledger collected (net of voids), the jackpot part included.
    pub rake: Money,
    /// The jackpot part of it.
    pub jackpot: Money,
    /// What the rake drop box should hold: the rake, less the jackpot part
    /// when the jackpot drop was counted apart.
    pub expected_rake_drop: Money,
    pub rake_drop: Option<Money>,
    pub jackpot_drop: Option<Money>,
    /// Counted − expected (negative: short).
    pub rake_variance: Option<Money>,
    pub jackpot_variance: Option<Money>,
    /// The table had figures that day: the day is signed off only with its count.
    pub needs_count: bool,
    pub counted_by: Option<String>,
    pub counted_at: Option<NaiveDateTime>,
    pub note: Option<String>,
    /// How many counts were entered (the latest one counts).
    pub counts: usize,
}

#[derive(Clone, Debug, Default, Serialize, utoipa::ToSchema)]
pub struct DayTotals {
    pub hands: i64,
    pub rake: Money,
    pub jackpot: Money,
    pub expected_rake_drop: Money,
    pub rake_drop: Money,
    pub jackpot_drop: Money,
    /// The sum of the tables' variances (tables without a count leave it).
    pub rake_variance: Money,
    pub jackpot_variance: Money,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SignoffView {
    pub signoff: String,
    pub username: String,
    pub display_name: String,
    pub note: String,
    pub at: NaiveDateTime,
}

/// A void of a closed day's hand, booked into an open day.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct CorrectionView {
    pub table_id: i64,
    pub hand: i32,
    pub closed_day: String,
    pub booked_day: String,
    pub at: NaiveDateTime,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct GamingDayView {
    pub gaming_day: NaiveDate,
    /// `open`, `counted` (the count team signed) or `closed`.
    pub status: String,
    pub closed: bool,
    pub tables: Vec<DayTableView>,
    pub totals: DayTotals,
    pub signoffs: Vec<SignoffView>,
    /// Voids of closed days' hands booked into this day, and of this day's
    /// hands booked into a later one.
    pub corrections: Vec<CorrectionView>,
    /// What still keeps the day from being signed off, in words (empty: nothing).
    pub waiting_for: Vec<String>,
}

/// A day in the list of days.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct DaySummary {
    pub gaming_day: NaiveDate,
    pub status: String,
    pub hands: i64,
    pub rake: Money,
    pub jackpot: Money,
    pub rake_drop: Money,
    pub jackpot_drop: Money,
    pub rake_variance: Money,
    pub jackpot_variance: Money,
    /// Tables with figures but no count yet.
    pub uncounted: usize,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct DaysView {
    /// The latest gaming day any table is in.
    pub today: NaiveDate,
    pub days: Vec<DaySummary>,
}

/// A gaming day as typed in a path or form: `YYYY-MM-DD`.
pub fn parse_day(text: &str) -> Result<NaiveDate, AppError> {
    crate::domain::clock::parse_day(text, "date", "the gaming day")
}

fn text_day(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// Each table's current gaming day.
fn todays(tables: &[TableClock], at: NaiveDateTime) -> Result<Vec<(TableId, NaiveDate)>, AppError> {
    tables.iter().map(|t| Ok((t.id, clock(&t.time_zone, &t.gaming_day_cutoff)?.day(at)))).collect()
}

/// The day after the latest day every table has started: a later day is in the future.
fn refuse_future(day: NaiveDate, todays: &[(TableId, NaiveDate)], names: &[TableClock]) -> Result<(), AppError> {
    let utc_today = now().date();
    let behind = todays.iter().filter(|(_, t)| *t < day).map(|(id, _)| *id).collect::<Vec<_>>();
    if (todays.is_empty() && day > utc_today) || !behind.is_empty() {
        let which: Vec<String> =
            names.iter().filter(|t| behind.contains(&t.id)).map(|t| t.name.clone()).collect::<Vec<_>>();
        return Err(AppError::conflict(
            "day_in_future",
            if which.is_empty() {
                format!("gaming day {day} has not started yet")
            } else {
                format!("gaming day {day} has not started yet at {}", which.join(", "))
            },
        ));
    }
    Ok(())
}

fn status_of(signoffs: &[&SignoffRow]) -> &'static str {
    if signoffs.iter().any(|s| s.action == "accountant") {
        "closed"
    } else if signoffs.iter().any(|s| s.action == "count") {
        "counted"
    } else {
        "open"
    }
}

/// The tables of a day from its rollups and counts.
fn day_tables(
    tables: &[TableClock],
    figures: &[rollups::TableDayRow],
    counts: &[&CountRow],
) -> (Vec<DayTableView>, DayTotals) {
    let mut out = Vec::new();
    let mut totals = DayTotals::default();
    for t in tables {
        let fig = figures.iter().find(|f| f.table_id == t.id);
        let mine: Vec<&&CountRow> = counts.iter().filter(|c| c.table_id == t.id).collect();
        let latest = mine.last();
        let has_figures = fig.is_some_and(|f| f.hands != 0 || !f.rake.is_zero() || !f.jackpot.is_zero());
        if !has_figures && latest.is_none() {
            continue;
        }
        let (hands, rake, jackpot) = fig.map_or((0, Money::ZERO, Money::ZERO), |f| (f.hands, f.rake, f.jackpot));
        let apart = latest.is_some_and(|c| c.jackpot_drop.is_some());
        let expected = if apart { rake - jackpot } else { rake };
        let rake_drop = latest.map(|c| c.rake_drop);
        let jackpot_drop = latest.and_then(|c| c.jackpot_drop);
        let row = DayTableView {
            table_id: t.id.get(),
            table: t.name.clone(),
            hands,
            rake,
            jackpot,
            expected_rake_drop: expected,
            rake_drop,
            jackpot_drop,
            rake_variance: rake_drop.map(|d| d - expected),
            jackpot_variance: jackpot_drop.map(|d| d - jackpot),
            needs_count: has_figures,
            counted_by: latest.map(|c| c.counted_by.clone()),
            counted_at: latest.map(|c| c.created_at),
            note: latest.map(|c| c.note.clone()).filter(|n| !n.is_empty()),
            counts: mine.len(),
        };
        totals.hands += row.hands;
        totals.rake += row.rake;
        totals.jackpot += row.jackpot;
        totals.expected_rake_drop += row.expected_rake_drop;
        totals.rake_drop += row.rake_drop.unwrap_or_default();
        totals.jackpot_drop += row.jackpot_drop.unwrap_or_default();
        totals.rake_variance += row.rake_variance.unwrap_or_default();
        totals.jackpot_variance += row.jackpot_variance.unwrap_or_default();
        out.push(row);
    }
    (out, totals)
}

/// One gaming day: per table the ledger's figures, the count and the
/// variances; its status and sign-offs.
pub fn get_day(conn: &mut DbConnection, day: NaiveDate) -> Result<GamingDayView, AppError> {
    let d = text_day(day);
    let tables = q::tables(conn)?;
    let figures = rollups::table_days(conn, None, &d, &d)?;
    let counts = q::counts(conn, &d, &d)?;
    let signoffs = q::signoffs(conn, &d, &d)?;
    let corrections = q::corrections_of(conn, &d)?;
    let refs: Vec<&CountRow> = counts.iter().collect();
    let (rows, totals) = day_tables(&tables, &figures, &refs);
    let signed: Vec<&SignoffRow> = signoffs.iter().collect();
    let status = status_of(&signed);
    let mut waiting_for = Vec::new();
    if status != "closed" {
        let uncounted: Vec<&str> =
            rows.iter().filter(|r| r.needs_count && r.rake_drop.is_none()).map(|r| r.table.as_str()).collect();
        if !uncounted.is_empty() {
            waiting_for.push(format!("a count of {}", uncounted.join(", ")));
        }
        let todays = todays(&tables, now())?;
        for (table, number, started) in q::open_hands(conn)? {
            if let Some(t) = tables.iter().find(|t| t.id == table) {
                if counts_on(t, &todays, started)?.contains(&day) {
                    waiting_for.push(format!("hand {number} at {} to be committed or voided", t.name));
                }
            }
        }
    }
    Ok(GamingDayView {
        gaming_day: day,
        status: status.to_string(),
        closed: status == "closed",
        tables: rows,
        totals,
        signoffs: signoffs
            .into_iter()
            .map(|s| SignoffView {
                signoff: s.action,
                username: s.username,
                display_name: s.display_name,
                note: s.note,
                at: s.created_at,
            })
            .collect(),
        corrections: corrections
            .into_iter()
            .map(|c| CorrectionView {
                table_id: c.table_id.get(),
                hand: c.number.0,
                closed_day: c.closed_day,
                booked_day: c.booked_day,
                at: c.created_at,
            })
            .collect(),
        waiting_for,
    })
}

/// The days an open hand could count on: the day it started and the table's
/// current day (it counts on the day it is committed).
fn counts_on(
    t: &TableClock,
    todays: &[(TableId, NaiveDate)],
    started: NaiveDateTime,
) -> Result<Vec<NaiveDate>, AppError> {
    let c = clock(&t.time_zone, &t.gaming_day_cutoff)?;
    let mut days = vec![c.day(started)];
    if let Some((_, today)) = todays.iter().find(|(id, _)| *id == t.id) {
        days.push(*today);
    }
    Ok(days)
}

/// The days `from` to `to` (newest first), each with its status, totals and
/// variances. Without a range: the last 14 days up to today.
pub fn list_days(
    conn: &mut DbConnection,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<DaysView, AppError> {
    let tables = q::tables(conn)?;
    let todays = todays(&tables, now())?;
    let today = todays.iter().map(|t| t.1).max().unwrap_or_else(|| now().date());
    let to = to.unwrap_or(today);
    let from = from.unwrap_or(to - chrono::Duration::days(13));
    if from > to {
        return Err(AppError::invalid("bad_range", format!("from {from} is after to {to}")).at_field("from"));
    }
    if (to - from).num_days() >= 366 {
        return Err(AppError::invalid("range_too_long", "at most 366 gaming days at once").at_field("from"));
    }
    let (f, t) = (text_day(from), text_day(to));
    let figures = rollups::table_days(conn, None, &f, &t)?;
    let counts = q::counts(conn, &f, &t)?;
    let signoffs = q::signoffs(conn, &f, &t)?;
    let mut days = Vec::new();
    let mut day = to;
    while day >= from {
        let d = text_day(day);
        let figs: Vec<rollups::TableDayRow> = figures.iter().filter(|r| r.gaming_day == d).cloned().collect();
        let cs: Vec<&CountRow> = counts.iter().filter(|c| c.gaming_day == d).collect();
        let ss: Vec<&SignoffRow> = signoffs.iter().filter(|s| s.gaming_day == d).collect();
        let (rows, totals) = day_tables(&tables, &figs, &cs);
        days.push(DaySummary {
            gaming_day: day,
            status: status_of(&ss).to_string(),
            hands: totals.hands,
            rake: totals.rake,
            jackpot: totals.jackpot,
            rake_drop: totals.rake_drop,
            jackpot_drop: totals.jackpot_drop,
            rake_variance: totals.rake_variance,
            jackpot_variance: totals.jackpot_variance,
            uncounted: rows.iter().filter(|r| r.needs_count && r.rake_drop.is_none()).count(),
        });
        day -= chrono::Duration::days(1);
    }
    Ok(DaysView { today, days })
}

fn note_of(note: Option<String>) -> Result<String, AppError> {
    let note = note.unwrap_or_default().trim().to_string();
    super::check_text(&note, "note")?;
    if note.chars().count() > 500 {
        return Err(AppError::invalid("note_too_long", "the note is at most 500 characters").at_field("note"));
    }
    Ok(note)
}

/// Enters what a table's drop boxes held on `day` (the count team). A new
/// count of the same table replaces the earlier one for reading; both rows
/// stay. Refused once the count team has signed the day off.
pub fn count(db: &Database, actor: &Actor, day: NaiveDate, req: CountRequest) -> Result<GamingDayView, AppError> {
    let rake_drop = Money::parse(req.rake_drop.trim(), "rake_drop")?;
    let jackpot_drop = match req.jackpot_drop.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => Some(Money::parse(t, "jackpot_drop")?),
        None => None,
    };
    let note = note_of(req.note)?;
    let table = TableId(req.table_id);
    let by = actor.user_id.ok_or_else(|| AppError::forbidden("role_required", "a count is entered by a person"))?;
    let actor = actor.clone();
    let d = text_day(day);
    db.write(None, move |conn| {
        let tables = q::tables(conn)?;
        let Some(t) = tables.iter().find(|t| t.id == table) else {
            return Err(AppError::not_found("no_table", format!("no table {table}")).at_field("table_id"));
        };
        let today = clock(&t.time_zone, &t.gaming_day_cutoff)?.day(now());
        if day > today {
            return Err(AppError::conflict(
                "day_in_future",
                format!("gaming day {day} has not started yet at {}", t.name),
            ));
        }
        let signoffs = q::signoffs(conn, &d, &d)?;
        if signoffs.iter().any(|s| s.action == "accountant") {
            return Err(closed(day));
        }
        if let Some(s) = signoffs.iter().find(|s| s.action == "count") {
            return Err(AppError::conflict(
                "count_signed_off",
                format!(
                    "the count of gaming day {day} was signed off by {}; counting again is refused",
                    s.display_name
                ),
            ));
        }
        q::insert_count(conn, NewCount { day: &d, table, rake_drop, jackpot_drop, note: &note, by })?;
        audit::record(
            conn,
            &actor,
            "drop_count",
            &format!("gaming day {d} table {table}"),
            serde_json::json!({"rake_drop": rake_drop, "jackpot_drop": jackpot_drop, "note": note}),
        )?;
        get_day(conn, day)
    })
}

/// Sign-offs are a person's, signed in with their password: never an API
/// token's (an admin could mint one for someone else).
pub fn needs_person(actor: &Actor) -> Result<(), AppError> {
    match actor.token_id {
        Some(token) => Err(AppError::forbidden(
            "signoff_needs_person",
            format!(
                "a gaming day is signed off by a person signed in with their password, not with an API token (this \
                 request came with token {token})"
            ),
        )),
        None => Ok(()),
    }
}

fn closed(day: NaiveDate) -> AppError {
    AppError::conflict(
        "day_closed",
        format!("gaming day {day} is closed; a correction goes into the open day with a reference to it"),
    )
}

/// Signs a day off: first the count team, then an accountant, another
/// person, which closes it. A person signed in with their password, never
/// an API token.
pub fn sign_off(
    db: &Database,
    user: &User,
    actor: &Actor,
    day: NaiveDate,
    req: SignoffRequest,
) -> Result<GamingDayView, AppError> {
    needs_person(actor)?;
    let signoff = req.signoff;
    user.require(signoff.roles())?;
    let note = note_of(req.note)?;
    let user_id = user.id;
    let actor = actor.clone();
    let d = text_day(day);
    db.write(None, move |conn| {
        let tables = q::tables(conn)?;
        let todays = todays(&tables, now())?;
        refuse_future(day, &todays, &tables)?;
        let signoffs = q::signoffs(conn, &d, &d)?;
        if signoffs.iter().any(|s| s.action == "accountant") {
            return Err(closed(day));
        }
        let counted = signoffs.iter().find(|s| s.action == "count");
        match (signoff, counted) {
            (Signoff::Count, Some(s)) => {
                return Err(AppError::conflict(
                    "already_signed_off",
                    format!("the count of gaming day {day} was already signed off by {}", s.display_name),
                ))
            }
            (Signoff::Accountant, None) => {
                return Err(AppError::conflict(
                    "count_not_signed_off",
                    format!("the count team signs gaming day {day} off first"),
                ))
            }
            (Signoff::Accountant, Some(s)) if s.user_id == user_id => {
                return Err(AppError::forbidden(
                    "second_person_required",
                    format!(
                        "{} signed the count off; a second, different person closes gaming day {day}",
                        s.display_name
                    ),
                ))
            }
            (Signoff::Accountant, Some(s)) => {
                // Two people with passwords of their own (as for jackpot hits).
                let setters = crate::db::users::password_setters(conn, &[s.user_id, user_id])?;
                let set_by = |id| setters.iter().find(|(u, _)| *u == id).and_then(|(_, by)| *by);
                if set_by(s.user_id) == Some(user_id) || set_by(user_id) == Some(s.user_id) {
                    return Err(AppError::forbidden(
                        "second_person_required",
                        format!(
                            "{} signed the count off, and one of you set the other's current password; a second \
                             person with a password of their own closes the day",
                            s.display_name
                        ),
                    ));
                }
            }
            (Signoff::Count, None) => {}
        }
        let view = get_day(conn, day)?;
        if !view.waiting_for.is_empty() {
            return Err(AppError::conflict(
                "day_not_ready",
                format!("gaming day {day} cannot be signed off yet: waiting for {}", view.waiting_for.join("; ")),
            ));
        }
        q::insert_signoff(conn, &d, signoff.name(), user_id, &note)?;
        audit::record(
            conn,
            &actor,
            if signoff == Signoff::Accountant { "gaming_day_close" } else { "gaming_day_count_signoff" },
            &format!("gaming day {d}"),
            serde_json::json!({"signoff": signoff.name(), "note": note, "rake": view.totals.rake,
                               "rake_drop": view.totals.rake_drop, "rake_variance": view.totals.rake_variance}),
        )?;
        get_day(conn, day)
    })
}

/// For a void: whether the hand's gaming day `commit_day` is closed, and if
/// so the open day its correction goes into: the table's current gaming day
/// (`today`), or when that is closed too (a day closed before it ended), the
/// first gaming day after it that is not closed. Recorded with a reference
/// to the closed day.
pub fn booking_day_for_void(
    conn: &mut DbConnection,
    hand: crate::domain::HandId,
    table: TableId,
    commit_day: &str,
    today: &str,
) -> Result<Option<String>, AppError> {
    if !q::is_closed(conn, commit_day)? {
        return Ok(None);
    }
    let parse = |d: &str| NaiveDate::parse_from_str(d, "%Y-%m-%d").map_err(AppError::internal);
    let mut open = parse(today)?.max(parse(commit_day)? + chrono::Duration::days(1));
    while q::is_closed(conn, &text_day(open))? {
        open += chrono::Duration::days(1);
    }
    let open = text_day(open);
    q::insert_correction(conn, hand, table, commit_day, &open)?;
    Ok(Some(open))
}

/// Whether `day` is closed (for the reports).
pub fn closed_days(conn: &mut DbConnection, from: NaiveDate, to: NaiveDate) -> Result<Vec<NaiveDate>, AppError> {
    q::closed_days(conn, &text_day(from), &text_day(to))?
        .iter()
        .map(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").map_err(AppError::internal))
        .collect()
}
