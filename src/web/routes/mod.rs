//! Route handlers: parse at the edge, call the engine or the data layer (on
//! the blocking pool), answer JSON.

pub mod hands;
pub mod health;
pub mod jackpots;
pub mod score;
pub mod tables;
pub mod users;

use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;

use super::startup::{AppState, MAX_BODY_BYTES};
use crate::db::{Database, DbConnection};
use crate::error::AppError;

/// Reads the whole body, refusing more than `MAX_BODY_BYTES`.
pub async fn read_body(mut payload: web::Payload) -> Result<web::BytesMut, AppError> {
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| AppError::BadRequest(format!("the request body could not be read: {e}")))?;
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(AppError::TooLarge(MAX_BODY_BYTES));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Reads a JSON body into `T`; a body that does not fit is a 422 naming the field.
pub async fn json_body<T: DeserializeOwned>(payload: web::Payload) -> Result<T, AppError> {
    let body = read_body(payload).await?;
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &body };
    let mut json = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut json).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        match path.as_str() {
            _ if inner.is_syntax() || inner.is_eof() => {
                AppError::Invalid(format!("the request body is not valid JSON: {inner}"))
            }
            "." | "" => AppError::Invalid(format!("the request body is not valid: {inner}")),
            _ => AppError::Invalid(format!("the request body is not valid: {path}: {inner}")),
        }
    })?;
    json.end().map_err(|e| AppError::Invalid(format!("the request body is not valid JSON: {e}")))?;
    Ok(value)
}

/// Runs `f` with a pooled connection on the blocking thread pool (reads).
pub async fn with_db<T: Send + 'static>(
    state: &web::Data<AppState>,
    f: impl FnOnce(&mut DbConnection) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    with_database(state, move |db| f(&mut *db.conn()?)).await
}

/// Runs `f` with the database on the blocking thread pool (writes).
pub async fn with_database<T: Send + 'static>(
    state: &web::Data<AppState>,
    f: impl FnOnce(&Database) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    let db = state.db.clone();
    web::block(move || f(&db)).await.map_err(|e| AppError::Internal(format!("blocking task failed: {e}")))?
}

pub fn ok_json<T: serde::Serialize>(value: &T) -> HttpResponse {
    HttpResponse::Ok().json(value)
}

/// Anything that matches no route.
pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound(format!("no such resource: {} {}", req.method(), req.path())))
}

pub async fn method_not_allowed(req: HttpRequest) -> Result<HttpResponse, AppError> {
    Err(AppError::MethodNotAllowed(req.method().to_string()))
}
