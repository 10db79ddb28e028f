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
use super::extract::with_db;
use super::helpers::{csv_text as text, CsvFile, Nav};
use super::state::AppState;
use crate::db::reports::{self, Range, RawParams};
use crate::db::{now, DbConnection};
use crate::domain::{AppError, Kind, Role};

/// Who reads reports: accountants, the floor, admins.
const READERS: &[Role] = &[Role::Accountant, Role::Floor, Role::Admin];

fn raw_params(req: &HttpRequest) -> Result<RawParams, AppError> {
    let pairs = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map_err(|e| AppError::invalid("bad_query", format!("the query string is not valid: {e}")))?
        .into_inner();
    RawParams::from_pairs(&pairs)
}

/// Checks the parameters and builds a report, on the blocking pool.
async fn load<T: Send + 'static>(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    build: fn(&mut DbConnection, &Range) -> Result<T, AppError>,
) -> Result<(Range, T), AppError> {
    let raw = raw_params(req)?;
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
    let raw = match raw_params(&req) {
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

// ---- CSV ----

fn money(d: rust_decimal::Decimal) -> String {
    format!("{d:.2}")
}

fn utc(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%Y-%m-%d %H:%M:%S").to_string()
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
            let chart = rake_chart(&report);
            html(
                actix_web::http::StatusCode::OK,
                &RakePage { nav: Nav::of(&identity), form: form(&state, &range).await?, report, chart },
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

/// `GET /reports/rake.csv`: one row per (gaming day, table), then the totals.
pub async fn rake_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    let (range, report) = load(&state, &req, reports::rake_report).await?;
    let mut csv = CsvFile::new();
    csv.row(["gaming_day", "table_id", "table", "hands", "rake", "house", "jackpot", "day_status"])?;
    for r in &report.rows {
        csv.row([
            r.gaming_day.to_string(),
            r.table_id.to_string(),
            text(&r.table),
            r.hands.to_string(),
            money(r.rake),
            money(r.house),
            money(r.jackpot),
            r.day_status.to_string(),
        ])?;
    }
    let t = &report.totals;
    csv.row([
        "total".to_string(),
        String::new(),
        String::new(),
        t.hands.to_string(),
        money(t.rake),
        money(t.house),
        money(t.jackpot),
        String::new(),
    ])?;
    csv.finish(&csv_name("rake", &range))
}

// ---- 2. jackpots ----

fn jackpot_chart(report: &reports::JackpotReport) -> String {
    let steps: Vec<charts::Steps> =
        report.series.iter().map(|s| charts::Steps { name: &s.pool, opening: s.opening, points: &s.points }).collect();
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
        start,
        end,
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
            let chart = jackpot_chart(&report);
            html(
                actix_web::http::StatusCode::OK,
                &JackpotPage { nav: Nav::of(&identity), form: form(&state, &range).await?, report, chart },
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
    Ok(svg(jackpot_chart(&load(&state, &req, reports::jackpot_report).await?.1)))
}

/// `GET /reports/jackpots.csv`: two sections, each with its header and a
/// totals row: the pools, then the hits.
pub async fn jackpots_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    let (range, report) = load(&state, &req, reports::jackpot_report).await?;
    let mut csv = CsvFile::new();
    csv.row([
        "pool_id",
        "pool",
        "opening",
        "seeds",
        "contributions",
        "locked",
        "returned",
        "other",
        "paid_out",
        "closing",
    ])?;
    let pool_fields = |id: String, name: String, p: [rust_decimal::Decimal; 8]| {
        let mut fields = vec![id, name];
        fields.extend(p.into_iter().map(money));
        fields
    };
    for p in &report.pools {
        csv.row(pool_fields(
            p.pool_id.to_string(),
            text(&p.pool),
            [p.opening, p.seeds, p.contributions, p.locked, p.returned, p.other, p.paid_out, p.closing],
        ))?;
    }
    let t = &report.totals;
    csv.row(pool_fields(
        "total".to_string(),
        String::new(),
        [t.opening, t.seeds, t.contributions, t.locked, t.returned, t.other, t.paid_out, t.closing],
    ))?;
    csv.row([
        "hit_id",
        "created_at_utc",
        "gaming_day",
        "pool_id",
        "pool",
        "table_id",
        "table",
        "hand",
        "kind",
        "loser_seat",
        "winner_seat",
        "amount",
        "paid",
        "status",
    ])?;
    for h in &report.hits {
        csv.row([
            h.hit_id.to_string(),
            utc(h.created_at),
            h.gaming_day.to_string(),
            h.pool_id.to_string(),
            text(&h.pool),
            h.table_id.to_string(),
            text(&h.table),
            h.hand.to_string(),
            text(&h.kind),
            h.loser_seat.to_string(),
            h.winner_seat.to_string(),
            money(h.amount),
            money(h.paid),
            h.status.to_string(),
        ])?;
    }
    let amount: rust_decimal::Decimal = report.hits.iter().map(|h| h.amount).sum();
    let paid: rust_decimal::Decimal = report.hits.iter().map(|h| h.paid).sum();
    let mut total = vec!["total".to_string()];
    total.extend(std::iter::repeat_n(String::new(), 10));
    total.extend([money(amount), money(paid), String::new()]);
    csv.row(total)?;
    csv.finish(&csv_name("jackpots", &range))
}

// ---- 3. sessions ----

#[derive(Template)]
#[template(path = "report_sessions.html")]
struct SessionsPage {
    nav: Nav,
    form: Form,
    report: reports::SessionReport,
}

/// `GET /reports/sessions`.
pub async fn sessions_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    match load(&state, &req, reports::session_report).await {
        Ok((range, report)) => html(
            actix_web::http::StatusCode::OK,
            &SessionsPage { nav: Nav::of(&identity), form: form(&state, &range).await?, report },
        ),
        Err(e) => page_problem(&state, &identity, &req, e).await,
    }
}

/// `GET /reports/sessions.json`.
pub async fn sessions_json(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    Ok(HttpResponse::Ok().json(load(&state, &req, reports::session_report).await?.1))
}

/// `GET /reports/sessions.csv`: one row per seating, then the totals.
pub async fn sessions_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    let (range, report) = load(&state, &req, reports::session_report).await?;
    let mut csv = CsvFile::new();
    let money_columns = ["buy_in", "add_ons", "cash_out", "rake", "jackpot_payouts", "stack", "net"];
    let mut header = vec!["seating_id", "table_id", "table", "seat", "player", "seated_at_utc", "gaming_day", "status"];
    header.extend(money_columns);
    csv.row(header)?;
    for s in &report.sessions {
        let mut fields = vec![
            s.seating_id.to_string(),
            s.table_id.to_string(),
            text(&s.table),
            s.seat.to_string(),
            text(&s.player),
            utc(s.seated_at),
            s.gaming_day.to_string(),
            s.status.to_string(),
        ];
        fields.extend(
            [s.buy_in, s.add_ons, s.cash_out, s.rake, s.jackpot_payouts, s.stack, s.net].into_iter().map(money),
        );
        csv.row(fields)?;
    }
    let t = &report.totals;
    let mut total = vec!["total".to_string()];
    total.extend(std::iter::repeat_n(String::new(), 7));
    total.extend([t.buy_in, t.add_ons, t.cash_out, t.rake, t.jackpot_payouts, t.stack, t.net].into_iter().map(money));
    csv.row(total)?;
    csv.finish(&csv_name("sessions", &range))
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
}
