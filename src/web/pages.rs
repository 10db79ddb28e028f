//! The dealer's pages (askama templates in `templates/`, CSS in `static/`):
//! the tables, a table's seats, and a hand's settlement sheet with JSON and
//! CSV downloads. Every value shown is escaped by the templates.

use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use serde_json::Value;

use super::auth::Identity;
use super::routes::{with_database, with_db};
use super::startup::AppState;
use crate::db::users::Role;
use crate::db::{hands, tables};
use crate::error::AppError;

/// The signed-in user's bar on every page: who, their links, the sign-out
/// form (with the session's form token).
pub struct Nav {
    pub username: String,
    pub display_name: String,
    pub floor: bool,
    pub accountant: bool,
    pub admin: bool,
    pub csrf: String,
}

impl Nav {
    pub fn of(identity: &Identity) -> Nav {
        let user = &identity.user;
        Nav {
            username: user.username.clone(),
            display_name: user.display_name.clone(),
            floor: user.has(Role::Floor),
            accountant: user.has(Role::Accountant),
            admin: user.has(Role::Admin),
            csrf: identity.csrf_token(),
        }
    }

    /// Nobody signed in (the sign-in and first-admin pages).
    pub fn anonymous(csrf: String) -> Nav {
        Nav {
            username: String::new(),
            display_name: String::new(),
            floor: false,
            accountant: false,
            admin: false,
            csrf,
        }
    }
}

/// A page answered with `status` (a form shown again with its problem).
pub fn page_with_status(
    page: impl actix_web::Responder,
    request: &actix_web::HttpRequest,
    status: actix_web::http::StatusCode,
) -> HttpResponse {
    let mut response = page.respond_to(request).map_into_boxed_body();
    *response.status_mut() = status;
    response
}

/// The words of an error that a form shows above itself (bad input, a
/// conflict, something missing, a refusal); any other error passes on.
pub fn form_problem(error: AppError) -> Result<String, AppError> {
    match error {
        AppError::Invalid(m) | AppError::Conflict(m) | AppError::NotFound(m) | AppError::Forbidden(m) => Ok(m),
        other => Err(other),
    }
}

/// The form token a form post carries.
pub fn form_token(fields: &[(String, String)]) -> Option<&str> {
    fields.iter().find(|(k, _)| k == "csrf_token").map(|(_, v)| v.as_str())
}

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
    nav: Nav,
    tables: Vec<tables::TableView>,
}

/// `GET /`: every table.
pub async fn tables_page(
    state: web::Data<AppState>,
    identity: Identity,
) -> Result<impl actix_web::Responder, AppError> {
    Ok(TablesPage { nav: Nav::of(&identity), tables: with_db(&state, tables::list_tables).await? })
}

struct SeatBox {
    number: i32,
    player: Option<String>,
    stack: String,
    dealer: bool,
    fantasyland: bool,
    /// "fantasyland this hand: 16 cards, exposure 9" (open-face table play).
    fantasyland_note: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "table.html")]
struct TablePage {
    nav: Nav,
    /// May start hands here.
    deals: bool,
    table: tables::TableView,
    seats: Vec<SeatBox>,
    last_committed: Option<i32>,
    problem: String,
}

/// `GET /tables/{id}`: the table as the dealer sees it.
pub async fn table_page(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
) -> Result<impl actix_web::Responder, AppError> {
    table_view(&state, &identity, path.into_inner(), String::new()).await
}

/// `POST /tables/{id}/start-hand` (a form): starts the next hand and opens
/// its entry; a problem comes back on the table page.
pub async fn start_hand_post(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    use actix_web::Responder;
    let id = path.into_inner();
    identity.check_csrf(form_token(&form))?;
    identity.require_table(id)?;
    let actor = identity.actor.clone();
    match with_database(&state, move |db| hands::start_hand(db, &actor, id, &hands::StartHandRequest::default())).await
    {
        Ok(hand) => Ok(see_other(&format!("/tables/{id}/hands/{}/entry", hand.number))),
        Err(AppError::Invalid(message)) | Err(AppError::Conflict(message)) => {
            Ok(table_view(&state, &identity, id, message).await?.respond_to(&request).map_into_boxed_body())
        }
        Err(other) => Err(other),
    }
}

/// `POST /tables/{id}/seats/{seat}/{seat|add-on|cash-out}` (forms on the
/// table page, the table's dealer or the floor): seats a player with a
/// buy-in, adds chips, or cashes the whole stack out; a problem comes back on
/// the table page.
pub async fn seat_post(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32, String)>,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    let (id, seat, action) = path.into_inner();
    identity.check_csrf(form_token(&form))?;
    identity.require_table(id)?;
    let field =
        |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim().to_string()).unwrap_or_default();
    let actor = identity.actor.clone();
    let outcome = match action.as_str() {
        "seat" => {
            let req = tables::SeatPlayerRequest { seat, player: field("player"), buy_in: field("amount") };
            with_database(&state, move |db| tables::seat_player(db, &actor, id, &req)).await
        }
        "add-on" => {
            let req = tables::AmountRequest { amount: field("amount") };
            with_database(&state, move |db| tables::add_on(db, &actor, id, seat, &req)).await
        }
        "cash-out" => with_database(&state, move |db| tables::cash_out(db, &actor, id, seat)).await,
        other => return Err(AppError::NotFound(format!("no such seat action: {other}"))),
    };
    match outcome {
        Ok(_) => Ok(see_other(&format!("/tables/{id}"))),
        Err(e) => {
            let page = table_view(&state, &identity, id, form_problem(e)?).await?;
            Ok(page_with_status(page, &request, actix_web::http::StatusCode::UNPROCESSABLE_ENTITY))
        }
    }
}

async fn table_view(
    state: &web::Data<AppState>,
    identity: &Identity,
    id: i64,
    problem: String,
) -> Result<TablePage, AppError> {
    let (table, open, last_committed) = with_db(state, move |c| {
        let table = tables::get_table(c, id)?;
        let open = table.open_hand.map(|n| hands::get_hand(c, id, n)).transpose()?;
        let last_committed = hands::last_committed_hand(c, id)?.map(|h| h.1);
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
                fantasyland_note: open
                    .as_ref()
                    .and_then(|h| h.seats.iter().find(|s| s.seat == number))
                    .map(fantasyland_note)
                    .unwrap_or_default(),
            }
        })
        .collect();
    Ok(TablePage { nav: Nav::of(identity), deals: identity.user.deals_at(id), table, seats, last_committed, problem })
}

/// What an open-face seat carries into the hand, in words ("" for none).
fn fantasyland_note(s: &hands::HandSeatView) -> String {
    let mut parts = Vec::new();
    if s.in_fantasyland {
        parts.push(match s.fantasyland_cards {
            Some(c) if c > 13 => format!("fantasyland: {c} cards, 13 placed, {} discarded", c - 13),
            _ => "fantasyland: 13 cards at once".to_string(),
        });
    }
    if let Some(e) = s.exposure_start {
        parts.push(format!("exposure carried: {e}"));
    }
    parts.join("; ")
}

struct RowForm {
    label: &'static str,
    field: &'static str,
    /// Cards the row needs (0: discards, any number).
    count: usize,
    value: String,
    note: String,
}

struct SeatForm {
    number: i32,
    player: String,
    stack: String,
    fantasyland: bool,
    fantasyland_note: String,
    rows: Vec<RowForm>,
    surrender: bool,
    claim: String,
    aces_bet: bool,
    /// Tournament penalties: early cards and missed turns (counts), a dead hand.
    early_cards: String,
    missed_turns: String,
    dead_hand: bool,
    note: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "entry.html")]
struct EntryPage {
    nav: Nav,
    table_name: String,
    hand: hands::HandView,
    seats: Vec<SeatForm>,
    specials: Vec<&'static str>,
    aces_bet: bool,
    /// Tournament rules: penalties per seat.
    tournament: bool,
    /// Players against the dealer (`banker`, `malayan`): the bank's hand can
    /// be set by the house way.
    bank: bool,
    /// The idempotency key a commit from this page carries.
    key: String,
    problem: String,
    /// (seat, hand in words, net, end, fouled)
    preview: Vec<(i64, String, String, String, bool)>,
}

const ROWS: [(&str, &str, usize); 3] = [("Front", "front", 3), ("Middle", "middle", 5), ("Back", "back", 5)];

/// The form's fields: `seat{N}.{field}` → value.
type Fields = std::collections::HashMap<String, String>;

fn entry_page_for(
    nav: Nav,
    table_name: String,
    hand: hands::HandView,
    fields: &Fields,
    key: String,
) -> Result<EntryPage, AppError> {
    let rules = crate::engine::preset(&hand.ruleset.preset)
        .ok_or_else(|| AppError::Internal(format!("unknown preset {}", hand.ruleset.preset)))?;
    let field = |seat: i32, name: &str| fields.get(&format!("seat{seat}.{name}")).cloned().unwrap_or_default();
    let seats = hand
        .seats
        .iter()
        .map(|s| {
            let mut rows: Vec<RowForm> = ROWS
                .iter()
                .map(|&(label, name, count)| RowForm {
                    label,
                    field: name,
                    count,
                    value: field(s.seat, name),
                    note: String::new(),
                })
                .collect();
            if rules.discards {
                rows.push(RowForm {
                    label: "Discards",
                    field: "discards",
                    count: 0,
                    value: field(s.seat, "discards"),
                    note: String::new(),
                });
            }
            SeatForm {
                number: s.seat,
                player: s.player.clone(),
                stack: s.stack_start.to_string(),
                fantasyland: s.in_fantasyland,
                fantasyland_note: fantasyland_note(s),
                rows,
                surrender: !field(s.seat, "surrender").is_empty(),
                claim: field(s.seat, "claim"),
                aces_bet: fields.is_empty() || !field(s.seat, "aces_bet").is_empty(),
                early_cards: field(s.seat, "early_cards"),
                missed_turns: field(s.seat, "missed_turns"),
                dead_hand: !field(s.seat, "dead_hand").is_empty(),
                note: String::new(),
            }
        })
        .collect();
    Ok(EntryPage {
        tournament: hand.ruleset.options["tournament"] == serde_json::json!(true),
        nav,
        table_name,
        seats,
        specials: rules.specials.iter().map(|(k, _)| k.name()).collect(),
        aces_bet: rules.aces_bet,
        bank: rules.structure == crate::engine::ruleset::Structure::Bank,
        key,
        problem: String::new(),
        preview: Vec::new(),
        hand,
    })
}

/// A fresh idempotency key for a page's commit.
fn new_key(table: i64, number: i32) -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("entry-{table}-{number}-{nanos:x}")
}

/// `GET /tables/{id}/hands/{n}/entry`: key in the showdown of an open hand
/// (a committed hand goes to its sheet). Works without JavaScript; with it,
/// checks are live and the scanner and picker appear.
pub async fn entry_page(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    identity: Identity,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    use actix_web::Responder;
    let (id, number) = path.into_inner();
    identity.require_table(id)?;
    let (table, hand) =
        with_db(&state, move |c| Ok((tables::get_table(c, id)?, hands::get_hand(c, id, number)?))).await?;
    if hand.status != "open" {
        return Ok(see_other(&format!("/tables/{id}/hands/{number}/sheet")));
    }
    let page = entry_page_for(Nav::of(&identity), table.name, hand, &Fields::new(), new_key(id, number))?;
    Ok(page.respond_to(&request).map_into_boxed_body())
}

fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header(("Location", location.to_string())).finish()
}

/// The showdown the form describes, seat by seat for the seats dealt in.
fn showdown_from(hand: &hands::HandView, fields: &Fields) -> hands::ShowdownRequest {
    let field = |seat: i32, name: &str| fields.get(&format!("seat{seat}.{name}")).map(|v| v.trim().to_string());
    let text = |seat: i32, name: &str| field(seat, name).filter(|v| !v.is_empty());
    let seats = hand
        .seats
        .iter()
        .map(|s| crate::engine::showdown::SeatInput {
            seat: s.seat as u32,
            front: Some(field(s.seat, "front").unwrap_or_default()),
            middle: Some(field(s.seat, "middle").unwrap_or_default()),
            back: Some(field(s.seat, "back").unwrap_or_default()),
            surrender: text(s.seat, "surrender").is_some(),
            claim: text(s.seat, "claim"),
            aces_bet: text(s.seat, "aces_field").map(|_| text(s.seat, "aces_bet").is_some()),
            discards: text(s.seat, "discards"),
            penalties: penalties_from(&|name| text(s.seat, name)),
            ..Default::default()
        })
        .collect();
    hands::ShowdownRequest { seats, pair_units: None }
}

/// A seat's tournament penalties from the form: `early_cards` and
/// `missed_turns` counts (up to 13; anything else counts as none and the
/// count is kept for the engine to refuse) and a `dead_hand` box.
fn penalties_from(text: &dyn Fn(&str) -> Option<String>) -> Option<Vec<String>> {
    let count = |name: &str| text(name).and_then(|v| v.parse::<usize>().ok()).unwrap_or(0).min(13);
    let mut penalties = Vec::new();
    penalties.extend(std::iter::repeat_n("early-card".to_string(), count("early_cards")));
    penalties.extend(std::iter::repeat_n("missed-turn".to_string(), count("missed_turns")));
    if text("dead_hand").is_some() {
        penalties.push("dead-hand".to_string());
    }
    (!penalties.is_empty()).then_some(penalties)
}

/// Puts an error next to the row it names ("seat 2 middle …"), or on top.
fn place_error(page: &mut EntryPage, message: String) {
    let named = ["front", "middle", "back", "discards"]
        .iter()
        .flat_map(|row| {
            page.seats
                .iter()
                .map(move |s| (s.number, *row))
                .filter_map(|(seat, row)| message.rfind(&format!("seat {seat} {row}")).map(|at| (at, seat, row)))
        })
        .max();
    match named.and_then(|(_, seat, row)| {
        page.seats.iter_mut().find(|s| s.number == seat)?.rows.iter_mut().find(|r| r.field == row)
    }) {
        Some(row) => row.note = message,
        None => page.problem = message,
    }
}

/// `POST /tables/{id}/hands/{n}/entry` (a form, without JavaScript):
/// `action=preview` checks and previews; `action=commit` commits and goes to
/// the sheet. Any problem comes back on the same page next to its row.
pub async fn entry_post(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: web::Form<Vec<(String, String)>>,
    identity: Identity,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    use actix_web::Responder;
    let (id, number) = path.into_inner();
    identity.check_csrf(form_token(&form))?;
    identity.require_table(id)?;
    let fields: Fields = form.into_inner().into_iter().collect();
    let (table, hand) =
        with_db(&state, move |c| Ok((tables::get_table(c, id)?, hands::get_hand(c, id, number)?))).await?;
    if hand.status != "open" {
        return Ok(see_other(&format!("/tables/{id}/hands/{number}/sheet")));
    }
    let showdown = showdown_from(&hand, &fields);
    let key =
        fields.get("key").filter(|k| !k.is_empty() && k.len() <= 200).cloned().unwrap_or_else(|| new_key(id, number));
    let mut page = entry_page_for(Nav::of(&identity), table.name, hand, &fields, key.clone())?;
    let commit = fields.get("action").map(String::as_str) == Some("commit");
    let outcome = if commit {
        let actor = identity.actor.clone();
        with_database(&state, move |db| hands::commit(db, &actor, id, number, &showdown, Some(&key)).map(|_| None))
            .await
    } else {
        with_db(&state, move |c| hands::preview(c, id, number, &showdown).map(Some)).await
    };
    match outcome {
        Ok(None) => return Ok(see_other(&format!("/tables/{id}/hands/{number}/sheet"))),
        Ok(Some(result)) => {
            for s in &result.seats {
                let words = if s.surrendered {
                    "surrendered".to_string()
                } else if let Some(special) = s.special {
                    format!("special: {special}")
                } else if let Some(reason) = &s.foul_reason {
                    format!("fouled: {reason}")
                } else {
                    "set".to_string()
                };
                if let (Some(reason), false) = (&s.foul_reason, s.surrendered) {
                    if let Some(seat) = page.seats.iter_mut().find(|x| x.number as u32 == s.seat) {
                        seat.note = format!("Foul: {reason}");
                    }
                }
                page.preview.push((
                    s.seat as i64,
                    words,
                    format!("{:.2}", s.net),
                    format!("{:.2}", s.stack_end),
                    s.fouled,
                ));
            }
        }
        Err(AppError::Invalid(message)) | Err(AppError::Conflict(message)) => place_error(&mut page, message),
        Err(other) => return Err(other),
    }
    Ok(page.respond_to(&request).map_into_boxed_body())
}

struct SheetSeat {
    seat: i64,
    player: String,
    /// front / middle / back as committed.
    cards: String,
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
    nav: Nav,
    sheet: Sheet,
    /// May void the hand (floor).
    can_void: bool,
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
    let input: Value = match &hand.showdown {
        Some(raw) => serde_json::from_str(raw.get()).map_err(|e| AppError::Internal(e.to_string()))?,
        None => Value::Null,
    };
    let cards_of = |seat: i64| -> String {
        let Some(s) = input["seats"].as_array().and_then(|a| a.iter().find(|s| s["seat"].as_i64() == Some(seat)))
        else {
            return String::new();
        };
        match s["cards"].as_str() {
            Some(cards) => cards.to_string(),
            None => ["front", "middle", "back"].map(|r| s[r].as_str().unwrap_or("")).join(" / "),
        }
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
                cards: cards_of(seat),
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
        void_reason: hand.void_reason.as_ref().map(|code| {
            let words = hands::VOID_REASONS.iter().find(|(c, _)| c == code).map_or(code.as_str(), |(_, w)| *w);
            format!("{words}: {}", hand.void_note.clone().unwrap_or_default())
        }),
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
    identity: Identity,
) -> Result<impl actix_web::Responder, AppError> {
    let (id, number) = path.into_inner();
    let sheet = load_sheet(&state, id, number).await?;
    Ok(SheetPage {
        nav: Nav::of(&identity),
        can_void: identity.user.has(Role::Floor) && sheet.status != "voided",
        sheet,
    })
}

/// `POST /tables/{id}/hands/{n}/void` (a form, floor): voids the hand with a
/// reason code and a note, then shows its sheet.
pub async fn void_post(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: web::Form<Vec<(String, String)>>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Floor])?;
    let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default();
    let req = hands::VoidRequest { reason: field("reason"), note: field("note") };
    let actor = identity.actor.clone();
    with_database(&state, move |db| hands::void(db, &actor, id, number, &req)).await?;
    Ok(see_other(&format!("/tables/{id}/hands/{number}/sheet")))
}

/// `GET /tables/{id}/hands/{n}/sheet.json`: the stored result, as a download.
pub async fn sheet_json(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
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
pub async fn sheet_csv(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let sheet = load_sheet(&state, id, number).await?;
    // Two sections of different widths (transactions, then seats).
    let mut out = csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
    let csv_error = |e: csv::Error| AppError::Internal(e.to_string());
    out.write_record(["table", "hand", "line", "pass", "payer_seat", "payee_seat", "owed", "paid", "capped"])
        .map_err(csv_error)?;
    for (i, t) in sheet.transactions.iter().enumerate() {
        out.write_record([
            super::csv_text(&sheet.table_name).as_str(),
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
    out.write_record([
        "table",
        "hand",
        "seat",
        "player",
        "hand_result",
        "stack_start",
        "rake",
        "net",
        "stack_end",
        "cards",
    ])
    .map_err(csv_error)?;
    for s in &sheet.seats {
        out.write_record([
            &super::csv_text(&sheet.table_name),
            &sheet.number.to_string(),
            &s.seat.to_string(),
            &super::csv_text(&s.player),
            &s.hand,
            &s.stack_start,
            &s.rake,
            &s.net,
            &s.stack_end,
            &s.cards,
        ])
        .map_err(csv_error)?;
    }
    let bytes = out.into_inner().map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(("Content-Disposition", format!("attachment; filename=\"table-{id}-hand-{number}.csv\"")))
        .body(bytes))
}
