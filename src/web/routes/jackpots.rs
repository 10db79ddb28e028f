//! Jackpot hits and their sign-offs; the audit trail; the exception report.

use actix_web::{web, HttpResponse};

use super::{json_body, ok_json, with_database, with_db};
use crate::db::audit;
use crate::db::jackpots::{self, Decision};
use crate::db::users::Role;
use crate::error::AppError;
use crate::web::auth::Identity;
use crate::web::startup::AppState;

/// Who may see hits: floor, admins, accountants.
pub const REVIEWERS: &[Role] = &[Role::Floor, Role::Admin, Role::Accountant];

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitsQuery {
    pub status: Option<String>,
}

/// `GET /api/v1/jackpots[?status=open|decided|pending|approved|paid|rejected|voided]`.
pub async fn list_hits(
    state: web::Data<AppState>,
    identity: Identity,
    query: web::Query<HitsQuery>,
) -> Result<HttpResponse, AppError> {
    identity.require(REVIEWERS)?;
    let status = query.into_inner().status;
    Ok(ok_json(&with_db(&state, move |c| jackpots::list_hits(c, status.as_deref(), 500)).await?))
}

pub async fn get_hit(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(REVIEWERS)?;
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| jackpots::get_hit(c, id)).await?))
}

async fn decide(
    state: web::Data<AppState>,
    identity: Identity,
    id: i64,
    decision: Decision,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(decision.roles())?;
    let req: jackpots::DecisionRequest = json_body(payload).await?;
    let hit = with_database(&state, move |db| {
        jackpots::decide(db, &identity.user, &identity.actor, id, decision, &req.reason)
    })
    .await?;
    Ok(ok_json(&hit))
}

/// `POST /api/v1/jackpots/{id}/approve` (floor).
pub async fn approve(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    decide(state, identity, path.into_inner(), Decision::Approve, payload).await
}

/// `POST /api/v1/jackpots/{id}/verify` (floor or admin, not the approver): pays it.
pub async fn verify(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    decide(state, identity, path.into_inner(), Decision::Verify, payload).await
}

/// `POST /api/v1/jackpots/{id}/reject` `{"reason"}` (floor or admin): back to the pool.
pub async fn reject(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    decide(state, identity, path.into_inner(), Decision::Reject, payload).await
}

/// `GET /api/v1/audit[?action=&username=&before=&limit=]` (floor, admin).
pub async fn audit_trail(
    state: web::Data<AppState>,
    identity: Identity,
    query: web::Query<audit::AuditQuery>,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Floor, Role::Admin])?;
    let q = query.into_inner();
    Ok(ok_json(&with_db(&state, move |c| audit::list(c, &q)).await?))
}

/// `GET /api/v1/exceptions`: voids, rejected hits and ruleset changes (floor,
/// accountants, admins).
pub async fn exceptions(state: web::Data<AppState>, identity: Identity) -> Result<HttpResponse, AppError> {
    identity.require(REVIEWERS)?;
    Ok(ok_json(&with_db(&state, audit::exceptions).await?))
}
