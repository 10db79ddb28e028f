//! Route handlers. Each one parses at the edge, calls the engine, and answers
//! JSON.

use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::StreamExt;

use super::error::ApiError;
use super::startup::MAX_BODY_BYTES;
use crate::engine;

/// Reads the whole body, refusing more than `MAX_BODY_BYTES`.
async fn read_body(mut payload: web::Payload) -> Result<web::BytesMut, ApiError> {
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::BadRequest(format!("the request body could not be read: {e}"))
        })?;
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(ApiError::TooLarge(MAX_BODY_BYTES));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// `GET /healthz`: the process is alive.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

/// `POST /api/v1/score` (CONTRACT.md): the showdown as the body; 200 with the
/// result or 422 with `{"error": ...}`.
pub async fn score_showdown(payload: web::Payload) -> Result<HttpResponse, ApiError> {
    let body = read_body(payload).await?;
    let text = std::str::from_utf8(&body)
        .map_err(|e| ApiError::Unprocessable(format!("the body is not UTF-8 text: {e}")))?;
    let result = engine::score_json(text).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    Ok(HttpResponse::Ok().json(result))
}

/// Anything that matches no route.
pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound(format!(
        "{} {}",
        req.method(),
        req.path()
    )))
}

pub async fn method_not_allowed(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed(req.method().to_string()))
}
