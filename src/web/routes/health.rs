//! Liveness and readiness.

use actix_web::{web, HttpResponse};
use diesel::connection::SimpleConnection;

use crate::domain::AppError;
use crate::web::extract::with_db;
use crate::web::state::AppState;

/// `GET /healthz`: the process is alive.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "operations",
    responses(
        (status = 200, description = "`{\"status\": \"ok\"}`", body = Object),
    ),
)]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

/// `GET /readyz`: the database answers.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    responses(
        (status = 200, description = "`{\"status\": \"ready\"}`", body = Object),
    ),
)]
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    with_db(&state, |conn| conn.batch_execute("SELECT 1").map_err(AppError::from)).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "status": "ready" })))
}
