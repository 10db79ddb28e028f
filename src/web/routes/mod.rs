//! The JSON API's handlers: parse at the edge, call the service (on the
//! blocking pool), answer JSON. Errors become answers in `web::error` only.

pub mod hands;
pub mod health;
pub mod jackpots;
pub mod metrics;
pub mod players;
pub mod score;
pub mod tables;
pub mod users;

use actix_web::{HttpRequest, HttpResponse};

use crate::domain::AppError;

pub fn ok_json<T: serde::Serialize>(value: &T) -> HttpResponse {
    HttpResponse::Ok().json(value)
}

/// Anything that matches no route.
pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, AppError> {
    Err(AppError::not_found("no_route", format!("no such resource: {} {}", req.method(), req.path())))
}

pub async fn method_not_allowed(req: HttpRequest) -> Result<HttpResponse, AppError> {
    Err(AppError::method_not_allowed(req.method().as_str()))
}
