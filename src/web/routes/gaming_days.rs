//! The gaming-day close: a day's counts, variances and sign-offs.

use actix_web::{web, HttpResponse};

use super::ok_json;
use crate::domain::AppError;
use crate::service::gaming_days::{self, CountRequest, DaysView, GamingDayView, SignoffRequest, COUNTERS, READERS};
use crate::web::auth::Identity;
use crate::web::error::ErrorBody;
use crate::web::extract::{json_body, with_database, with_db};
use crate::web::state::AppState;

#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct DaysQuery {
    /// The first gaming day, `YYYY-MM-DD` (default: 13 days before `to`).
    pub from: Option<String>,
    /// The last gaming day (default: the latest day any table is in).
    pub to: Option<String>,
}

/// `GET /api/v1/gaming-days[?from=&to=]`: each day, newest first.
#[utoipa::path(
    get,
    path = "/api/v1/gaming-days",
    tag = "gaming days",
    params(DaysQuery),
    responses(
        (status = 200, description = "The days with status, totals and variances", body = DaysView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_date`, `bad_range`, `range_too_long`, `bad_query`", body = ErrorBody),
    ),
    security(("token" = ["count", "accountant", "floor", "admin"]), ("session" = ["count", "accountant", "floor", "admin"])),
)]
pub async fn list_days(
    state: web::Data<AppState>,
    identity: Identity,
    query: web::Query<DaysQuery>,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    let q = query.into_inner();
    let from = q.from.as_deref().map(gaming_days::parse_day).transpose().map_err(|e| e.at_field("from"))?;
    let to = q.to.as_deref().map(gaming_days::parse_day).transpose().map_err(|e| e.at_field("to"))?;
    Ok(ok_json(&with_db(&state, move |c| gaming_days::list_days(c, from, to)).await?))
}

/// `GET /api/v1/gaming-days/{date}`: per table the ledger's figures, the
/// count and the variances; the day's status and sign-offs.
#[utoipa::path(
    get,
    path = "/api/v1/gaming-days/{date}",
    tag = "gaming days",
    responses(
        (status = 200, description = "The day", body = GamingDayView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_date`", body = ErrorBody),
    ),
    security(("token" = ["count", "accountant", "floor", "admin"]), ("session" = ["count", "accountant", "floor", "admin"])),
)]
pub async fn get_day(
    state: web::Data<AppState>,
    path: web::Path<String>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(READERS)?;
    let day = gaming_days::parse_day(&path.into_inner())?;
    Ok(ok_json(&with_db(&state, move |c| gaming_days::get_day(c, day)).await?))
}

/// `POST /api/v1/gaming-days/{date}/count` (the count team): what a
/// table's drop boxes held.
#[utoipa::path(
    post,
    path = "/api/v1/gaming-days/{date}/count",
    tag = "gaming days",
    request_body = CountRequest,
    responses(
        (status = 200, description = "The day with the count", body = GamingDayView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_table`", body = ErrorBody),
        (status = 409, description = "Codes: `day_closed`, `count_signed_off`, `day_in_future`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_date`, `bad_money`, `note_too_long`", body = ErrorBody),
    ),
    security(("token" = ["count"]), ("session" = ["count"])),
)]
pub async fn count(
    state: web::Data<AppState>,
    path: web::Path<String>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(COUNTERS)?;
    let day = gaming_days::parse_day(&path.into_inner())?;
    let req: CountRequest = json_body(payload).await?;
    Ok(ok_json(&with_database(&state, move |db| gaming_days::count(db, &identity.actor, day, req)).await?))
}

/// `POST /api/v1/gaming-days/{date}/close` `{"signoff": "count" | "accountant"}`:
/// the count team signs first, an accountant (another person) closes the day.
#[utoipa::path(
    post,
    path = "/api/v1/gaming-days/{date}/close",
    tag = "gaming days",
    request_body = SignoffRequest,
    responses(
        (status = 200, description = "The day, signed off (closed after the accountant)", body = GamingDayView),
        (status = 403, description = "Codes: `role_required`, `signoff_needs_person`, `second_person_required`", body = ErrorBody),
        (status = 409, description = "Codes: `day_closed`, `already_signed_off`, `count_not_signed_off`, `day_not_ready`, `day_in_future`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_date`, `note_too_long`, `bad_body`", body = ErrorBody),
    ),
    security(("session" = ["count", "accountant"])),
)]
pub async fn close(
    state: web::Data<AppState>,
    path: web::Path<String>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    gaming_days::needs_person(&identity.actor)?;
    identity.require(&[crate::domain::Role::Count, crate::domain::Role::Accountant])?;
    let day = gaming_days::parse_day(&path.into_inner())?;
    let req: SignoffRequest = json_body(payload).await?;
    Ok(ok_json(
        &with_database(&state, move |db| gaming_days::sign_off(db, &identity.user, &identity.actor, day, req)).await?,
    ))
}
