use actix_web::{web, HttpResponse};

use super::read_body;
use crate::engine;
use crate::engine::setter::AnalyseInput;
use crate::error::AppError;

/// `POST /api/v1/score` (CONTRACT.md): the showdown as the body; 200 with the
/// result or 422 with `{"error": ...}`. Writes nothing.
pub async fn score_showdown(payload: web::Payload) -> Result<HttpResponse, AppError> {
    let body = read_body(payload).await?;
    let text = std::str::from_utf8(&body).map_err(|e| AppError::Invalid(format!("the body is not UTF-8 text: {e}")))?;
    let result = engine::score_json(text).map_err(|e| AppError::Invalid(e.to_string()))?;
    Ok(HttpResponse::Ok().json(result))
}

/// `POST /api/v1/analyse`: `{"ruleset", "cards"}` or `{"ruleset", "front",
/// "middle", "back"}`; the house-way setting, the specials the cards make, and
/// for rows a foul explained with a legal setting.
pub async fn analyse(payload: web::Payload) -> Result<HttpResponse, AppError> {
    let body = read_body(payload).await?;
    let text = std::str::from_utf8(&body).map_err(|e| AppError::Invalid(format!("the body is not UTF-8 text: {e}")))?;
    let request: AnalyseInput =
        serde_json::from_str(text).map_err(|e| AppError::Invalid(format!("the request body is not valid: {e}")))?;
    let analysis = request.analyse().map_err(|e| AppError::Invalid(e.to_string()))?;
    Ok(HttpResponse::Ok().json(analysis))
}

/// `GET /api/v1/presets`: every preset by name with its summary.
pub async fn list_presets() -> HttpResponse {
    let presets: Vec<_> =
        engine::PRESETS.iter().map(|r| serde_json::json!({ "name": r.name, "summary": r.summary })).collect();
    HttpResponse::Ok().json(presets)
}
