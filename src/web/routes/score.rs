//! The engine over HTTP: scoring (CONTRACT.md), the house way, the presets.

use crate::web::error::ErrorBody;
use actix_web::{web, HttpResponse};

use crate::domain::AppError;
use crate::engine;
use crate::engine::setter::AnalyseInput;
use crate::web::extract::text_body;

/// `POST /api/v1/score` (CONTRACT.md): the showdown as the body; 200 with the
/// result or 422 with `{"error": ...}`. Writes nothing.
#[utoipa::path(
    post,
    path = "/api/v1/score",
    tag = "scoring",
    request_body(content = Object, description = "A showdown, CONTRACT.md (any content type)"),
    responses(
        (status = 200, description = "The result, CONTRACT.md", body = Object),
        (status = 422, description = "Codes: `showdown_json`, `card_count`, `duplicate_card`, `bad_card`, `aces_bet_not_allowed`, `bad_money`, `bad_options`, `bad_pair_units`, `claim_and_surrender`, `claim_not_made`, `dealer_not_seated`, `discards_not_allowed`, `fantasyland_not_allowed`, `hand_cards`, `invalid_showdown`, `jackpot_above_rake`, `loose_cards`, `missing_row`, `missing_stack`, `no_cards`, `player_count`, `repeated_seat`, `rows_and_cards`, `seat_count`, `stack_below_rake`, `surrender_not_allowed`, `table_play`, `too_many_copies`, `unknown_preset`, `unknown_special`", body = ErrorBody),
    ),
)]
pub async fn score_showdown(payload: web::Payload) -> Result<HttpResponse, AppError> {
    let text = text_body(payload).await?;
    Ok(HttpResponse::Ok().json(engine::score_json(&text)?))
}

/// `POST /api/v1/analyse`: `{"ruleset", "cards"}` or `{"ruleset", "front",
/// "middle", "back"}`; the house-way setting, the specials the cards make, and
/// for rows a foul explained with a legal setting.
#[utoipa::path(
    post,
    path = "/api/v1/analyse",
    tag = "scoring",
    request_body(content = Object, description = "`{\"ruleset\", \"cards\"}` or `{\"ruleset\", \"front\", \"middle\", \"back\"}`"),
    responses(
        (status = 200, description = "The house-way setting, the specials, a foul explained", body = Object),
        (status = 422, description = "Codes: `bad_body`, `bad_card`, `card_count`, `unknown_preset`", body = ErrorBody),
    ),
)]
pub async fn analyse(payload: web::Payload) -> Result<HttpResponse, AppError> {
    let text = text_body(payload).await?;
    let request: AnalyseInput = serde_json::from_str(&text)
        .map_err(|e| AppError::invalid("bad_body", format!("the request body is not valid: {e}")))?;
    Ok(HttpResponse::Ok().json(request.analyse()?))
}

/// `GET /api/v1/presets`: every preset by name with its summary.
#[utoipa::path(
    get,
    path = "/api/v1/presets",
    tag = "scoring",
    responses(
        (status = 200, description = "Every preset: `name`, `summary`", body = Vec<Object>),
    ),
)]
pub async fn list_presets() -> HttpResponse {
    let presets: Vec<_> =
        engine::PRESETS.iter().map(|r| serde_json::json!({ "name": r.name, "summary": r.summary })).collect();
    HttpResponse::Ok().json(presets)
}
