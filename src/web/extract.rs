//! Reading requests: bodies (size-limited, JSON into typed structs with the
//! failing field named) and running database work on the blocking pool.

use actix_web::web;
use futures_util::StreamExt;
use serde::de::DeserializeOwned;

use super::state::{AppState, MAX_BODY_BYTES};
use crate::db::{Database, DbConnection};
use crate::domain::AppError;

/// Reads the whole body, refusing more than `MAX_BODY_BYTES`.
pub async fn read_body(mut payload: web::Payload) -> Result<web::BytesMut, AppError> {
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| {
            AppError::bad_request("unreadable_body", format!("the request body could not be read: {e}"))
        })?;
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(AppError::too_large(MAX_BODY_BYTES));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Reads a JSON body into `T`; a body that does not fit is a 422 naming the
/// field (`field` holds its path).
pub async fn json_body<T: DeserializeOwned>(payload: web::Payload) -> Result<T, AppError> {
    let body = read_body(payload).await?;
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &body };
    let mut json = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut json).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        match path.as_str() {
            _ if inner.is_syntax() || inner.is_eof() => {
                AppError::invalid("bad_json", format!("the request body is not valid JSON: {inner}"))
            }
            "." | "" => AppError::invalid("bad_body", format!("the request body is not valid: {inner}")),
            _ => {
                AppError::invalid("bad_body", format!("the request body is not valid: {path}: {inner}")).at_field(path)
            }
        }
    })?;
    json.end().map_err(|e| AppError::invalid("bad_json", format!("the request body is not valid JSON: {e}")))?;
    Ok(value)
}

/// The body as UTF-8 text (scoring and analysing take any content type).
pub async fn text_body(payload: web::Payload) -> Result<String, AppError> {
    let body = read_body(payload).await?;
    String::from_utf8(body.to_vec())
        .map_err(|e| AppError::invalid("not_utf8", format!("the body is not UTF-8 text: {e}")))
}

/// Runs `f` with a pooled connection on the blocking thread pool (reads).
pub async fn with_db<T: Send + 'static>(
    state: &web::Data<AppState>,
    f: impl FnOnce(&mut DbConnection) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    with_database(state, move |db| f(&mut *db.conn()?)).await
}

/// Runs `f` with the database on the blocking thread pool (writes), in this
/// request's turn at the database (`Database::turn`), given back when `f`
/// is done.
pub async fn with_database<T: Send + 'static>(
    state: &web::Data<AppState>,
    f: impl FnOnce(&Database) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    let turn = state.db.turn().await?;
    let f = move |db: &Database| {
        let _turn = turn;
        f(db)
    };
    // The request's log lines name it on the blocking pool too.
    with_database_as(state, crate::logging::current(), f).await
}

/// [`with_db`] for work done after the handler returned (a body sent in
/// parts), under the log context of the request it answers. The work starts
/// at the call, on the blocking pool, not when the answer is first awaited:
/// a body can read its next part while it writes the one before. So it takes
/// no turn at the database (waiting for one would be awaiting); each part
/// holds one connection while it reads.
pub fn with_db_as<T: Send + 'static>(
    state: &web::Data<AppState>,
    context: Option<crate::logging::RequestContext>,
    f: impl FnOnce(&mut DbConnection) -> Result<T, AppError> + Send + 'static,
) -> impl std::future::Future<Output = Result<T, AppError>> {
    with_database_as(state, context, move |db| f(&mut *db.conn()?))
}

/// Starts `f` on the blocking pool at the call; the answer when awaited.
fn with_database_as<T: Send + 'static>(
    state: &web::Data<AppState>,
    context: Option<crate::logging::RequestContext>,
    f: impl FnOnce(&Database) -> Result<T, AppError> + Send + 'static,
) -> impl std::future::Future<Output = Result<T, AppError>> {
    let db = state.db.clone();
    let started = web::block(move || crate::logging::in_context(context, || f(&db)));
    async move { started.await.map_err(|e| AppError::internal(format!("blocking task failed: {e}")))? }
}
