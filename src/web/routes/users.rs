//! Users and API tokens (admin), and who am I (anyone signed in).

use actix_web::{web, HttpResponse};

use super::{json_body, ok_json, with_database, with_db};
use crate::db::users::{self, Role};
use crate::error::AppError;
use crate::web::auth::Identity;
use crate::web::startup::AppState;

/// `GET /api/v1/me`: the signed-in user.
pub async fn me(identity: Identity) -> Result<HttpResponse, AppError> {
    Ok(ok_json(&identity.user))
}

pub async fn list_users(state: web::Data<AppState>, identity: Identity) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    Ok(ok_json(&with_db(&state, users::list_users).await?))
}

pub async fn create_user(
    state: web::Data<AppState>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let req: users::NewUserRequest = json_body(payload).await?;
    let user = with_database(&state, move |db| users::create_user(db, &identity.actor, &req, false)).await?;
    Ok(HttpResponse::Created().json(user))
}

pub async fn get_user(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| users::get_user(c, id)).await?))
}

/// `PATCH /api/v1/users/{id}`: display name, roles, active, password, tables.
pub async fn update_user(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let req: users::UpdateUserRequest = json_body(payload).await?;
    Ok(ok_json(&with_database(&state, move |db| users::update_user(db, &identity.actor, id, &req)).await?))
}

/// `POST /api/v1/users/{id}/tokens` `{"label"}`: a new API token, shown once.
pub async fn create_token(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let req: users::NewTokenRequest = json_body(payload).await?;
    let token = with_database(&state, move |db| users::create_token(db, &identity.actor, id, &req)).await?;
    Ok(HttpResponse::Created().json(token))
}

/// `DELETE /api/v1/tokens/{id}`: revokes a token.
pub async fn revoke_token(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    with_database(&state, move |db| users::revoke_token(db, &identity.actor, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
