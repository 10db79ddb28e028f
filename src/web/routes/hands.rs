//! The hand lifecycle: start, preview, commit, void, rescore, scans.

use crate::service::hands::{
    CommitView, HandView, RescoreView, ScanRequest, ShowdownRequest, StartHandRequest, VoidRequest,
};
use crate::web::error::ErrorBody;
use actix_web::{web, HttpRequest, HttpResponse};

use super::ok_json;
use crate::domain::{AppError, HandNumber, Role, TableId};
use crate::service::hands;
use crate::web::auth::Identity;
use crate::web::extract::{json_body, with_database, with_db};
use crate::web::state::AppState;

/// Starts the next hand (`{}`: every funded seat). The table's dealer or the floor.
#[utoipa::path(
    post,
    path = "/api/v1/tables/{id}/hands",
    tag = "hands",
    request_body = StartHandRequest,
    responses(
        (status = 201, description = "The hand", body = HandView),
        (status = 403, description = "Codes: `role_required`, `table_not_assigned`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`", body = ErrorBody),
        (status = 409, description = "Codes: `table_closed`, `day_closed` (the table's gaming day is closed), `hand_in_progress`", body = ErrorBody),
        (status = 422, description = "Codes: `too_few_seats`, `too_many_seats`, `seat_not_dealt`, `exposure_used_up`, `button_sits_out`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "floor"]), ("session" = ["dealer", "floor"])),
)]
pub async fn start_hand(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    identity.require_table(id)?;
    let req: hands::StartHandRequest = json_body(payload).await?;
    let hand = with_database(&state, move |db| hands::start_hand(db, &identity.actor, id, req)).await?;
    Ok(HttpResponse::Created().json(hand))
}

/// A hand: status, seats, ruleset version, result, jackpot hits (any role).
#[utoipa::path(
    get,
    path = "/api/v1/tables/{id}/hands/{number}",
    tag = "hands",
    responses(
        (status = 200, description = "The hand", body = HandView),
        (status = 404, description = "Codes: `no_table`, `no_hand`", body = ErrorBody),
    ),
    security(("token" = []), ("session" = [])),
)]
pub async fn get_hand(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| hands::get_hand(c, id, number)).await?))
}

/// Scores the showdown for this hand without writing. The table's dealer or the floor.
#[utoipa::path(
    post,
    path = "/api/v1/tables/{id}/hands/{number}/preview",
    tag = "hands",
    request_body = ShowdownRequest,
    responses(
        (status = 200, description = "The result (CONTRACT.md); nothing written", body = Object),
        (status = 403, description = "Codes: `role_required`, `table_not_assigned`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`, `no_hand`", body = ErrorBody),
        (status = 422, description = "Codes: `seat_missing`, `seat_not_dealt`, `repeated_seat`, `hand_fields`, `pair_units_on_ruleset`, `card_count`, `duplicate_card`, `aces_bet_not_allowed`, `bad_card`, `bad_money`, `bad_options`, `bad_pair_units`, `claim_and_surrender`, `claim_not_made`, `dealer_not_seated`, `discards_not_allowed`, `fantasyland_not_allowed`, `hand_cards`, `invalid_showdown`, `jackpot_above_rake`, `loose_cards`, `missing_row`, `missing_stack`, `no_cards`, `player_count`, `rows_and_cards`, `seat_count`, `showdown_json`, `stack_below_rake`, `surrender_not_allowed`, `table_play`, `too_many_copies`, `unknown_preset`, `unknown_special`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "floor"]), ("session" = ["dealer", "floor"])),
)]
pub async fn preview(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.require_table(id)?;
    let req: hands::ShowdownRequest = json_body(payload).await?;
    Ok(ok_json(&with_db(&state, move |c| hands::preview(c, id, number, &req)).await?))
}

/// The `Idempotency-Key` header: 1 to 200 ASCII characters.
fn idempotency_key(request: &HttpRequest) -> Result<Option<String>, AppError> {
    let Some(v) = request.headers().get("Idempotency-Key") else {
        return Ok(None);
    };
    let refuse = |why: &str| AppError::bad_request("bad_idempotency_key", why).at_field("Idempotency-Key");
    let key = v.to_str().map_err(|_| refuse("Idempotency-Key must be ASCII text"))?;
    if key.is_empty() || key.len() > 200 {
        return Err(refuse("Idempotency-Key must be 1 to 200 characters"));
    }
    Ok(Some(key.to_string()))
}

/// `Idempotency-Key` makes a retried commit answer the first result.
#[utoipa::path(
    post,
    path = "/api/v1/tables/{id}/hands/{number}/commit",
    tag = "hands",
    request_body = ShowdownRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "1 to 200 ASCII characters: a retried commit answers the first result")),
    responses(
        (status = 201, description = "Committed", body = CommitView),
        (status = 200, description = "A repeat of the same showdown: the first result", body = CommitView),
        (status = 400, description = "Codes: `bad_idempotency_key`", body = ErrorBody),
        (status = 403, description = "Codes: `role_required`, `table_not_assigned`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`, `no_hand`", body = ErrorBody),
        (status = 409, description = "Codes: `already_committed`, `hand_voided`, `books_refused`, `jackpot_without_pool`, `table_money_limit`", body = ErrorBody),
        (status = 422, description = "Codes: `seat_missing`, `seat_not_dealt`, `repeated_seat`, `hand_fields`, `pair_units_on_ruleset`, `card_count`, `duplicate_card`, `aces_bet_not_allowed`, `bad_card`, `bad_money`, `bad_options`, `bad_pair_units`, `claim_and_surrender`, `claim_not_made`, `dealer_not_seated`, `discards_not_allowed`, `fantasyland_not_allowed`, `hand_cards`, `invalid_showdown`, `jackpot_above_rake`, `loose_cards`, `missing_row`, `missing_stack`, `no_cards`, `player_count`, `rows_and_cards`, `seat_count`, `showdown_json`, `stack_below_rake`, `surrender_not_allowed`, `table_play`, `too_many_copies`, `unknown_preset`, `unknown_special`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "floor"]), ("session" = ["dealer", "floor"])),
)]
pub async fn commit(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    identity: Identity,
    request: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.require_table(id)?;
    let key = idempotency_key(&request)?;
    let req: hands::ShowdownRequest = json_body(payload).await?;
    let outcome = with_database(&state, move |db| hands::commit(db, &identity.actor, id, number, req, key)).await?;
    Ok(if outcome.created { HttpResponse::Created() } else { HttpResponse::Ok() }.json(outcome))
}

/// `POST …/void` `{"reason": <code>, "note"}` (floor).
#[utoipa::path(
    post,
    path = "/api/v1/tables/{id}/hands/{number}/void",
    tag = "hands",
    request_body = VoidRequest,
    responses(
        (status = 200, description = "The hand, voided", body = HandView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`, `no_hand`", body = ErrorBody),
        (status = 409, description = "Codes: `hand_voided`, `hit_signed_off`, `locked_by_later_hit`, `hand_in_progress`, `player_left`, `stack_would_go_negative`, `books_refused`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_body`, `note_required`", body = ErrorBody),
    ),
    security(("token" = ["floor"]), ("session" = ["floor"])),
)]
pub async fn void(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.require(&[Role::Floor])?;
    let req: hands::VoidRequest = json_body(payload).await?;
    Ok(ok_json(&with_database(&state, move |db| hands::void(db, &identity.actor, id, number, req)).await?))
}

/// Scores a committed hand again under its ruleset version (any role).
#[utoipa::path(
    get,
    path = "/api/v1/tables/{id}/hands/{number}/rescore",
    tag = "hands",
    responses(
        (status = 200, description = "`{\"reproduced\": true, …}`", body = RescoreView),
        (status = 404, description = "Codes: `no_table`, `no_hand`", body = ErrorBody),
        (status = 409, description = "Codes: `not_committed`", body = ErrorBody),
    ),
    security(("token" = []), ("session" = [])),
)]
pub async fn rescore(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| hands::rescore(c, id, number)).await?))
}

/// `GET …/scans`: the cards a shoe or RFID table has read into the hand
/// (live cards: only for those who deal or scan at the table).
#[utoipa::path(
    get,
    path = "/api/v1/tables/{id}/hands/{number}/scans",
    tag = "hands",
    responses(
        (status = 200, description = "The cards scanned into the hand", body = Vec<Object>),
        (status = 403, description = "Codes: `role_required`, `table_not_assigned`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`, `no_hand`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "scanner", "floor"]), ("session" = ["dealer", "scanner", "floor"])),
)]
pub async fn scans(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.require_scan(id)?;
    Ok(ok_json(&with_db(&state, move |c| hands::scans(c, id, number)).await?))
}

/// `POST …/scans` `{"seat", "row", "card"}`: one scanned card; a card scanned
/// twice is refused (409), never doubled.
#[utoipa::path(
    post,
    path = "/api/v1/tables/{id}/hands/{number}/scans",
    tag = "hands",
    request_body = ScanRequest,
    responses(
        (status = 201, description = "The hand's scans", body = Vec<Object>),
        (status = 403, description = "Codes: `role_required`, `table_not_assigned`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`, `no_hand`", body = ErrorBody),
        (status = 409, description = "Codes: `card_scanned_twice`, `hand_closed`, `row_full`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_card`, `bad_row`, `seat_not_dealt`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "scanner", "floor"]), ("session" = ["dealer", "scanner", "floor"])),
)]
pub async fn add_scan(
    state: web::Data<AppState>,
    path: web::Path<(TableId, HandNumber)>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.require_scan(id)?;
    let req: hands::ScanRequest = json_body(payload).await?;
    let scans = with_database(&state, move |db| hands::add_scan(db, &identity.actor, id, number, req)).await?;
    Ok(HttpResponse::Created().json(scans))
}
