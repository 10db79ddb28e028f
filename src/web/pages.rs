//! The dealer's pages (askama templates in `templates/`, CSS in `static/`):
//! the tables, a table's seats, and a hand's settlement sheet with JSON and
//! CSV downloads. Every value shown is escaped by the templates.

use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use serde_json::Value;

use super::routes::with_db;
use super::startup::AppState;
use crate::db::{hands, tables};
use crate::error::AppError;

/// The stylesheets, built into the binary from `static/`.
const STATIC_FILES: [(&str, &str, &str); 3] = [
    ("pitboss.css", "text/css; charset=utf-8", include_str!("../../static/pitboss.css")),
    ("print.css", "text/css; charset=utf-8", include_str!("../../static/print.css")),
    ("dealer.js", "text/javascript; charset=utf-8", include_str!("../../static/dealer.js")),
];

/// `GET /static/{file}`.
pub async fn static_file(path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let name = path.into_inner();
    let (_, content_type, body) = STATIC_FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| AppError::NotFound(format!("no such file: /static/{name}")))?;
    Ok(HttpResponse::Ok()
        .content_type(*content_type)
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .body(*body))
}

#[derive(Template, WebTemplate)]
#[template(path = "tables.html")]
struct TablesPage {
    tables: Vec<tables::TableView>,
}

/// `GET /`: every table.
pub async fn tables_page(state: web::Data<AppState>) -> Result<impl actix_web::Responder, AppError> {
    Ok(TablesPage { tables: with_db(&state, tables::list_tables).await? })
}

struct SeatBox {
    number: i32,
    player: Option<String>,
    stack: String,
    dealer: bool,
    fantasyland: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "table.html")]
struct TablePage {
    table: tables::TableView,
    seats: Vec<SeatBox>,
    last_committed: Option<i32>,
}

/// `GET /tables/{id}`: the table as the dealer sees it.
pub async fn table_page(
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<impl actix_web::Responder, AppError> {
    let id = path.into_inner();
    let (table, open, last_committed) = with_db(&state, move |c| {
        let table = tables::get_table(c, id)?;
        let open = table.open_hand.map(|n| hands::get_hand(c, id, n)).transpose()?;
        let mut last_committed = None;
        for n in (1..=table.hand_number).rev().take(20) {
            if hands::get_hand(c, id, n)?.status == "committed" {
                last_committed = Some(n);
                break;
            }
        }
        Ok((table, open, last_committed))
    })
    .await?;
    let seats = (1..=table.seat_count)
        .map(|number| {
            let seated = table.seats.iter().find(|s| s.seat == number);
            SeatBox {
                number,
                player: seated.map(|s| s.player.clone()),
                stack: seated.map(|s| s.stack.to_string()).unwrap_or_default(),
                dealer: table.dealer_seat == Some(number),
                fantasyland: open
                    .as_ref()
                    .is_some_and(|h| h.seats.iter().any(|s| s.seat == number && s.in_fantasyland)),
            }
        })
        .collect();
    Ok(TablePage { table, seats, last_committed })
}

#[derive(Template, WebTemplate)]
#[template(path = "entry.html")]
struct EntryPage {
    table_name: String,
    hand: hands::HandView,
    rows: [(&'static str, &'static str, usize); 3],
    specials: Vec<&'static str>,
    aces_bet: bool,
    /// Players against the dealer (`banker`, `malayan`): the bank's hand can
    /// be set by the house way.
    bank: bool,
    /// Seats list their discards (`ofc-pineapple`).
    discards: bool,
}

/// `GET /tables/{id}/hands/{n}/entry`: key in the showdown of an open hand
/// (a committed hand goes to its sheet).
pub async fn entry_page(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    use actix_web::Responder;
    let (id, number) = path.into_inner();
    let (table, hand) =
        with_db(&state, move |c| Ok((tables::get_table(c, id)?, hands::get_hand(c, id, number)?))).await?;
    if hand.status != "open" {
        return Ok(HttpResponse::SeeOther()
            .insert_header(("Location", format!("/tables/{id}/hands/{number}/sheet")))
            .finish());
    }
    let rules = crate::engine::preset(&hand.ruleset.preset)
        .ok_or_else(|| AppError::Internal(format!("unknown preset {}", hand.ruleset.preset)))?;
    let page = EntryPage {
        table_name: table.name,
        rows: [("Front", "front", 3), ("Middle", "middle", 5), ("Back", "back", 5)],
        specials: rules.specials.iter().map(|(k, _)| k.name()).collect(),
        aces_bet: rules.aces_bet,
        bank: rules.structure == crate::engine::ruleset::Structure::Bank,
        discards: rules.discards,
        hand,
    };
    Ok(page.respond_to(&request).map_into_boxed_body())
}

struct SheetSeat {
    seat: i64,
    player: String,
    hand: String,
    fouled: bool,
    stack_start: String,
    rake: String,
    net: String,
    stack_end: String,
}

struct SheetTransaction {
    pass: String,
    payer: i64,
    payee: i64,
    owed: String,
    paid: String,
    capped: bool,
}

struct Sheet {
    table_id: i64,
    table_name: String,
    number: i32,
    preset: String,
    version: i32,
    unit: String,
    dealer_seat: i64,
    status: &'static str,
    void_reason: Option<String>,
    started_at: String,
    seats: Vec<SheetSeat>,
    transactions: Vec<SheetTransaction>,
    rake_total: String,
    jackpot_contribution: String,
    hits: Vec<String>,
}

#[derive(Template, WebTemplate)]
#[template(path = "sheet.html")]
struct SheetPage {
    sheet: Sheet,
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Money as text with two decimals (the stored result may carry any scale).
fn money(v: &Value) -> String {
    text(v).parse::<rust_decimal::Decimal>().map(|d| format!("{:.2}", d)).unwrap_or_else(|_| text(v))
}

async fn load_sheet(state: &web::Data<AppState>, id: i64, number: i32) -> Result<Sheet, AppError> {
    let (table, hand) =
        with_db(state, move |c| Ok((tables::get_table(c, id)?, hands::get_hand(c, id, number)?))).await?;
    let result: Value = match &hand.result {
        Some(raw) => serde_json::from_str(raw.get()).map_err(|e| AppError::Internal(e.to_string()))?,
        None => return Err(AppError::Conflict(format!("hand {number} has no settlement yet (it is {})", hand.status))),
    };
    let empty = Vec::new();
    let seats = result["seats"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .map(|s| {
            let seat = s["seat"].as_i64().unwrap_or(0);
            let player =
                hand.seats.iter().find(|h| h.seat as i64 == seat).map(|h| h.player.clone()).unwrap_or_default();
            let hand_words = if s["surrendered"] == true {
                "surrendered".to_string()
            } else if let Some(special) = s["special"].as_str() {
                format!("special: {special}")
            } else if let Some(reason) = s["foul_reason"].as_str() {
                format!("fouled: {reason}")
            } else if s["royalties"].as_i64().unwrap_or(0) > 0 {
                format!("royalties {}", s["royalties"])
            } else {
                "—".to_string()
            };
            SheetSeat {
                seat,
                player,
                hand: hand_words,
                fouled: s["fouled"] == true,
                stack_start: money(&s["stack_start"]),
                rake: money(&s["rake"]),
                net: money(&s["net"]),
                stack_end: money(&s["stack_end"]),
            }
        })
        .collect::<Vec<_>>();
    let transactions = result["transactions"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .map(|t| {
            let (owed, paid) = (money(&t["owed"]), money(&t["paid"]));
            SheetTransaction {
                pass: text(&t["pass"]),
                payer: t["payer"].as_i64().unwrap_or(0),
                payee: t["payee"].as_i64().unwrap_or(0),
                capped: owed != paid,
                owed,
                paid,
            }
        })
        .collect();
    let rake_total = hand.ruleset.rake_per_seat * rust_decimal::Decimal::from(hand.seats.len() as i64);
    Ok(Sheet {
        table_id: id,
        table_name: table.name,
        number,
        preset: hand.ruleset.preset.clone(),
        version: hand.ruleset.version,
        unit: format!("{:.2}", hand.ruleset.unit),
        dealer_seat: hand.dealer_seat as i64,
        status: hand.status,
        void_reason: hand.void_reason.clone(),
        started_at: hand.started_at.format("%Y-%m-%d %H:%M UTC").to_string(),
        seats,
        transactions,
        rake_total: format!("{rake_total:.2}"),
        jackpot_contribution: money(&result["jackpot_contribution"]),
        hits: hand
            .jackpot_hits
            .iter()
            .map(|h| {
                format!(
                    "{} hit {}: seat {} lost to seat {}, locked {:.2} ({})",
                    h.kind, h.id, h.loser_seat, h.winner_seat, h.amount, h.status
                )
            })
            .collect(),
    })
}

/// `GET /tables/{id}/hands/{n}/sheet`: the settlement sheet (prints cleanly).
pub async fn sheet_page(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<impl actix_web::Responder, AppError> {
    let (id, number) = path.into_inner();
    Ok(SheetPage { sheet: load_sheet(&state, id, number).await? })
}

/// `GET /tables/{id}/hands/{n}/sheet.json`: the stored result, as a download.
pub async fn sheet_json(state: web::Data<AppState>, path: web::Path<(i64, i32)>) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let hand = with_db(&state, move |c| hands::get_hand(c, id, number)).await?;
    let raw = hand.result.ok_or_else(|| AppError::Conflict(format!("hand {number} has no settlement yet")))?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header(("Content-Disposition", format!("attachment; filename=\"table-{id}-hand-{number}.json\"")))
        .body(raw.get().to_string()))
}

/// `GET /tables/{id}/hands/{n}/sheet.csv`: one row per transaction, then one
/// per seat (RFC 4180, money with two decimals).
pub async fn sheet_csv(state: web::Data<AppState>, path: web::Path<(i64, i32)>) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let sheet = load_sheet(&state, id, number).await?;
    let mut out = csv::Writer::from_writer(Vec::new());
    let csv_error = |e: csv::Error| AppError::Internal(e.to_string());
    out.write_record(["table", "hand", "line", "pass", "payer_seat", "payee_seat", "owed", "paid", "capped"])
        .map_err(csv_error)?;
    for (i, t) in sheet.transactions.iter().enumerate() {
        out.write_record([
            sheet.table_name.as_str(),
            &sheet.number.to_string(),
            &(i + 1).to_string(),
            &t.pass,
            &t.payer.to_string(),
            &t.payee.to_string(),
            &t.owed,
            &t.paid,
            if t.capped { "yes" } else { "no" },
        ])
        .map_err(csv_error)?;
    }
    out.write_record(["table", "hand", "seat", "player", "hand_result", "stack_start", "rake", "net", "stack_end"])
        .map_err(csv_error)?;
    for s in &sheet.seats {
        out.write_record([
            sheet.table_name.as_str(),
            &sheet.number.to_string(),
            &s.seat.to_string(),
            &s.player,
            &s.hand,
            &s.stack_start,
            &s.rake,
            &s.net,
            &s.stack_end,
        ])
        .map_err(csv_error)?;
    }
    let bytes = out.into_inner().map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(("Content-Disposition", format!("attachment; filename=\"table-{id}-hand-{number}.csv\"")))
        .body(bytes))
}
