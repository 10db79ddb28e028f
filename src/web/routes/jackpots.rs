//! Jackpot hits and their sign-offs; the audit trail; the exception report.

use crate::service::audit::{AuditEventView, ExceptionView};
use crate::service::jackpots::HitView;
use crate::web::error::ErrorBody;
use actix_web::{web, HttpResponse};

use super::ok_json;
use crate::domain::{AppError, HitId, Role, SignoffAction};
use crate::service::audit::{self, AuditQuery};
use crate::service::jackpots::{self, DecisionRequest, HitFilter};
use crate::web::auth::Identity;
use crate::web::extract::{json_body, with_database, with_db};
use crate::web::state::AppState;

/// Who may see hits: floor, admins, accountants.
pub const REVIEWERS: &[Role] = &[Role::Floor, Role::Admin, Role::Accountant];

#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct HitsQuery {
    pub status: Option<String>,
}

/// `GET /api/v1/jackpots[?status=open|decided|pending|approved|paid|rejected|voided]`.
#[utoipa::path(
    get,
    path = "/api/v1/jackpots",
    tag = "jackpots",
    params(HitsQuery),
    responses(
        (status = 200, description = "Jackpot hits, newest first", body = Vec<HitView>),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_status`, `unknown_parameter`, `bad_query`", body = ErrorBody),
    ),
    security(("token" = ["floor", "admin", "accountant"]), ("session" = ["floor", "admin", "accountant"])),
)]
pub async fn list_hits(
    state: web::Data<AppState>,
    identity: Identity,
    query: web::Query<HitsQuery>,
) -> Result<HttpResponse, AppError> {
    identity.require(REVIEWERS)?;
    let filter = query.into_inner().status.as_deref().map(HitFilter::parse).transpose()?;
    Ok(ok_json(&with_db(&state, move |c| jackpots::list_hits(c, filter, 500)).await?))
}

/// One jackpot hit. Floor, admin, accountant.
#[utoipa::path(
    get,
    path = "/api/v1/jackpots/{id}",
    tag = "jackpots",
    responses(
        (status = 200, description = "The hit", body = HitView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_hit`", body = ErrorBody),
    ),
    security(("token" = ["floor", "admin", "accountant"]), ("session" = ["floor", "admin", "accountant"])),
)]
pub async fn get_hit(
    state: web::Data<AppState>,
    path: web::Path<HitId>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(REVIEWERS)?;
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| jackpots::get_hit(c, id)).await?))
}

async fn decide(
    state: web::Data<AppState>,
    identity: Identity,
    id: HitId,
    decision: SignoffAction,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(jackpots::roles_for(decision))?;
    let req: DecisionRequest = json_body(payload).await?;
    let hit = with_database(&state, move |db| {
        jackpots::decide(db, &identity.user, &identity.actor, id, decision, &req.reason)
    })
    .await?;
    Ok(ok_json(&hit))
}

/// `POST /api/v1/jackpots/{id}/approve` (floor, signed in).
#[utoipa::path(
    post,
    path = "/api/v1/jackpots/{id}/approve",
    tag = "jackpots",
    request_body = DecisionRequest,
    responses(
        (status = 200, description = "The hit, approved", body = HitView),
        (status = 403, description = "Codes: `role_required`, `signoff_needs_person`, `second_person_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_hit`", body = ErrorBody),
        (status = 409, description = "Codes: `hit_decided`, `not_approved`, `hand_in_progress`", body = ErrorBody),
        (status = 422, description = "Codes: `reason_required`, `reason_too_long`", body = ErrorBody),
    ),
    security(("session" = ["floor"])),
)]
pub async fn approve(
    state: web::Data<AppState>,
    path: web::Path<HitId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    decide(state, identity, path.into_inner(), SignoffAction::Approve, payload).await
}

/// `POST /api/v1/jackpots/{id}/verify` (floor or admin, signed in, not the approver): pays it.
#[utoipa::path(
    post,
    path = "/api/v1/jackpots/{id}/verify",
    tag = "jackpots",
    request_body = DecisionRequest,
    responses(
        (status = 200, description = "The hit, verified and paid", body = HitView),
        (status = 403, description = "Codes: `role_required`, `signoff_needs_person`, `second_person_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_hit`", body = ErrorBody),
        (status = 409, description = "Codes: `hit_decided`, `not_approved`, `hand_in_progress`", body = ErrorBody),
        (status = 422, description = "Codes: `reason_required`, `reason_too_long`", body = ErrorBody),
    ),
    security(("session" = ["floor", "admin"])),
)]
pub async fn verify(
    state: web::Data<AppState>,
    path: web::Path<HitId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    decide(state, identity, path.into_inner(), SignoffAction::Verify, payload).await
}

/// `POST /api/v1/jackpots/{id}/reject` `{"reason"}` (floor or admin, signed in): back to the pool.
#[utoipa::path(
    post,
    path = "/api/v1/jackpots/{id}/reject",
    tag = "jackpots",
    request_body = DecisionRequest,
    responses(
        (status = 200, description = "The hit, rejected (back to the pool)", body = HitView),
        (status = 403, description = "Codes: `role_required`, `signoff_needs_person`, `second_person_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_hit`", body = ErrorBody),
        (status = 409, description = "Codes: `hit_decided`, `not_approved`, `hand_in_progress`", body = ErrorBody),
        (status = 422, description = "Codes: `reason_required`, `reason_too_long`", body = ErrorBody),
    ),
    security(("session" = ["floor", "admin"])),
)]
pub async fn reject(
    state: web::Data<AppState>,
    path: web::Path<HitId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    decide(state, identity, path.into_inner(), SignoffAction::Reject, payload).await
}

/// `GET /api/v1/audit[?action=&username=&before=&limit=]` (floor, admin).
#[utoipa::path(
    get,
    path = "/api/v1/audit",
    tag = "audit",
    params(AuditQuery),
    responses(
        (status = 200, description = "Audit events, newest first", body = Vec<AuditEventView>),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 422, description = "Codes: `unknown_parameter`, `bad_query`", body = ErrorBody),
    ),
    security(("token" = ["floor", "admin"]), ("session" = ["floor", "admin"])),
)]
pub async fn audit_trail(
    state: web::Data<AppState>,
    identity: Identity,
    query: web::Query<AuditQuery>,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Floor, Role::Admin])?;
    let q = query.into_inner();
    Ok(ok_json(&with_db(&state, move |c| audit::list(c, &q)).await?))
}

/// `GET /api/v1/exceptions[?from=&to=&table=]`: voids, rejected hits and
/// ruleset changes on the gaming days of a range (the last 7 unless asked),
/// newest first (floor, accountants, admins).
#[utoipa::path(
    get,
    path = "/api/v1/exceptions",
    tag = "audit",
    params(
        ("from" = Option<String>, Query, description = "First gaming day, YYYY-MM-DD (default: `to` − 6 days)"),
        ("to" = Option<String>, Query, description = "Last gaming day, YYYY-MM-DD (default: today's)"),
        ("table" = Option<i64>, Query, description = "One table's (default: every table's)"),
    ),
    responses(
        (status = 200, description = "Voids, rejected hits and ruleset changes", body = Vec<ExceptionView>),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_date`, `bad_range`, `range_too_long`, `bad_table`, `unknown_parameter`", body = ErrorBody),
    ),
    security(("token" = ["floor", "admin", "accountant"]), ("session" = ["floor", "admin", "accountant"])),
)]
pub async fn exceptions(
    state: web::Data<AppState>,
    req: actix_web::HttpRequest,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(REVIEWERS)?;
    Ok(ok_json(&crate::web::reports::load_exceptions(&state, &req).await?.1))
}
