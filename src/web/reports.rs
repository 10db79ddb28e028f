//! The accountant's reports (`db::reports`) as pages, CSV, JSON and SVG.
//! Every route is a GET taking `from`, `to` (gaming days, `YYYY-MM-DD`,
//! inclusive) and `table` (an id), all optional: the default is the last 7
//! gaming days and every table. Bad parameters answer 422 naming the
//! parameter: JSON for `.csv`, `.json` and `.svg`, a page with the form for
//! the pages.

use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

use super::auth::Identity;
use super::charts;
use super::extract::{with_db, with_db_as};
use super::helpers::{csv_text as text, CsvFile, Nav};
use super::state::AppState;
use crate::db::reports::{self, Range, RawParams};
use crate::db::{now, DbConnection};
use crate::domain::{AppError, Kind, Role};
use crate::service::audit::{self, ExceptionView};

/// Who reads the exception report: the floor, accountants, admins.
use super::routes::jackpots::REVIEWERS;

/// Who reads reports: accountants, the floor, admins.
const READERS: &[Role] = &[Role::Accountant, Role::Floor, Role::Admin];

fn raw_params(req: &HttpRequest) -> Result<RawParams, AppError> {
    RawParams::from_pairs(&super::helpers::query_pairs(req)?)
}

/// A report that is not paged refuses a page's parameters.
fn unpaged(raw: &RawParams, what: &str) -> Result<(), AppError> {
    for (name, given) in [("after", &raw.after), ("before", &raw.before), ("limit", &raw.limit)] {
        if given.is_some() {
            return Err(AppError::invalid(
                "unknown_parameter",
                format!("{what} is not paged: it takes from, to and table, not {name}"),
            )
            .at_field(name));
        }
    }
    Ok(())
}

/// Checks the parameters and builds a report, on the blocking pool.
async fn load<T: Send + 'static>(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    build: fn(&mut DbConnection, &Range) -> Result<T, AppError>,
) -> Result<(Range, T), AppError> {
    let raw = raw_params(req)?;
    unpaged(&raw, "this report")?;
    with_db(state, move |c| {
        let range = reports::resolve(c, &raw, now())?;
        let report = build(c, &range)?;
        Ok((range, report))
    })
    .await
}

// ---- the form and the pages ----

struct TableOption {
    id: i64,
    name: String,
    selected: bool,
}

/// The date-range form as shown, and the query string of the report shown.
struct Form {
    from: String,
    to: String,
    tables: Vec<TableOption>,
    query: String,
}

fn form_for(tables: Vec<reports::TableInfo>, from: String, to: String, table: Option<String>) -> Form {
    let mut query = format!("from={from}&to={to}");
    if let Some(t) = &table {
        query.push_str(&format!("&table={}", t.chars().filter(char::is_ascii_alphanumeric).collect::<String>()));
    }
    Form {
        tables: tables
            .into_iter()
            .map(|t| TableOption {
                selected: table.as_deref() == Some(t.id.to_string().as_str()),
                id: t.id,
                name: t.name,
            })
            .collect(),
        from,
        to,
        query,
    }
}

async fn form(state: &web::Data<AppState>, range: &Range) -> Result<Form, AppError> {
    let tables = with_db(state, reports::all_tables).await?;
    Ok(form_for(tables, range.from.to_string(), range.to.to_string(), range.table.map(|t| t.to_string())))
}

#[derive(Template)]
#[template(path = "report_index.html")]
struct IndexPage {
    nav: Nav,
    form: Form,
    problem: String,
    max_days: i64,
}

fn html(status: actix_web::http::StatusCode, page: &impl Template) -> Result<HttpResponse, AppError> {
    let body = page.render().map_err(|e| AppError::internal(format!("template: {e}")))?;
    Ok(HttpResponse::build(status).content_type("text/html; charset=utf-8").body(body))
}

/// A page's answer to bad parameters: the form again, with the problem, 422.
async fn page_problem(
    state: &web::Data<AppState>,
    identity: &Identity,
    req: &HttpRequest,
    error: AppError,
) -> Result<HttpResponse, AppError> {
    if !error.is(Kind::Invalid) {
        return Err(error);
    }
    let problem = error.message;
    let raw = raw_params(req).unwrap_or_default();
    let tables = with_db(state, reports::all_tables).await?;
    let form = form_for(tables, raw.from.unwrap_or_default(), raw.to.unwrap_or_default(), raw.table);
    html(
        super::error::status_of(Kind::Invalid),
        &IndexPage { nav: Nav::of(identity), form, problem, max_days: reports::MAX_DAYS },
    )
}

/// `GET /reports`: the date-range form and the three reports.
pub async fn index(state: web::Data<AppState>, req: HttpRequest, identity: Identity) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    let raw = match raw_params(&req).and_then(|raw| unpaged(&raw, "the reports' page").map(|()| raw)) {
        Ok(raw) => raw,
        Err(e) => return page_problem(&state, &identity, &req, e).await,
    };
    match with_db(&state, move |c| reports::resolve(c, &raw, now())).await {
        Ok(range) => html(
            actix_web::http::StatusCode::OK,
            &IndexPage {
                nav: Nav::of(&identity),
                form: form(&state, &range).await?,
                problem: String::new(),
                max_days: reports::MAX_DAYS,
            },
        ),
        Err(e) => page_problem(&state, &identity, &req, e).await,
    }
}

// ---- the tables: one builder each, for the page and its CSV file ----

/// A column of a report's table: its heading (the CSV file's header too)
/// and whether it holds numbers (right-aligned).
pub struct Column {
    pub heading: String,
    pub num: bool,
}

/// A cell: its text (the same on the page and in the CSV file), a class for
/// the page, a link for the page, and whether people typed it (a name: kept
/// as text in a spreadsheet).
pub struct Cell {
    pub text: String,
    pub class: &'static str,
    pub href: String,
    typed: bool,
}

impl Cell {
    fn plain(text: impl ToString) -> Cell {
        Cell { text: text.to_string(), class: "", href: String::new(), typed: false }
    }

    fn num(text: impl ToString) -> Cell {
        Cell { class: "num", ..Cell::plain(text) }
    }

    fn typed(text: &str) -> Cell {
        Cell { typed: true, ..Cell::plain(text) }
    }

    fn link(text: impl ToString, href: String) -> Cell {
        Cell { href, ..Cell::plain(text) }
    }

    /// The CSV field: people's text guarded against formulas.
    fn field(&self) -> std::borrow::Cow<'_, str> {
        if self.typed {
            std::borrow::Cow::Owned(text(&self.text))
        } else {
            std::borrow::Cow::Borrowed(&self.text)
        }
    }
}

/// One table of a report, as the page shows it and its CSV file holds it:
/// the header, the rows, and the totals row (the page's footer).
pub struct Grid {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Cell>>,
    pub foot: Vec<Cell>,
}

impl Grid {
    fn new(columns: &[(&str, bool)]) -> Grid {
        Grid {
            columns: columns.iter().map(|(h, num)| Column { heading: h.to_string(), num: *num }).collect(),
            rows: Vec::new(),
            foot: Vec::new(),
        }
    }

    /// The CSV file: the BOM, one header row, the rows, the totals row.
    fn csv(&self, filename: &str) -> Result<HttpResponse, AppError> {
        let mut csv = CsvFile::report();
        csv.row(self.columns.iter().map(|c| c.heading.as_str()))?;
        for row in self.rows.iter().chain((!self.foot.is_empty()).then_some(&self.foot)) {
            csv.row(row.iter().map(Cell::field))?;
        }
        csv.finish(filename)
    }
}

/// Money as the pages and CSV files show it: two decimals, `-` when negative.
/// Whole cents (as the reports' sums are) are written as integers, anything
/// else as the decimal's own two-place form (which cuts further places off).
/// Zero is `0.00`, never `-0.00`.
fn money(d: rust_decimal::Decimal) -> String {
    match (d.scale() == 2).then(|| i64::try_from(d.mantissa()).ok()).flatten() {
        Some(c) => {
            let (whole, part) = (c.unsigned_abs() / 100, c.unsigned_abs() % 100);
            format!("{}{whole}.{part:02}", if c < 0 { "-" } else { "" })
        }
        None => format!("{d:.2}"),
    }
}

/// Money taken out (the page's and file's sign): `-12.50`, `0.00`.
fn taken(d: rust_decimal::Decimal) -> String {
    if d.is_zero() {
        money(d)
    } else {
        money(-d)
    }
}

/// A time in the casino's zone, to the minute.
fn local(t: chrono::DateTime<chrono::Utc>, tz: chrono_tz::Tz) -> String {
    use chrono::{Datelike, Timelike};
    // As `%Y-%m-%d %H:%M`, without reading a format at each of a file's
    // rows.
    let t = t.with_timezone(&tz);
    format!("{:04}-{:02}-{:02} {:02}:{:02}", t.year(), t.month(), t.day(), t.hour(), t.minute())
}

/// A report's CSV file name: `rake-2026-11-01-2026-11-21.csv`, with
/// `-table-3` for one table.
fn csv_name(name: &str, range: &Range) -> String {
    let table = range.table.map(|t| format!("-table-{t}")).unwrap_or_default();
    format!("{name}{table}-{}-{}.csv", range.from, range.to)
}

fn svg(body: String) -> HttpResponse {
    HttpResponse::Ok().content_type("image/svg+xml; charset=utf-8").body(body)
}

fn rake_grid(report: &reports::RakeReport) -> Grid {
    let mut g = Grid::new(&[
        ("Gaming day", false),
        ("Table", false),
        ("Hands", true),
        ("Rake", true),
        ("House", true),
        ("Jackpot", true),
        ("Day", false),
    ]);
    for r in &report.rows {
        g.rows.push(vec![
            Cell::plain(r.gaming_day),
            Cell::typed(&r.table),
            Cell::num(r.hands),
            Cell::num(money(r.rake)),
            Cell::num(money(r.house)),
            Cell::num(money(r.jackpot)),
            // Open or closed, linking the day's count and close.
            Cell::link(r.day_status, format!("/gaming-days/{}", r.gaming_day)),
        ]);
    }
    let t = &report.totals;
    g.foot = vec![
        Cell::plain("Total"),
        Cell::plain(""),
        Cell::num(t.hands),
        Cell::num(money(t.rake)),
        Cell::num(money(t.house)),
        Cell::num(money(t.jackpot)),
        Cell::plain(""),
    ];
    g
}

fn pools_grid(report: &reports::JackpotReport) -> Grid {
    let mut g = Grid::new(&[
        ("Pool", false),
        ("Opening", true),
        ("Seeds", true),
        ("Contributions", true),
        ("Locked", true),
        ("Returned", true),
        ("Other", true),
        ("Closing", true),
        ("Paid out", true),
    ]);
    let cells = |name: Cell, p: [rust_decimal::Decimal; 8]| {
        let mut row = vec![name, Cell::num(money(p[0])), Cell::num(money(p[1])), Cell::num(money(p[2]))];
        row.push(Cell::num(taken(p[3])));
        row.extend(p[4..].iter().map(|d| Cell::num(money(*d))));
        row[7].class = "num closing";
        row
    };
    for p in &report.pools {
        g.rows.push(cells(
            Cell::typed(&p.pool),
            [p.opening, p.seeds, p.contributions, p.locked, p.returned, p.other, p.closing, p.paid_out],
        ));
    }
    let t = &report.totals;
    g.foot = cells(
        Cell::plain("Total"),
        [t.opening, t.seeds, t.contributions, t.locked, t.returned, t.other, t.closing, t.paid_out],
    );
    g
}

fn hits_grid(report: &reports::JackpotReport, tz: chrono_tz::Tz) -> Grid {
    let at = format!("Locked at ({tz})");
    let mut g = Grid::new(&[
        ("Hit", false),
        (at.as_str(), false),
        ("Gaming day", false),
        ("Pool", false),
        ("Table", false),
        ("Hand", false),
        ("Kind", false),
        ("Loser seat", true),
        ("Winner seat", true),
        ("Amount", true),
        ("Paid", true),
        ("Status", false),
    ]);
    for h in &report.hits {
        g.rows.push(vec![
            Cell::link(h.hit_id, format!("/jackpots/{}/slip", h.hit_id)),
            Cell::plain(local(h.created_at, tz)),
            Cell::plain(h.gaming_day),
            Cell::typed(&h.pool),
            Cell::typed(&h.table),
            Cell::link(h.hand, format!("/tables/{}/hands/{}/sheet", h.table_id, h.hand)),
            Cell::plain(&h.kind),
            Cell::num(h.loser_seat),
            Cell::num(h.winner_seat),
            Cell::num(money(h.amount)),
            Cell::num(money(h.paid)),
            Cell {
                class: match h.status {
                    "voided" => "hit-voided",
                    "rejected" => "hit-rejected",
                    _ => "",
                },
                ..Cell::plain(h.status)
            },
        ]);
    }
    let amount: rust_decimal::Decimal = report.hits.iter().map(|h| h.amount).sum();
    let paid: rust_decimal::Decimal = report.hits.iter().map(|h| h.paid).sum();
    g.foot = vec![Cell::plain("Total"), Cell::plain(format!("{} hits", report.hits.len()))];
    g.foot.extend((0..7).map(|_| Cell::plain("")));
    g.foot.extend([Cell::num(money(amount)), Cell::num(money(paid)), Cell::plain("")]);
    g
}

fn sessions_grid(report: &reports::SessionReport, tz: chrono_tz::Tz) -> Grid {
    let mut g = sessions_head(tz);
    g.rows = report.sessions.iter().map(|s| session_cells(s, tz)).collect();
    g.foot = sessions_foot(&report.totals);
    g
}

fn sessions_head(tz: chrono_tz::Tz) -> Grid {
    let at = format!("Seated ({tz})");
    Grid::new(&[
        (at.as_str(), false),
        ("Gaming day", false),
        ("Table", false),
        ("Seat", true),
        ("Player", false),
        ("Status", false),
        ("Buy-in", true),
        ("Add-ons", true),
        ("Cash-out", true),
        ("Stack", true),
        ("Rake", true),
        ("Jackpot", true),
        ("Net", true),
    ])
}

/// Net money: red when lost.
fn net_cell(d: rust_decimal::Decimal) -> Cell {
    Cell { class: if d.is_sign_negative() && !d.is_zero() { "num neg" } else { "num pos" }, ..Cell::num(money(d)) }
}

fn session_cells(s: &reports::SessionRow, tz: chrono_tz::Tz) -> Vec<Cell> {
    vec![
        Cell::plain(local(s.seated_at, tz)),
        Cell::plain(s.gaming_day),
        Cell::typed(&s.table),
        Cell::num(s.seat),
        // The player's record, where the seating has one.
        Cell {
            class: "player",
            href: s.player_id.map(|id| format!("/players/{id}")).unwrap_or_default(),
            ..Cell::typed(&s.player)
        },
        Cell::plain(s.status),
        Cell::num(money(s.buy_in)),
        Cell::num(money(s.add_ons)),
        Cell::num(money(s.cash_out)),
        Cell::num(money(s.stack)),
        Cell::num(money(s.rake)),
        Cell::num(money(s.jackpot_payouts)),
        net_cell(s.net),
    ]
}

fn sessions_foot(t: &reports::SessionTotals) -> Vec<Cell> {
    let mut foot = vec![Cell::plain("Total"), Cell::plain(format!("{} sessions", t.sessions))];
    foot.extend((0..4).map(|_| Cell::plain("")));
    foot.extend([t.buy_in, t.add_ons, t.cash_out, t.stack, t.rake, t.jackpot_payouts].map(|d| Cell::num(money(d))));
    foot.push(net_cell(t.net));
    foot
}

// ---- 1. rake ----

fn rake_chart(report: &reports::RakeReport) -> String {
    let bars: Vec<(String, i64)> = report
        .days
        .iter()
        .map(|d| (d.gaming_day.to_string(), i64::try_from(d.rake * rust_decimal::Decimal::ONE_HUNDRED).unwrap_or(0)))
        .collect();
    charts::bar_chart("rake-chart", &format!("Rake per gaming day, {} to {}", report.from, report.to), &bars)
}

#[derive(Template)]
#[template(path = "report_rake.html")]
struct RakePage {
    nav: Nav,
    form: Form,
    report: reports::RakeReport,
    chart: String,
    grid: Grid,
}

/// `GET /reports/rake`.
pub async fn rake_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    match load(&state, &req, reports::rake_report).await {
        Ok((range, report)) => {
            let (chart, grid) = (rake_chart(&report), rake_grid(&report));
            html(
                actix_web::http::StatusCode::OK,
                &RakePage { nav: Nav::of(&identity), form: form(&state, &range).await?, report, chart, grid },
            )
        }
        Err(e) => page_problem(&state, &identity, &req, e).await,
    }
}

/// `GET /reports/rake.json`.
pub async fn rake_json(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    Ok(HttpResponse::Ok().json(load(&state, &req, reports::rake_report).await?.1))
}

/// `GET /reports/rake.svg`: rake per gaming day, one bar per day.
pub async fn rake_svg(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    Ok(svg(rake_chart(&load(&state, &req, reports::rake_report).await?.1)))
}

/// `GET /reports/rake.csv`: the page's table: a row per (gaming day, table), then the totals.
pub async fn rake_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    let (range, report) = load(&state, &req, reports::rake_report).await?;
    rake_grid(&report).csv(&csv_name("rake", &range))
}

// ---- 2. jackpots ----

fn jackpot_chart(report: &reports::JackpotReport, tz: chrono_tz::Tz) -> String {
    let steps: Vec<charts::Steps> = report
        .series
        .iter()
        .map(|s| charts::Steps { name: &s.pool, opening: s.opening, points: &s.points, marks: &s.marks })
        .collect();
    let start = report.series.iter().map(|s| s.start).min();
    let end = report.series.iter().map(|s| s.end).max();
    let (start, end) = match (start, end) {
        (Some(s), Some(e)) => (s, e),
        _ => (
            report.from.and_time(chrono::NaiveTime::MIN),
            (report.to + chrono::Duration::days(1)).and_time(chrono::NaiveTime::MIN),
        ),
    };
    charts::step_chart(
        "jackpot-chart",
        &format!("Jackpot balance, {} to {}", report.from, report.to),
        (start, end),
        tz,
        &steps,
    )
}

#[derive(Template)]
#[template(path = "report_jackpots.html")]
struct JackpotPage {
    nav: Nav,
    form: Form,
    report: reports::JackpotReport,
    chart: String,
    pools: Grid,
    hits: Grid,
}

/// `GET /reports/jackpots`.
pub async fn jackpots_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    match load(&state, &req, reports::jackpot_report).await {
        Ok((range, report)) => {
            let (chart, pools, hits) =
                (jackpot_chart(&report, state.time_zone), pools_grid(&report), hits_grid(&report, state.time_zone));
            let form = form(&state, &range).await?;
            html(
                actix_web::http::StatusCode::OK,
                &JackpotPage { nav: Nav::of(&identity), form, report, chart, pools, hits },
            )
        }
        Err(e) => page_problem(&state, &identity, &req, e).await,
    }
}

/// `GET /reports/jackpots.json`.
pub async fn jackpots_json(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    Ok(HttpResponse::Ok().json(load(&state, &req, reports::jackpot_report).await?.1))
}

/// `GET /reports/jackpots.svg`: each pool's balance over the range.
pub async fn jackpots_svg(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    Ok(svg(jackpot_chart(&load(&state, &req, reports::jackpot_report).await?.1, state.time_zone)))
}

/// `GET /reports/jackpots.csv`: the page's pools table, then the totals.
pub async fn jackpots_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    let (range, report) = load(&state, &req, reports::jackpot_report).await?;
    pools_grid(&report).csv(&csv_name("jackpots", &range))
}

/// `GET /reports/jackpot-hits.csv`: the page's hits table, then the totals.
pub async fn jackpot_hits_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    let (range, report) = load(&state, &req, reports::jackpot_report).await?;
    hits_grid(&report, state.time_zone).csv(&csv_name("jackpot-hits", &range))
}

// ---- 3. sessions ----

/// The sessions report's page: the range's checked parameters and a page.
async fn load_sessions(
    state: &web::Data<AppState>,
    req: &HttpRequest,
) -> Result<(Range, reports::SessionReport), AppError> {
    let raw = raw_params(req)?;
    let page = reports::Page::parse(&raw)?;
    with_db(state, move |c| {
        let range = reports::resolve(c, &raw, now())?;
        let report = reports::session_report(c, &range, page)?;
        Ok((range, report))
    })
    .await
}

#[derive(Template)]
#[template(path = "report_sessions.html")]
struct SessionsPage {
    nav: Nav,
    form: Form,
    report: reports::SessionReport,
    grid: Grid,
    /// How many rows this page shows (of `report.totals.sessions`).
    shown: usize,
    /// `&limit=N` when the page size was chosen, for the pager's links.
    limit_query: String,
}

/// `GET /reports/sessions`: a page of the range's sessions (`after`,
/// `before`, `limit`) and the totals of them all.
pub async fn sessions_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    match load_sessions(&state, &req).await {
        Ok((range, report)) => {
            let grid = sessions_grid(&report, state.time_zone);
            let shown = report.sessions.len();
            let limit_query =
                if report.limit == reports::PAGE_ROWS { String::new() } else { format!("&limit={}", report.limit) };
            let form = form(&state, &range).await?;
            html(
                actix_web::http::StatusCode::OK,
                &SessionsPage { nav: Nav::of(&identity), form, report, grid, shown, limit_query },
            )
        }
        Err(e) => page_problem(&state, &identity, &req, e).await,
    }
}

/// `GET /reports/sessions.json`: a page of sessions (`after`, `before`,
/// `limit`; `next` and `previous` name the pages beside it) and the totals
/// of the whole range.
pub async fn sessions_json(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    Ok(HttpResponse::Ok().json(load_sessions(&state, &req).await?.1))
}

/// Rows of the sessions CSV file, as a part of it writes them, added to
/// `totals` (`web::sessions_file`: also the rows it keeps ready).
pub(super) fn session_rows_bytes(
    sessions: &[reports::SessionRow],
    tz: chrono_tz::Tz,
    totals: &mut reports::SessionTotals,
) -> Result<Vec<u8>, AppError> {
    let mut csv = CsvFile::new();
    for s in sessions {
        csv.row(session_cells(s, tz).iter().map(Cell::field))?;
        totals.add(s);
    }
    csv.bytes()
}

/// Parts of the sessions CSV file read at once ahead of the one being
/// written (each on a thread of the blocking pool).
const READ_AHEAD: usize = 2;

/// `GET /reports/sessions.csv`: every session of the range, then the totals
/// of the rows in the file. The file is sent as it is read, a part of whole
/// gaming days at a time (the first day, then about a thousand tables'
/// gaming days each), the next two parts read while one is written; a
/// table's gaming day whose sessions have ended is sent as kept ready
/// (`web::sessions_file`). The first part is read before the answer starts,
/// so a failure then is an error answer; a failure later cuts the file
/// short (without its totals row) and is logged with the request's id.
pub async fn sessions_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    use super::sessions_file::{FileOf, Part};
    identity.require(READERS)?;
    let raw = raw_params(&req)?;
    unpaged(&raw, "the CSV file (every session of the range)")?;
    let tz = state.time_zone;
    let (range, file) = with_db(&state, move |c| {
        let range = reports::resolve(c, &raw, now())?;
        Ok((range.clone(), FileOf::new(c, range, tz)?))
    })
    .await?;
    let filename = csv_name("sessions", &range);
    let context = crate::logging::current();
    // A part being read (on the blocking pool from the call on, so that
    // later parts are read while the one before them is written).
    type Reading = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Part, AppError>>>>;
    let read = {
        let (state, context) = (state.clone(), context.clone());
        move |file: &FileOf, first: chrono::NaiveDate| -> Reading {
            let file = file.clone();
            Box::pin(with_db_as(&state, context.clone(), move |c| file.part(c, first)))
        }
    };
    let mut csv = CsvFile::report();
    csv.row(sessions_head(tz).columns.iter().map(|c| c.heading.as_str()))?;
    let mut head = vec![actix_web::web::Bytes::from(csv.bytes()?)];
    let mut written = reports::SessionTotals::default();
    /// The parts being read, in order, and the first days of those not
    /// asked for yet.
    struct Ahead {
        file: FileOf,
        reading: std::collections::VecDeque<Reading>,
        later: std::vec::IntoIter<chrono::NaiveDate>,
    }
    let mut ahead = None;
    if let Some(file) = file {
        let mut starts = file.part_starts().into_iter();
        if let Some(day) = starts.next() {
            let first = read(&file, day).await?;
            head.extend(first.pieces.into_iter().map(actix_web::web::Bytes::from_owner));
            written.merge(&first.totals);
        }
        let reading = starts.by_ref().take(READ_AHEAD).map(|day| read(&file, day)).collect();
        ahead = Some(Ahead { file, reading, later: starts });
    }
    // The totals row once every part is written; `None` once it is.
    let rest = futures_util::stream::unfold(Some((ahead, written)), move |state| {
        let (read, context) = (read.clone(), context.clone());
        async move {
            let (mut ahead, mut written) = state?;
            let reading = ahead.as_mut().and_then(|a| a.reading.pop_front());
            let (pieces, then) = match reading {
                Some(reading) => match reading.await {
                    Ok(part) => {
                        written.merge(&part.totals);
                        if let Some(a) = ahead.as_mut() {
                            if let Some(day) = a.later.next() {
                                let next = read(&a.file, day);
                                a.reading.push_back(next);
                            }
                        }
                        let pieces = part.pieces.into_iter().map(actix_web::web::Bytes::from_owner).collect();
                        (Ok(pieces), Some((ahead, written)))
                    }
                    Err(e) => (Err(e), None),
                },
                None => {
                    let mut csv = CsvFile::new();
                    let foot = csv.row(sessions_foot(&written).iter().map(Cell::field)).and_then(|()| csv.bytes());
                    (foot.map(|f| vec![actix_web::web::Bytes::from(f)]), None)
                }
            };
            if let Err(e) = &pieces {
                crate::logging::in_context(context, || log::error!("the sessions CSV file stopped part way: {e}"));
            }
            let pieces: Vec<Result<actix_web::web::Bytes, AppError>> = match pieces {
                Ok(pieces) => pieces.into_iter().map(Ok).collect(),
                Err(e) => vec![Err(e)],
            };
            Some((futures_util::stream::iter(pieces), then))
        }
    });
    let head = head.into_iter().map(Ok);
    let parts =
        futures_util::StreamExt::chain(futures_util::stream::iter(head), futures_util::StreamExt::flatten(rest));
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(("Content-Disposition", format!("attachment; filename=\"{filename}\"")))
        .streaming(parts))
}

// ---- 4. exceptions ----

#[derive(Template)]
#[template(path = "exceptions.html")]
struct ExceptionsPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    form: Form,
    /// Why the parameters were refused (the page then shows the form again).
    problem: String,
    rows: Vec<ExceptionView>,
}

impl ExceptionsPage {
    fn when(&self, at: &chrono::NaiveDateTime) -> String {
        super::helpers::shown(at, self.tz)
    }
}

/// The exceptions of the range asked for (`from`, `to`, `table`).
pub async fn load_exceptions(
    state: &web::Data<AppState>,
    req: &HttpRequest,
) -> Result<(Range, Vec<ExceptionView>), AppError> {
    load(state, req, audit::exceptions).await
}

/// `GET /exceptions`: the voids, rejected hits and ruleset changes of a
/// range of gaming days (the last 7 unless asked), newest first.
pub async fn exceptions_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(REVIEWERS)?;
    let tz = state.time_zone;
    match load_exceptions(&state, &req).await {
        Ok((range, rows)) => {
            let form = form(&state, &range).await?;
            html(
                actix_web::http::StatusCode::OK,
                &ExceptionsPage { tz, nav: Nav::of(&identity), form, problem: String::new(), rows },
            )
        }
        // This page again, with the problem above its form.
        Err(e) if e.is(Kind::Invalid) => {
            let raw = raw_params(&req).unwrap_or_default();
            let tables = with_db(&state, reports::all_tables).await?;
            let form = form_for(tables, raw.from.unwrap_or_default(), raw.to.unwrap_or_default(), raw.table);
            html(
                super::error::status_of(Kind::Invalid),
                &ExceptionsPage { tz, nav: Nav::of(&identity), form, problem: e.message, rows: Vec::new() },
            )
        }
        Err(e) => Err(e),
    }
}

/// `GET /exceptions.csv` (RFC 4180): the page's table, as every report's
/// file: the BOM, the page's headings, times in the casino's zone.
pub async fn exceptions_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(REVIEWERS)?;
    let (range, rows) = load_exceptions(&state, &req).await?;
    let tz = state.time_zone;
    let mut out = CsvFile::report();
    out.row([format!("When ({tz})").as_str(), "Gaming day", "Kind", "Table", "What", "Reason", "Note", "By"])?;
    for r in &rows {
        let at = r.at.and_utc().with_timezone(&tz).format("%Y-%m-%d %H:%M:%S").to_string();
        out.row([
            at,
            r.gaming_day.to_string(),
            r.kind.to_string(),
            text(&r.table),
            r.subject.clone(),
            text(&r.reason),
            text(&r.note),
            text(&r.by),
        ])?;
    }
    out.finish(&csv_name("exceptions", &range))
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_that_look_like_formulas_stay_text() {
        assert_eq!(super::text("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(super::text("-1"), "'-1");
        assert_eq!(super::text("Alice"), "Alice");
        assert_eq!(super::text(""), "");
    }

    #[test]
    fn a_time_is_shown_in_the_casinos_zone_to_the_minute() {
        use chrono::TimeZone;
        let la: chrono_tz::Tz = "America/Los_Angeles".parse().unwrap();
        // 2026-11-21 is PST (UTC-8); 2026-07-04 PDT (UTC-7); seconds dropped.
        let at = |y, mo, d, h, mi, s| chrono::Utc.with_ymd_and_hms(y, mo, d, h, mi, s).unwrap();
        assert_eq!(super::local(at(2026, 11, 21, 14, 5, 59), la), "2026-11-21 06:05");
        assert_eq!(super::local(at(2026, 7, 4, 3, 0, 0), la), "2026-07-03 20:00");
        assert_eq!(super::local(at(2026, 1, 1, 0, 0, 0), chrono_tz::UTC), "2026-01-01 00:00");
    }

    #[test]
    fn money_reads_as_the_decimals_own_two_places() {
        use rust_decimal::Decimal;
        let mut cents: Vec<i64> = (-1_000..=1_000).collect();
        cents.extend([123_456_789, -987_654_321, i64::MAX, i64::MIN, 100_000_000_000_000]);
        for c in cents {
            let d = Decimal::new(c, 2);
            assert_eq!(super::money(d), format!("{d:.2}"), "{c} cents");
        }
        // Not in cents: as the decimal's own form says (further places cut off).
        for d in [Decimal::new(15, 1), Decimal::from(7), Decimal::new(-1_005, 3), Decimal::new(1_234_567, 4)] {
            assert_eq!(super::money(d), format!("{d:.2}"));
        }
        assert_eq!(super::money(Decimal::new(1_234_567, 4)), "123.45");
        // A negative zero (which the reports' sums never make) reads as zero.
        assert_eq!(super::money(-Decimal::new(0, 2)), "0.00");
        assert_eq!(super::money(Decimal::new(-5, 2)), "-0.05");
        assert_eq!(super::money(Decimal::new(0, 2)), "0.00");
        assert_eq!(super::money(Decimal::new(-123_456, 2)), "-1234.56");
    }

    /// A session's row of the file, by hand: 13:59 UTC is 05:59 in Los
    /// Angeles (PST), names that a spreadsheet would read as formulas get a
    /// leading `'`, and money has its two places and the page's signs. These
    /// rows are also those the server keeps ready for the file, in the
    /// layout `sessions_file::LAYOUT`: a change to them is a new layout
    /// (bump it with them, so that rows kept by an older release are not sent).
    #[test]
    fn a_sessions_row_in_the_file_by_hand() {
        assert_eq!(super::super::sessions_file::LAYOUT, 1, "the rows below are layout 1");
        use crate::db::reports::SessionRow;
        use chrono::TimeZone;
        use rust_decimal::Decimal;
        let la: chrono_tz::Tz = "America/Los_Angeles".parse().unwrap();
        let row = |table: &str, player: &str, net: i64, status: &'static str| SessionRow {
            seating_id: 7,
            table_id: 3,
            table: table.to_string(),
            seat: 2,
            player: player.to_string(),
            player_id: Some(11),
            member_no: Some("M-1".to_string()),
            seated_at: chrono::Utc.with_ymd_and_hms(2026, 11, 21, 13, 59, 30).unwrap(),
            gaming_day: chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
            status,
            buy_in: Decimal::new(50_000, 2),
            add_ons: Decimal::new(0, 2),
            cash_out: Decimal::new(12_345, 2),
            rake: Decimal::new(150, 2),
            jackpot_payouts: Decimal::new(7, 2),
            stack: Decimal::new(0, 2),
            net: Decimal::new(net, 2),
        };
        let line = |s: &SessionRow| {
            let mut totals = crate::db::reports::SessionTotals::default();
            let bytes = super::session_rows_bytes(std::slice::from_ref(s), la, &mut totals).unwrap();
            assert_eq!((totals.sessions, totals.net), (1, s.net));
            String::from_utf8(bytes).unwrap()
        };
        assert_eq!(
            line(&row("Table 3", "Ann", -37_655, "cashed out")),
            "2026-11-21 05:59,2026-11-20,Table 3,2,Ann,cashed out,500.00,0.00,123.45,0.00,1.50,0.07,-376.55\n"
        );
        assert_eq!(
            line(&row("=cmd()", "-1+1", 5, "seated")),
            "2026-11-21 05:59,2026-11-20,'=cmd(),2,'-1+1,seated,500.00,0.00,123.45,0.00,1.50,0.07,0.05\n"
        );
    }
}
