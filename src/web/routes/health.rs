use actix_web::{web, HttpResponse};
use diesel::connection::SimpleConnection;

use super::with_db;
use crate::error::AppError;
use crate::web::startup::AppState;

/// `GET /healthz`: the process is alive.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

/// `GET /readyz`: the database answers.
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    with_db(&state, |conn| conn.batch_execute("SELECT 1").map_err(AppError::from)).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "status": "ready" })))
}
