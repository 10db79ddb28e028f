//! Tables, pools, seats and the ledger.

use crate::service::board::BoardView;
use crate::service::tables::{EntryView, PoolView, TableStatusView, TableView};
use crate::web::error::ErrorBody;
use actix_web::{web, HttpRequest, HttpResponse};

use super::ok_json;
use crate::domain::{AppError, PoolId, Role, SeatNo, TableId};
use crate::service::{board, tables};
use crate::web::auth::Identity;
use crate::web::bodies::{
    AmountBody, NewPoolBody, NewTableBody, PoolEditBody, PoolSeedBody, RulesetBody, SeatPlayerBody, TableEditBody,
    TableStatusBody,
};
use crate::web::extract::{json_body, with_database, with_db};
use crate::web::state::AppState;

/// `POST /api/v1/pools` (admin).
#[utoipa::path(
    post,
    path = "/api/v1/pools",
    tag = "tables",
    request_body = NewPoolBody,
    responses(
        (status = 201, description = "The pool", body = PoolView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 409, description = "Codes: `already_exists`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_name`, `bad_money`, `bad_shares`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn create_pool(
    state: web::Data<AppState>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let req = json_body::<NewPoolBody>(payload).await?.parse()?;
    let pool = with_database(&state, move |db| tables::create_pool(db, &identity.actor, req)).await?;
    Ok(HttpResponse::Created().json(pool))
}

/// A pool with its balance and shares (any role).
#[utoipa::path(
    get,
    path = "/api/v1/pools/{id}",
    tag = "tables",
    responses(
        (status = 200, description = "The pool with its balance", body = PoolView),
        (status = 404, description = "Codes: `no_pool`", body = ErrorBody),
    ),
    security(("token" = []), ("session" = [])),
)]
pub async fn get_pool(
    state: web::Data<AppState>,
    path: web::Path<PoolId>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| tables::get_pool(c, id)).await?))
}

/// Every pool with its balance and shares (any role).
#[utoipa::path(
    get,
    path = "/api/v1/pools",
    tag = "tables",
    responses(
        (status = 200, description = "Every pool, by name", body = Vec<PoolView>),
    ),
    security(("token" = []), ("session" = [])),
)]
pub async fn list_pools(state: web::Data<AppState>, _identity: Identity) -> Result<HttpResponse, AppError> {
    Ok(ok_json(&with_db(&state, tables::list_pools).await?))
}

/// `PATCH /api/v1/pools/{id}` (admin): the pool's name, re-seed amount or shares.
#[utoipa::path(
    patch,
    path = "/api/v1/pools/{id}",
    tag = "tables",
    request_body = PoolEditBody,
    responses(
        (status = 200, description = "The pool", body = PoolView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_pool`", body = ErrorBody),
        (status = 409, description = "Codes: `already_exists`, `jackpot_hit_waiting`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_name`, `bad_money`, `bad_shares`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn edit_pool(
    state: web::Data<AppState>,
    path: web::Path<PoolId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let req = json_body::<PoolEditBody>(payload).await?.parse()?;
    Ok(ok_json(&with_database(&state, move |db| tables::edit_pool(db, &identity.actor, id, req)).await?))
}

/// Who may add the house's money to a pool.
pub const POOL_SEEDERS: &[Role] = &[Role::Floor, Role::Admin];

/// `POST /api/v1/pools/{id}/seed` (floor, admin): the house adds money to the
/// pool now (a `pool_seed` ledger row, with who in the audit trail).
#[utoipa::path(
    post,
    path = "/api/v1/pools/{id}/seed",
    tag = "tables",
    request_body = PoolSeedBody,
    responses(
        (status = 200, description = "The pool with its new balance", body = PoolView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_pool`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_money`, `note_required`, `note_too_long`, `pool_money_limit`", body = ErrorBody),
    ),
    security(("token" = ["floor", "admin"]), ("session" = ["floor", "admin"])),
)]
pub async fn seed_pool(
    state: web::Data<AppState>,
    path: web::Path<PoolId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(POOL_SEEDERS)?;
    let id = path.into_inner();
    let body = json_body::<PoolSeedBody>(payload).await?;
    let amount = crate::domain::Money::parse(&body.amount, "amount")?;
    let note = body.note;
    Ok(ok_json(&with_database(&state, move |db| tables::seed_pool(db, &identity.actor, id, amount, note)).await?))
}

/// `PATCH /api/v1/tables/{id}` (admin): name, seats; before the first hand
/// also its time zone, gaming-day start and pool.
#[utoipa::path(
    patch,
    path = "/api/v1/tables/{id}",
    tag = "tables",
    request_body = TableEditBody,
    responses(
        (status = 200, description = "The table", body = TableView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`", body = ErrorBody),
        (status = 409, description = "Codes: `already_exists`, `hand_in_progress`, `seat_taken`, `pair_units_seat`, `table_has_hands`, `table_has_sessions`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_name`, `bad_seat_count`, `bad_time_zone`, `bad_cutoff`, `bad_pool`, `jackpot_without_pool`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn edit_table(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let req = json_body::<TableEditBody>(payload).await?.parse();
    Ok(ok_json(&with_database(&state, move |db| tables::edit_table(db, &identity.actor, id, req)).await?))
}

/// `POST /api/v1/tables` (admin).
#[utoipa::path(
    post,
    path = "/api/v1/tables",
    tag = "tables",
    request_body = NewTableBody,
    responses(
        (status = 201, description = "The table", body = TableView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 409, description = "Codes: `already_exists`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_name`, `unknown_preset`, `bad_money`, `bad_options`, `bad_pair_units`, `jackpot_above_rake`, `jackpot_without_pool`, `bad_pool`, `bad_seat_count`, `bad_time_zone`, `bad_cutoff`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn create_table(
    state: web::Data<AppState>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let req = json_body::<NewTableBody>(payload).await?.parse()?;
    let table = with_database(&state, move |db| tables::create_table(db, &identity.actor, req)).await?;
    Ok(HttpResponse::Created().json(table))
}

/// Every table with seats, stacks, ruleset, hand number, open hand, pool (any role).
#[utoipa::path(
    get,
    path = "/api/v1/tables",
    tag = "tables",
    responses(
        (status = 200, description = "Every table", body = Vec<TableView>),
    ),
    security(("token" = []), ("session" = [])),
)]
pub async fn list_tables(state: web::Data<AppState>, _identity: Identity) -> Result<HttpResponse, AppError> {
    Ok(ok_json(&with_db(&state, tables::list_tables).await?))
}

/// One table (any role).
#[utoipa::path(
    get,
    path = "/api/v1/tables/{id}",
    tag = "tables",
    responses(
        (status = 200, description = "The table", body = TableView),
        (status = 404, description = "Codes: `no_table`", body = ErrorBody),
    ),
    security(("token" = []), ("session" = [])),
)]
pub async fn get_table(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| tables::get_table(c, id)).await?))
}

/// `PUT /api/v1/tables/{id}/ruleset` (floor).
#[utoipa::path(
    put,
    path = "/api/v1/tables/{id}/ruleset",
    tag = "tables",
    request_body = RulesetBody,
    responses(
        (status = 200, description = "The table on its new ruleset version", body = TableView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`", body = ErrorBody),
        (status = 409, description = "Codes: `hand_in_progress`", body = ErrorBody),
        (status = 422, description = "Codes: `unknown_preset`, `bad_money`, `bad_options`, `bad_pair_units`, `jackpot_above_rake`, `jackpot_without_pool`, `bad_seat_count`", body = ErrorBody),
    ),
    security(("token" = ["floor"]), ("session" = ["floor"])),
)]
pub async fn change_ruleset(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Floor])?;
    let id = path.into_inner();
    let req = json_body::<RulesetBody>(payload).await?.parse()?;
    Ok(ok_json(&with_database(&state, move |db| tables::change_ruleset(db, &identity.actor, id, req)).await?))
}

/// `POST /api/v1/tables/{id}/seats` (the table's dealer or floor).
#[utoipa::path(
    post,
    path = "/api/v1/tables/{id}/seats",
    tag = "tables",
    request_body = SeatPlayerBody,
    responses(
        (status = 201, description = "The table", body = TableView),
        (status = 403, description = "Codes: `role_required`, `table_not_assigned`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`", body = ErrorBody),
        (status = 409, description = "Codes: `table_closed`, `hand_in_progress`, `seat_taken`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_seat`, `bad_money`, `table_money_limit`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "floor"]), ("session" = ["dealer", "floor"])),
)]
pub async fn seat_player(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    identity.require_table(id)?;
    let req = json_body::<SeatPlayerBody>(payload).await?.parse()?;
    let table = with_database(&state, move |db| tables::seat_player(db, &identity.actor, id, req)).await?;
    Ok(HttpResponse::Created().json(table))
}

/// An add-on, between hands. The table's dealer or the floor.
#[utoipa::path(
    post,
    path = "/api/v1/tables/{id}/seats/{seat}/add-on",
    tag = "tables",
    request_body = AmountBody,
    responses(
        (status = 200, description = "The table", body = TableView),
        (status = 403, description = "Codes: `role_required`, `table_not_assigned`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`, `seat_empty`", body = ErrorBody),
        (status = 409, description = "Codes: `hand_in_progress`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_money`, `table_money_limit`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "floor"]), ("session" = ["dealer", "floor"])),
)]
pub async fn add_on(
    state: web::Data<AppState>,
    path: web::Path<(TableId, SeatNo)>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, seat) = path.into_inner();
    identity.require_table(id)?;
    let amount = json_body::<AmountBody>(payload).await?.parse()?;
    Ok(ok_json(&with_database(&state, move |db| tables::add_on(db, &identity.actor, id, seat, amount)).await?))
}

/// Cashes out the whole stack; the seat is free again. The table's dealer or the floor.
#[utoipa::path(
    post,
    path = "/api/v1/tables/{id}/seats/{seat}/cash-out",
    tag = "tables",
    responses(
        (status = 200, description = "The table", body = TableView),
        (status = 403, description = "Codes: `role_required`, `table_not_assigned`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`, `seat_empty`", body = ErrorBody),
        (status = 409, description = "Codes: `hand_in_progress`, `jackpot_share_waiting`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "floor"]), ("session" = ["dealer", "floor"])),
)]
pub async fn cash_out(
    state: web::Data<AppState>,
    path: web::Path<(TableId, SeatNo)>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, seat) = path.into_inner();
    identity.require_table(id)?;
    Ok(ok_json(&with_database(&state, move |db| tables::cash_out(db, &identity.actor, id, seat)).await?))
}

/// `GET /api/v1/tables/{id}/ledger`: the table's dealer, floor, accountants, admins.
#[utoipa::path(
    get,
    path = "/api/v1/tables/{id}/ledger",
    tag = "tables",
    params(
        ("after" = Option<i64>, Query, description = "Rows after this one (a row's id; default: from the first)"),
        ("limit" = Option<i64>, Query, description = "Rows at most, 1 to 1000 (default 1000)"),
    ),
    responses(
        (status = 200, description = "A page of the table's ledger rows, oldest first; while more rows may follow, a `Link` header to the next page (`rel=\"next\"`); a page may be short, even empty, and still link on", body = Vec<EntryView>),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_page`, `unknown_parameter`, `bad_query`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "floor", "accountant", "admin"]), ("session" = ["dealer", "floor", "accountant", "admin"])),
)]
pub async fn table_ledger(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    if !identity.user.deals_at(id) {
        identity.require(&[Role::Floor, Role::Accountant, Role::Admin])?;
    }
    let page = tables::LedgerPage::parse(&crate::web::helpers::query_pairs(&request)?)?;
    let (rows, next) = with_db(&state, move |c| tables::table_ledger(c, id, page)).await?;
    let mut response = HttpResponse::Ok();
    if let Some(last) = next {
        response.insert_header((
            actix_web::http::header::LINK,
            format!("</api/v1/tables/{id}/ledger?after={last}&limit={}>; rel=\"next\"", page.limit),
        ));
    }
    Ok(response.json(rows))
}

/// Who may read the pit board: the floor, accountants, admins.
pub const BOARD_READERS: &[Role] = &[Role::Floor, Role::Accountant, Role::Admin];

/// Who opens and closes tables: the floor, admins.
pub const TABLE_OPENERS: &[Role] = &[Role::Floor, Role::Admin];

/// `GET /api/v1/board`: every table at a glance (floor, accountants, admins).
#[utoipa::path(
    get,
    path = "/api/v1/board",
    tag = "tables",
    responses(
        (status = 200, description = "Every table: open or closed, stakes, dealers, the hand in progress, the last commit, seats filled, hits waiting, the voids of its gaming day", body = BoardView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
    ),
    security(("token" = ["floor", "accountant", "admin"]), ("session" = ["floor", "accountant", "admin"])),
)]
pub async fn board(state: web::Data<AppState>, identity: Identity) -> Result<HttpResponse, AppError> {
    identity.require(BOARD_READERS)?;
    Ok(ok_json(&with_db(&state, board::board).await?))
}

/// `GET /api/v1/board/events`: the board live, as server-sent events
/// (floor, accountants, admins). Each `board` event carries the whole board
/// (as `GET /api/v1/board`) and, as its `id`, the newest audit-trail id it
/// reflects; the first comes at once, the next within a second of a change.
#[utoipa::path(
    get,
    path = "/api/v1/board/events",
    tag = "tables",
    responses(
        (status = 200, description = "`text/event-stream`: `retry: 2000`, then `event: board` with `id:` (an audit-trail id) and `data:` (the board as `GET /api/v1/board` answers it) at once and after every change; a `: keep-alive` comment every 15 s. The stream ends when the server shuts down and after 10 minutes: the client reconnects (EventSource does by itself) and gets the board as it is then.", content_type = "text/event-stream", body = String),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 429, description = "Codes: `board_streams_full` (`BOARD_STREAMS` streams open on this server)", body = ErrorBody),
    ),
    security(("token" = ["floor", "accountant", "admin"]), ("session" = ["floor", "accountant", "admin"])),
)]
pub async fn board_events(
    hub: web::Data<crate::web::live::BoardHub>,
    lifecycle: Option<web::Data<crate::web::observe::Lifecycle>>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(BOARD_READERS)?;
    let subscription = hub.into_inner().subscribe()?;
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-cache"))
        // A proxy in front must pass each event on as it comes.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(crate::web::live::event_stream(subscription, lifecycle)))
}

/// `POST /api/v1/tables/{id}/close` (floor, admin): no hand in progress and
/// nobody seated.
#[utoipa::path(
    post,
    path = "/api/v1/tables/{id}/close",
    tag = "tables",
    request_body = TableStatusBody,
    responses(
        (status = 200, description = "The table, closed", body = TableStatusView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`", body = ErrorBody),
        (status = 409, description = "Codes: `table_has_open_hand`, `table_has_players`, `table_already_closed`", body = ErrorBody),
        (status = 422, description = "Codes: `note_too_long`", body = ErrorBody),
    ),
    security(("token" = ["floor", "admin"]), ("session" = ["floor", "admin"])),
)]
pub async fn close_table(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(TABLE_OPENERS)?;
    let id = path.into_inner();
    let note = json_body::<TableStatusBody>(payload).await?.note;
    Ok(ok_json(&with_database(&state, move |db| tables::close_table(db, &identity.actor, id, note)).await?))
}

/// `POST /api/v1/tables/{id}/open` (floor, admin).
#[utoipa::path(
    post,
    path = "/api/v1/tables/{id}/open",
    tag = "tables",
    request_body = TableStatusBody,
    responses(
        (status = 200, description = "The table, open", body = TableStatusView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`", body = ErrorBody),
        (status = 409, description = "Codes: `table_already_open`", body = ErrorBody),
        (status = 422, description = "Codes: `note_too_long`", body = ErrorBody),
    ),
    security(("token" = ["floor", "admin"]), ("session" = ["floor", "admin"])),
)]
pub async fn open_table(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(TABLE_OPENERS)?;
    let id = path.into_inner();
    let note = json_body::<TableStatusBody>(payload).await?.note;
    Ok(ok_json(&with_database(&state, move |db| tables::open_table(db, &identity.actor, id, note)).await?))
}
