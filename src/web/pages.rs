//! The dealer's pages (askama templates in `templates/`, CSS in `static/`):
//! the tables, a table's seats, and a hand's settlement sheet with JSON and
//! CSV downloads. Every value shown is escaped by the templates.

use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

use super::auth::Identity;
use super::bodies::{AmountBody, SeatPlayerBody};
use super::dealer;
use super::extract::{with_database, with_db};
use super::helpers::{
    field, flash, form_again, form_problem, form_token, optional, page_with_status, see_other, CsvFile, Nav,
};
use super::state::AppState;
use crate::domain::{AppError, HandNumber, HandStatus, HitStatus, Money, Role, SeatNo, TableId, VoidReason};
use crate::service::{hands, players, tables};

/// The stylesheets, built into the binary from `static/`.
const STATIC_FILES: &[(&str, &str, &str)] = &[
    ("pitboss.css", "text/css; charset=utf-8", include_str!("../../static/pitboss.css")),
    ("print.css", "text/css; charset=utf-8", include_str!("../../static/print.css")),
    ("dealer.js", "text/javascript; charset=utf-8", include_str!("../../static/dealer.js")),
    ("forms.js", "text/javascript; charset=utf-8", include_str!("../../static/forms.js")),
    ("board.js", "text/javascript; charset=utf-8", include_str!("../../static/board.js")),
];

/// `GET /static/{file}`.
pub async fn static_file(path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let name = path.into_inner();
    let (_, content_type, body) = STATIC_FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| AppError::not_found("no_file", format!("no such file: /static/{name}")))?;
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
    number: SeatNo,
    player: Option<String>,
    stack: String,
    dealer: bool,
    fantasyland: bool,
    /// "fantasyland this hand: 16 cards, exposure 9" (open-face table play).
    fantasyland_note: String,
    /// A refusal of a form of this seat, in words.
    problem: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "table.html")]
struct TablePage {
    nav: Nav,
    /// May start hands here.
    deals: bool,
    table: tables::TableView,
    seats: Vec<SeatBox>,
    last_committed: Option<HandNumber>,
    /// The floor closed the table: no hand starts, nobody sits.
    closed: bool,
    problem: String,
    /// The seat the problem belongs to (shown in that seat's box).
    problem_seat: Option<SeatNo>,
    /// Returning players to choose from in an open seat's form (the most
    /// recently seated; none when no seat is open).
    players: Vec<players::PlayerView>,
}

/// Players offered in an open seat's form.
const PLAYERS_OFFERED: i64 = 100;

/// `GET /tables/{id}`: the table as the dealer sees it.
pub async fn table_page(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
) -> Result<impl actix_web::Responder, AppError> {
    table_view(&state, &identity, path.into_inner(), String::new(), None).await
}

/// `POST /tables/{id}/start-hand` (a form): starts the next hand and opens
/// its entry; a problem comes back on the table page.
pub async fn start_hand_post(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    identity.check_csrf(form_token(&form))?;
    identity.require_table(id)?;
    let actor = identity.actor.clone();
    match with_database(&state, move |db| hands::start_hand(db, &actor, id, hands::StartHandRequest::default())).await {
        Ok(hand) => Ok(see_other(&format!("/tables/{id}/hands/{}/entry", hand.number))),
        Err(e) => {
            let problem = form_problem(e)?;
            let page = table_view(&state, &identity, id, problem.message.clone(), None).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}

/// A cash-out asked for: the confirmation naming player and amount.
#[derive(Template, WebTemplate)]
#[template(path = "cash_out.html")]
struct CashOutPage {
    nav: Nav,
    table_id: TableId,
    table_name: String,
    seat: SeatNo,
    player: String,
    amount: Money,
}

/// `POST /tables/{id}/seats/{seat}/{seat|add-on|cash-out}` (forms on the
/// table page, the table's dealer or the floor): seats a player with a
/// buy-in, adds chips, or cashes the whole stack out: first a confirmation
/// naming player and amount, then (with `confirm=yes`) the cash-out, and on
/// to its slip (`cash_out_slip_page`). A problem comes back on the table
/// page, in the seat's box.
pub async fn seat_post(
    state: web::Data<AppState>,
    path: web::Path<(TableId, SeatNo, String)>,
    identity: Identity,
    session: actix_session::Session,
    form: web::Form<Vec<(String, String)>>,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    let (id, seat, action) = path.into_inner();
    identity.check_csrf(form_token(&form))?;
    identity.require_table(id)?;
    let value = |name: &str| field(&form, name).trim().to_string();
    let actor = identity.actor.clone();
    let outcome = match action.as_str() {
        "seat" => match seat_body(&form, seat).and_then(SeatPlayerBody::parse) {
            Ok(req) => with_database(&state, move |db| tables::seat_player(db, &actor, id, req)).await.map(|_| None),
            Err(e) => Err(e),
        },
        "add-on" => match (AmountBody { amount: value("amount") }).parse() {
            Ok(amount) => {
                with_database(&state, move |db| tables::add_on(db, &actor, id, seat, amount)).await.map(|_| None)
            }
            Err(e) => Err(e),
        },
        "cash-out" => cash_out(&state, &identity, &session, id, seat, value("confirm") == "yes").await.map(Some),
        other => return Err(AppError::not_found("no_route", format!("no such seat action: {other}"))),
    };
    match outcome {
        Ok(None) => Ok(see_other(&format!("/tables/{id}"))),
        Ok(Some(CashOut::Ask(page))) => {
            Ok(not_stored(page_with_status(page, &request, actix_web::http::StatusCode::OK)))
        }
        Ok(Some(CashOut::Done(slip))) => Ok(see_other(&slip)),
        Err(e) => {
            let problem = form_problem(e)?;
            let page = table_view(&state, &identity, id, problem.message.clone(), Some(seat)).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}

/// The seat form: a returning player chosen from the list (`player_id`) or
/// by their member number, or a new player's name.
fn seat_body(form: &[(String, String)], seat: SeatNo) -> Result<SeatPlayerBody, AppError> {
    let player_id = match optional(form, "player_id") {
        None => None,
        Some(p) => Some(
            p.parse::<i64>()
                .map_err(|_| AppError::invalid("bad_player", "choose a player from the list").at_field("player_id"))?,
        ),
    };
    Ok(SeatPlayerBody {
        seat: seat.get(),
        player: optional(form, "player"),
        player_id,
        member_no: optional(form, "member_no"),
        buy_in: field(form, "amount").trim().to_string(),
    })
}

/// A cash-out form's outcome: the confirmation to show, or the slip's address.
enum CashOut {
    Ask(CashOutPage),
    Done(String),
}

/// The cash-out of a seat: its confirmation, or (`confirmed`) the cash-out
/// itself, with a notice, on to its slip.
async fn cash_out(
    state: &web::Data<AppState>,
    identity: &Identity,
    session: &actix_session::Session,
    id: TableId,
    seat: SeatNo,
    confirmed: bool,
) -> Result<CashOut, AppError> {
    let table = with_db(state, move |c| tables::get_table(c, id)).await?;
    let seated = table.seats.iter().find(|s| s.seat == seat).ok_or_else(|| {
        AppError::not_found("seat_empty", format!("seat {seat} is empty: there is nothing to cash out"))
            .at_seat(seat.engine())
    })?;
    if !confirmed {
        return Ok(CashOut::Ask(CashOutPage {
            nav: Nav::of(identity),
            table_id: id,
            table_name: table.name.clone(),
            seat,
            player: seated.player.clone(),
            amount: seated.stack,
        }));
    }
    let (actor, seating) = (identity.actor.clone(), seated.seating_id);
    let entry = with_database(state, move |db| {
        tables::cash_out(db, &actor, id, seat)?;
        crate::db::ledger::cash_out_entry(&mut *db.conn()?, seating)?
            .ok_or_else(|| AppError::internal("the cash-out has no ledger row"))
    })
    .await?;
    flash(
        session,
        format!("{} cashed out from seat {seat}: {}. Print the slip for signatures.", seated.player, seated.stack),
    );
    Ok(CashOut::Done(format!("/tables/{id}/cash-outs/{entry}/slip")))
}

/// A cash-out's slip, printable: the table's dealer or the floor.
#[derive(Template, WebTemplate)]
#[template(path = "cash_out_slip.html")]
struct CashOutSlipPage {
    nav: Nav,
    slip: tables::CashOutSlip,
    /// When, in the table's time zone.
    at: String,
    seated_at: String,
}

/// `GET /tables/{id}/cash-outs/{entry}/slip`: the slip of the cash-out that
/// ledger row `entry` records (the table's dealer, the floor).
pub async fn cash_out_slip_page(
    state: web::Data<AppState>,
    path: web::Path<(TableId, crate::domain::EntryId)>,
    identity: Identity,
    session: actix_session::Session,
) -> Result<impl actix_web::Responder, AppError> {
    let (id, entry) = path.into_inner();
    identity.require_table(id)?;
    let slip = with_db(&state, move |c| tables::cash_out_slip(c, id, entry)).await?;
    Ok(CashOutSlipPage {
        nav: Nav::of(&identity).with_notice(&session),
        at: dealer::local_time(slip.at.and_utc(), &slip.time_zone),
        seated_at: dealer::local_time(slip.seated_at.and_utc(), &slip.time_zone),
        slip,
    })
}

async fn table_view(
    state: &web::Data<AppState>,
    identity: &Identity,
    id: TableId,
    problem: String,
    problem_seat: Option<SeatNo>,
) -> Result<TablePage, AppError> {
    let can_seat = identity.user.deals_at(id) || identity.user.has(Role::Floor);
    let (table, open, last_committed, offered, closed) = with_db(state, move |c| {
        let table = tables::get_table(c, id)?;
        let open = table.open_hand.map(|n| hands::get_hand(c, id, n)).transpose()?;
        let last_committed = hands::last_committed(c, id)?;
        let seat_open = (table.seats.len() as i32) < table.seat_count;
        let offered = if can_seat && seat_open { players::list_players(c, "", PLAYERS_OFFERED)? } else { Vec::new() };
        let closed = tables::table_status(c, id)? == crate::domain::TableStatus::Closed;
        Ok((table, open, last_committed, offered, closed))
    })
    .await?;
    let seats = (1..=table.seat_count)
        .map(SeatNo)
        .map(|number| {
            let seated = table.seats.iter().find(|s| s.seat == number);
            let in_hand = open.as_ref().and_then(|h| h.seats.iter().find(|s| s.seat == number));
            SeatBox {
                number,
                player: seated.map(|s| s.player.clone()),
                stack: seated.map(|s| s.stack.to_string()).unwrap_or_default(),
                dealer: table.dealer_seat == Some(number),
                fantasyland: in_hand.is_some_and(|s| s.in_fantasyland),
                fantasyland_note: in_hand.map(fantasyland_note).unwrap_or_default(),
                problem: if problem_seat == Some(number) { problem.clone() } else { String::new() },
            }
        })
        .collect();
    Ok(TablePage {
        nav: Nav::of(identity),
        deals: identity.user.deals_at(id),
        table,
        seats,
        last_committed,
        closed,
        problem,
        problem_seat,
        players: offered,
    })
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
    /// Its problems, in words ("" for none).
    note: String,
}

struct SeatForm {
    number: SeatNo,
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

/// A seat of the preview (the page without JavaScript).
struct PreviewRow {
    seat: u32,
    player: String,
    cards: Vec<Vec<dealer::CardText>>,
    words: String,
    net: Money,
    end: Money,
    fouled: bool,
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
    /// Copies of each card in the deck (2 with `double_deck`).
    copies: usize,
    /// The jackpot pool the table feeds: (name, balance).
    pool: Option<(String, Money)>,
    /// The idempotency key a commit from this page carries.
    key: String,
    /// Every problem, summed up beside Commit.
    problems: Vec<String>,
    preview: Vec<PreviewRow>,
    /// Jackpot triggers of the preview, in words.
    jackpot: Vec<String>,
    /// The hand is no longer open: what happened to it, in words.
    closed: String,
}

impl EntryPage {
    /// Puts a problem beside Commit, and next to every row it names (or its
    /// seat, for a seat without a row of its own).
    fn add_problem(&mut self, text: String, at: &[(u32, Option<&str>)]) {
        for (seat, row) in at {
            let Some(s) = self.seats.iter_mut().find(|s| s.number.engine() == *seat) else { continue };
            let note = match s.rows.iter_mut().find(|r| Some(r.field) == *row) {
                Some(r) => &mut r.note,
                None => &mut s.note,
            };
            if !note.is_empty() {
                note.push_str("; ");
            }
            note.push_str(&text);
        }
        self.problems.push(text);
    }
}

const ROWS: [(&str, &str, usize); 3] = [("Front", "front", 3), ("Middle", "middle", 5), ("Back", "back", 5)];

/// The form's fields: `seat{N}.{field}` → value.
type Fields = std::collections::HashMap<String, String>;

fn entry_page_for(
    nav: Nav,
    table: &tables::TableView,
    hand: hands::HandView,
    fields: &Fields,
    key: String,
) -> Result<EntryPage, AppError> {
    let revision = u32::try_from(hand.ruleset.revision).unwrap_or(1);
    let rules = crate::engine::ruleset::preset_at(&hand.ruleset.preset, revision)
        .ok_or_else(|| AppError::internal(format!("unknown preset {}", hand.ruleset.preset)))?;
    let options = crate::engine::options::TableOptions::from_json(&hand.ruleset.options, rules).unwrap_or_default();
    let field = |seat: SeatNo, name: &str| fields.get(&format!("seat{seat}.{name}")).cloned().unwrap_or_default();
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
    let closed = match hand.status {
        HandStatus::Open => String::new(),
        HandStatus::Voided => format!("Hand #{} was voided by the floor; nothing here can be committed.", hand.number),
        HandStatus::Committed => format!(
            "Hand #{} is already committed: a floor supervisor can void it; its sheet has the settlement.",
            hand.number
        ),
    };
    Ok(EntryPage {
        tournament: hand.ruleset.options["tournament"] == serde_json::json!(true),
        copies: if options.double_deck { 2 } else { 1 },
        pool: table.pool.as_ref().map(|p| (p.name.clone(), p.balance)),
        nav,
        table_name: table.name.clone(),
        seats,
        specials: options.specials(rules).iter().map(|(k, _)| k.name()).collect(),
        aces_bet: rules.aces_bet,
        bank: rules.structure == crate::engine::ruleset::Structure::Bank,
        key,
        problems: Vec::new(),
        preview: Vec::new(),
        jackpot: Vec::new(),
        closed,
        hand,
    })
}

/// A fresh idempotency key for a page's commit.
fn new_key(table: TableId, number: HandNumber) -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("entry-{table}-{number}-{nanos:x}")
}

/// A page the browser does not keep: Back after a commit asks again (and
/// lands on the sheet) rather than showing a page that still offers Commit.
fn not_stored(mut response: HttpResponse) -> HttpResponse {
    response
        .headers_mut()
        .insert(actix_web::http::header::CACHE_CONTROL, actix_web::http::header::HeaderValue::from_static("no-store"));
    response
}

/// `GET /tables/{id}/hands/{n}/entry`: key in the showdown of an open hand
/// (a committed hand goes to its sheet). Works without JavaScript; with it,
/// checks are live and the scanner and picker appear.
pub async fn entry_page(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    identity: Identity,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    use actix_web::Responder;
    let (id, number) = path.into_inner();
    identity.require_table(id)?;
    let (table, hand) =
        with_db(&state, move |c| Ok((tables::get_table(c, id)?, hands::get_hand(c, id, number)?))).await?;
    if hand.status != HandStatus::Open {
        return Ok(see_other(&format!("/tables/{id}/hands/{number}/sheet")));
    }
    let page = entry_page_for(Nav::of(&identity), &table, hand, &Fields::new(), new_key(id, number))?;
    Ok(not_stored(page.respond_to(&request).map_into_boxed_body()))
}

/// The showdown the form describes, seat by seat for the seats dealt in
/// (card text spaced as the engine reads it: `qhqd7c` is `qh qd 7c`).
fn showdown_from(hand: &hands::HandView, fields: &Fields) -> hands::ShowdownRequest {
    let field = |seat: SeatNo, name: &str| fields.get(&format!("seat{seat}.{name}")).map(|v| v.trim().to_string());
    let text = |seat: SeatNo, name: &str| field(seat, name).filter(|v| !v.is_empty());
    let cards = |seat: SeatNo, name: &str| Some(dealer::spaced(&field(seat, name).unwrap_or_default()));
    let seats = hand
        .seats
        .iter()
        .map(|s| crate::engine::showdown::SeatInput {
            seat: s.seat.engine(),
            front: cards(s.seat, "front"),
            middle: cards(s.seat, "middle"),
            back: cards(s.seat, "back"),
            surrender: text(s.seat, "surrender").is_some(),
            claim: text(s.seat, "claim"),
            aces_bet: text(s.seat, "aces_field").map(|_| text(s.seat, "aces_bet").is_some()),
            discards: text(s.seat, "discards").map(|d| dealer::spaced(&d)),
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

/// The problems of the typed rows, found before anything is sent (each
/// knows its seat and row).
fn typed_problems(page: &EntryPage) -> Vec<dealer::Problem> {
    let rows: Vec<dealer::TypedRow> = page
        .seats
        .iter()
        .flat_map(|s| {
            s.rows.iter().map(move |r| dealer::TypedRow {
                seat: s.number.engine(),
                row: r.field,
                text: &r.value,
                count: r.count,
            })
        })
        .collect();
    dealer::row_problems(&rows, page.copies)
}

/// A jackpot trigger of a preview in words, with the pool it would lock.
fn trigger_words(
    t: &crate::engine::scoring::JackpotTrigger,
    name: &dyn Fn(u32) -> String,
    pool: &Option<(String, Money)>,
) -> String {
    let mut kind: String = t.kind.replace('-', " ");
    if let Some(first) = kind.get(..1) {
        kind = first.to_uppercase() + &kind[1..];
    }
    let locks = match pool {
        Some((pool, balance)) => format!("the pool {pool} ({balance}) is locked for them"),
        None => "the table feeds no pool: nothing is locked".to_string(),
    };
    format!(
        "{kind} jackpot: {} loses to {}. At commit {locks}; it is paid after two floor sign-offs.",
        name(t.loser),
        name(t.winner)
    )
}

/// `POST /tables/{id}/hands/{n}/entry` (a form, without JavaScript):
/// `action=preview` checks and previews; `action=commit` commits and goes to
/// the sheet. Any problem comes back on the same page next to its row (by
/// the seat and row it names, never read out of its words) and beside
/// Commit, with every value kept. A commit of a hand no longer open is still
/// sent: the same showdown goes to the sheet, another one is refused (409)
/// and said so.
pub async fn entry_post(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    form: web::Form<Vec<(String, String)>>,
    identity: Identity,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    use actix_web::http::StatusCode;
    let (id, number) = path.into_inner();
    identity.check_csrf(form_token(&form))?;
    identity.require_table(id)?;
    let fields: Fields = form.into_inner().into_iter().collect();
    let (table, hand) =
        with_db(&state, move |c| Ok((tables::get_table(c, id)?, hands::get_hand(c, id, number)?))).await?;
    let commit = fields.get("action").map(String::as_str) == Some("commit");
    let key = fields
        .get("key")
        .filter(|k| !k.is_empty() && k.len() <= 200 && !k.chars().any(char::is_control))
        .cloned()
        .unwrap_or_else(|| new_key(id, number));
    let showdown = showdown_from(&hand, &fields);
    let names: std::collections::HashMap<u32, String> =
        hand.seats.iter().map(|s| (s.seat.engine(), format!("seat {} ({})", s.seat, s.player))).collect();
    let mut page = entry_page_for(Nav::of(&identity), &table, hand, &fields, key.clone())?;
    let answer = |page: EntryPage, status: StatusCode| Ok(not_stored(page_with_status(page, &request, status)));
    if !commit && !page.closed.is_empty() {
        return answer(page, StatusCode::CONFLICT);
    }
    let typed = typed_problems(&page);
    if !typed.is_empty() {
        for p in typed {
            let at: Vec<(u32, Option<&str>)> = p.at.iter().map(|(seat, row)| (*seat, Some(*row))).collect();
            page.add_problem(p.text, &at);
        }
        return answer(page, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let outcome = if commit {
        let actor = identity.actor.clone();
        with_database(&state, move |db| hands::commit(db, &actor, id, number, showdown, Some(key)).map(|_| None)).await
    } else {
        with_db(&state, move |c| hands::preview(c, id, number, &showdown).map(Some)).await
    };
    let result = match outcome {
        Ok(None) => return Ok(see_other(&format!("/tables/{id}/hands/{number}/sheet"))),
        Ok(Some(result)) => result,
        Err(e) => {
            let e = form_problem(e)?;
            let at: Vec<(u32, Option<&str>)> =
                e.place.seat.map(|seat| (seat, e.place.row.as_deref())).into_iter().collect();
            page.add_problem(e.message.clone(), &at);
            return Ok(not_stored(form_again(page, &request, &e)));
        }
    };
    let name = |seat: u32| names.get(&seat).cloned().unwrap_or_else(|| format!("seat {seat}"));
    for s in &result.seats {
        let words = if s.surrendered {
            "surrendered".to_string()
        } else if let Some(special) = s.special {
            format!("special: {special}")
        } else if s.fouled {
            "FOUL".to_string()
        } else {
            "set".to_string()
        };
        let (player, cards) = match page.seats.iter_mut().find(|x| x.number.engine() == s.seat) {
            Some(seat) => {
                if let (Some(reason), false) = (&s.foul_reason, s.surrendered) {
                    seat.note = format!("Foul: {reason}");
                }
                let cards = seat.rows.iter().filter(|r| r.count > 0).map(|r| dealer::card_texts(&r.value)).collect();
                (seat.player.clone(), cards)
            }
            None => (String::new(), Vec::new()),
        };
        page.preview.push(PreviewRow {
            seat: s.seat,
            player,
            cards,
            words,
            net: Money::from_decimal(s.net).unwrap_or_default(),
            end: Money::from_decimal(s.stack_end).unwrap_or_default(),
            fouled: s.fouled,
        });
    }
    page.jackpot = result.jackpot_triggers.iter().map(|t| trigger_words(t, &name, &page.pool)).collect();
    answer(page, StatusCode::OK)
}

struct SheetSeat {
    seat: u32,
    player: String,
    /// front / middle / back as committed (the CSV's text).
    cards: String,
    /// The same, row by row, each card in its suit's colour.
    card_rows: Vec<Vec<dealer::CardText>>,
    hand: String,
    fouled: bool,
    stack_start: Money,
    rake: Money,
    net: Money,
    stack_end: Money,
}

struct SheetTransaction {
    pass: String,
    payer: u32,
    payee: u32,
    /// "Ann (seat 1)".
    payer_name: String,
    payee_name: String,
    owed: Money,
    paid: Money,
    capped: bool,
    /// Why a capped payment was cut, in words.
    cap_reason: String,
}

struct Sheet {
    table_id: TableId,
    table_name: String,
    number: HandNumber,
    preset: String,
    version: i32,
    unit: Money,
    dealer_seat: u32,
    status: HandStatus,
    void_reason: Option<String>,
    /// In the table's time zone.
    started_at: String,
    /// Voided before its showdown: no settlement, no money moved.
    no_settlement: bool,
    seats: Vec<SheetSeat>,
    transactions: Vec<SheetTransaction>,
    rake_total: Money,
    jackpot_contribution: Money,
    hits: Vec<String>,
    /// A hit of the hand has been signed off (approved, verified or
    /// rejected): the hand can no longer be voided.
    hit_signed_off: bool,
    /// Pairs that played for their own unit (the table's ruleset), in words.
    pair_stakes: String,
    /// The table's hand in progress, if any, and its last hand.
    open_hand: Option<HandNumber>,
    last_hand: HandNumber,
}

#[derive(Template, WebTemplate)]
#[template(path = "sheet.html")]
struct SheetPage {
    nav: Nav,
    sheet: Sheet,
    /// May void the hand (floor, and the void can work now).
    can_void: bool,
    /// Why the floor cannot void it now ("" when they can, or are not floor).
    no_void: String,
    /// May start hands at this table.
    deals: bool,
    /// A void that was refused, in words.
    problem: String,
}

impl SheetPage {
    fn of(identity: &Identity, sheet: Sheet, problem: String) -> SheetPage {
        let floor = identity.user.has(Role::Floor);
        let no_void = match sheet.open_hand {
            _ if !floor || sheet.status == HandStatus::Voided => String::new(),
            _ if sheet.hit_signed_off => {
                "A jackpot hit of this hand has been signed off: the hand can no longer be voided.".to_string()
            }
            Some(open) if open != sheet.number => format!("Hand #{open} is in progress: void this hand between hands."),
            _ => String::new(),
        };
        SheetPage {
            nav: Nav::of(identity),
            can_void: floor && sheet.status != HandStatus::Voided && no_void.is_empty(),
            no_void,
            deals: identity.user.deals_at(sheet.table_id),
            sheet,
            problem,
        }
    }
}

async fn load_sheet(state: &web::Data<AppState>, id: TableId, number: HandNumber) -> Result<Sheet, AppError> {
    let (table, hand) =
        with_db(state, move |c| Ok((tables::get_table(c, id)?, hands::get_hand(c, id, number)?))).await?;
    let result = hand.stored_result()?;
    let no_settlement = result.is_none() && hand.status == HandStatus::Voided;
    if result.is_none() && !no_settlement {
        return Err(AppError::conflict(
            "not_committed",
            format!("hand {number} has no settlement yet (it is {})", hand.status),
        ));
    }
    let input = hand.stored_showdown()?;
    let rows_of = |seat: u32| -> Vec<String> {
        let Some(s) = input.as_ref().and_then(|i| i.seats.iter().find(|s| s.seat == seat)) else {
            return Vec::new();
        };
        let mut rows = match &s.cards {
            Some(cards) => vec![cards.clone()],
            None => [&s.front, &s.middle, &s.back].map(|r| r.clone().unwrap_or_default()).to_vec(),
        };
        rows.extend(s.discards.clone().filter(|d| !d.is_empty()));
        rows
    };
    let player_of = |seat: u32| hand.seats.iter().find(|h| h.seat.engine() == seat).map(|h| h.player.clone());
    let name = |seat: u32| match player_of(seat) {
        Some(player) => format!("{player} (seat {seat})"),
        None => format!("seat {seat}"),
    };
    let seats: Vec<SheetSeat> = match &result {
        // Voided before its showdown (a misdeal): the seats, no money moved.
        None => hand
            .seats
            .iter()
            .map(|s| SheetSeat {
                seat: s.seat.engine(),
                player: s.player.clone(),
                cards: String::new(),
                card_rows: Vec::new(),
                hand: "voided before the showdown".to_string(),
                fouled: false,
                stack_start: s.stack_start,
                rake: Money::ZERO,
                net: Money::ZERO,
                stack_end: s.stack_start,
            })
            .collect(),
        Some(result) => result
            .seats
            .iter()
            .map(|s| {
                let hand_words = if s.surrendered {
                    "surrendered".to_string()
                } else if let Some(special) = &s.special {
                    format!("special: {special}")
                } else if let Some(reason) = &s.foul_reason {
                    format!("fouled: {reason}")
                } else if s.royalties > 0 {
                    format!("royalties {}", s.royalties)
                } else {
                    "—".to_string()
                };
                let rows = rows_of(s.seat);
                SheetSeat {
                    seat: s.seat,
                    player: player_of(s.seat).unwrap_or_default(),
                    cards: rows.iter().take(3).cloned().collect::<Vec<_>>().join(" / "),
                    card_rows: rows.iter().map(|r| dealer::card_texts(r)).collect(),
                    hand: hand_words,
                    fouled: s.fouled,
                    stack_start: s.stack_start,
                    rake: s.rake,
                    net: s.net,
                    stack_end: s.stack_end,
                }
            })
            .collect(),
    };
    let stored = result.as_ref().map(|r| r.transactions.as_slice()).unwrap_or_default();
    // What each seat could win or lose when the settlement began.
    let exposure: Vec<(u32, Money)> = hand
        .seats
        .iter()
        .map(|s| (s.seat.engine(), s.exposure_start.unwrap_or(s.stack_start - hand.ruleset.rake_per_seat)))
        .collect();
    let payments: Vec<dealer::Payment> =
        stored.iter().map(|t| dealer::Payment { payer: t.payer, payee: t.payee, owed: t.owed, paid: t.paid }).collect();
    let reasons = dealer::cap_reasons(&exposure, &payments, name);
    let transactions = stored
        .iter()
        .zip(reasons)
        .map(|(t, reason)| SheetTransaction {
            pass: t.pass.clone(),
            payer: t.payer,
            payee: t.payee,
            payer_name: name(t.payer),
            payee_name: name(t.payee),
            owed: t.owed,
            paid: t.paid,
            capped: t.capped(),
            cap_reason: reason.unwrap_or_default(),
        })
        .collect();
    let rake_total = if no_settlement { Money::ZERO } else { hand.ruleset.rake_per_seat * hand.seats.len() as i64 };
    // The stakes the hand was scored with, from the showdown as committed.
    let pair_stakes = input
        .iter()
        .flat_map(|i| i.pair_units.iter().flatten())
        .map(|p| {
            let unit = match &p.unit {
                crate::engine::showdown::MoneyText::Text(t) => t.clone(),
                crate::engine::showdown::MoneyText::Number(n) => n.to_string(),
            };
            let unit = unit.parse().ok().and_then(Money::from_decimal).map_or(unit, |m| m.to_string());
            format!("seats {}–{} at {unit}", p.seats[0], p.seats[1])
        })
        .collect::<Vec<_>>()
        .join("; ");
    Ok(Sheet {
        table_id: id,
        number,
        preset: hand.ruleset.preset.clone(),
        version: hand.ruleset.version,
        unit: hand.ruleset.unit,
        dealer_seat: hand.dealer_seat.engine(),
        status: hand.status,
        void_reason: hand
            .void_reason
            .map(|code| format!("{}: {}", code.words(), hand.void_note.clone().unwrap_or_default())),
        started_at: dealer::local_time(hand.started_at, &table.time_zone),
        no_settlement,
        seats,
        transactions,
        rake_total,
        jackpot_contribution: result.as_ref().map_or(Money::ZERO, |r| r.jackpot_contribution),
        hits: hand
            .jackpot_hits
            .iter()
            .map(|h| {
                format!(
                    "{} hit {}: {} lost to {}, locked {} ({})",
                    h.kind,
                    h.id,
                    name(h.loser_seat.engine()),
                    name(h.winner_seat.engine()),
                    h.amount,
                    h.status
                )
            })
            .collect(),
        hit_signed_off: hand.jackpot_hits.iter().any(|h| !matches!(h.status, HitStatus::Pending | HitStatus::Voided)),
        pair_stakes,
        open_hand: table.open_hand,
        last_hand: table.hand_number,
        table_name: table.name,
    })
}

/// `GET /tables/{id}/hands/{n}/sheet`: the settlement sheet (prints cleanly).
pub async fn sheet_page(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    identity: Identity,
) -> Result<impl actix_web::Responder, AppError> {
    let (id, number) = path.into_inner();
    let sheet = load_sheet(&state, id, number).await?;
    Ok(SheetPage::of(&identity, sheet, String::new()))
}

/// `POST /tables/{id}/hands/{n}/void` (a form, floor): voids the hand with a
/// reason code and a note, then shows its sheet (a hand voided before its
/// showdown too); a refusal comes back on the sheet, or for an open hand on
/// its table's page, in words.
pub async fn void_post(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    form: web::Form<Vec<(String, String)>>,
    identity: Identity,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Floor])?;
    let reason = VoidReason::parse(field(&form, "reason").trim()).ok_or_else(|| {
        let codes: Vec<&str> = VoidReason::ALL.iter().map(|r| r.name()).collect();
        AppError::invalid("bad_reason", format!("reason {:?}: use one of {}", field(&form, "reason"), codes.join(", ")))
            .at_field("reason")
    });
    let outcome = match reason {
        Ok(reason) => {
            let req = hands::VoidRequest { reason, note: field(&form, "note").to_string() };
            let actor = identity.actor.clone();
            with_database(&state, move |db| hands::void(db, &actor, id, number, req)).await.map(|_| ())
        }
        Err(e) => Err(e),
    };
    match outcome {
        Ok(()) => Ok(see_other(&format!("/tables/{id}/hands/{number}/sheet"))),
        Err(e) => {
            let problem = form_problem(e)?;
            match load_sheet(&state, id, number).await {
                Ok(sheet) => {
                    let page = SheetPage::of(&identity, sheet, problem.message.clone());
                    Ok(form_again(page, &request, &problem))
                }
                // An open hand has no sheet: its table shows the refusal.
                Err(_) => {
                    let page = table_view(&state, &identity, id, problem.message.clone(), None).await?;
                    Ok(form_again(page, &request, &problem))
                }
            }
        }
    }
}

/// `GET /tables/{id}/hands/{n}/sheet.json`: the stored result, as a download.
pub async fn sheet_json(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let hand = with_db(&state, move |c| hands::get_hand(c, id, number)).await?;
    let raw = hand
        .result
        .ok_or_else(|| AppError::conflict("not_committed", format!("hand {number} has no settlement yet")))?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header(("Content-Disposition", format!("attachment; filename=\"table-{id}-hand-{number}.json\"")))
        .body(raw.get().to_string()))
}

/// `GET /tables/{id}/hands/{n}/sheet.csv`: one row per transaction, then one
/// per seat (RFC 4180, money with two decimals).
pub async fn sheet_csv(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    use super::helpers::csv_text;
    let (id, number) = path.into_inner();
    let sheet = load_sheet(&state, id, number).await?;
    // Two sections of different widths (transactions, then seats).
    let mut out = CsvFile::new();
    out.row(["table", "hand", "line", "pass", "payer_seat", "payee_seat", "owed", "paid", "capped"])?;
    for (i, t) in sheet.transactions.iter().enumerate() {
        out.row([
            csv_text(&sheet.table_name),
            sheet.number.to_string(),
            (i + 1).to_string(),
            t.pass.clone(),
            t.payer.to_string(),
            t.payee.to_string(),
            t.owed.to_string(),
            t.paid.to_string(),
            if t.capped { "yes" } else { "no" }.to_string(),
        ])?;
    }
    out.row(["table", "hand", "seat", "player", "hand_result", "stack_start", "rake", "net", "stack_end", "cards"])?;
    for s in &sheet.seats {
        out.row([
            csv_text(&sheet.table_name),
            sheet.number.to_string(),
            s.seat.to_string(),
            csv_text(&s.player),
            s.hand.clone(),
            s.stack_start.to_string(),
            s.rake.to_string(),
            s.net.to_string(),
            s.stack_end.to_string(),
            s.cards.clone(),
        ])?;
    }
    out.finish(&format!("table-{id}-hand-{number}.csv"))
}
