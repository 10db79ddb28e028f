//! Users and API tokens (admin), and who am I (anyone signed in).

use crate::domain::User;
use crate::service::users::{NewTokenRequest, NewUserRequest, TokenView, UpdateUserRequest, UserView};
use crate::web::error::ErrorBody;
use actix_web::{web, HttpResponse};

use super::ok_json;
use crate::domain::{AppError, Role, TokenId, UserId};
use crate::service::users;
use crate::web::auth::Identity;
use crate::web::extract::{json_body, with_database, with_db};
use crate::web::state::AppState;

/// `GET /api/v1/me`: the signed-in user.
#[utoipa::path(
    get,
    path = "/api/v1/me",
    tag = "users",
    responses(
        (status = 200, description = "The signed-in user", body = User),
    ),
    security(("token" = []), ("session" = [])),
)]
pub async fn me(identity: Identity) -> Result<HttpResponse, AppError> {
    Ok(ok_json(&identity.user))
}

/// Every user. Admin.
#[utoipa::path(
    get,
    path = "/api/v1/users",
    tag = "users",
    responses(
        (status = 200, description = "Every user", body = Vec<UserView>),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn list_users(state: web::Data<AppState>, identity: Identity) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    Ok(ok_json(&with_db(&state, users::list_users).await?))
}

/// Makes a user. Admin.
#[utoipa::path(
    post,
    path = "/api/v1/users",
    tag = "users",
    request_body = NewUserRequest,
    responses(
        (status = 201, description = "The user", body = UserView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 409, description = "Codes: `username_taken`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_username`, `bad_display_name`, `bad_role`, `bad_password`, `bad_table`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn create_user(
    state: web::Data<AppState>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let req: users::NewUserRequest = json_body(payload).await?;
    let user = with_database(&state, move |db| users::create_user(db, &identity.actor, req, false)).await?;
    Ok(HttpResponse::Created().json(user))
}

/// One user. Admin.
#[utoipa::path(
    get,
    path = "/api/v1/users/{id}",
    tag = "users",
    responses(
        (status = 200, description = "The user", body = UserView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_user`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn get_user(
    state: web::Data<AppState>,
    path: web::Path<UserId>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| users::get_user(c, id)).await?))
}

/// `POST /api/v1/users/{id}/unlock` (admin): a user locked out by failed
/// sign-ins may try again at once.
#[utoipa::path(
    post,
    path = "/api/v1/users/{id}/unlock",
    tag = "users",
    responses(
        (status = 200, description = "The user, no longer locked out", body = UserView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_user`", body = ErrorBody),
        (status = 409, description = "Codes: `not_locked_out`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn unlock_user(
    state: web::Data<AppState>,
    path: web::Path<UserId>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    Ok(ok_json(&with_database(&state, move |db| users::unlock_user(db, &identity.actor, id)).await?))
}

/// `PATCH /api/v1/users/{id}`: display name, roles, active, password, tables.
#[utoipa::path(
    patch,
    path = "/api/v1/users/{id}",
    tag = "users",
    request_body = UpdateUserRequest,
    responses(
        (status = 200, description = "The user", body = UserView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_user`", body = ErrorBody),
        (status = 409, description = "Codes: `last_admin`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_display_name`, `bad_role`, `bad_password`, `bad_table`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn update_user(
    state: web::Data<AppState>,
    path: web::Path<UserId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let req: users::UpdateUserRequest = json_body(payload).await?;
    Ok(ok_json(&with_database(&state, move |db| users::update_user(db, &identity.actor, id, req)).await?))
}

/// `POST /api/v1/users/{id}/tokens` `{"label", "roles"?, "tables"?, "expires_at"?}`:
/// a new API token, shown once.
#[utoipa::path(
    post,
    path = "/api/v1/users/{id}/tokens",
    tag = "users",
    request_body = NewTokenRequest,
    responses(
        (status = 201, description = "The token, shown once", body = TokenView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_user`", body = ErrorBody),
        (status = 409, description = "Codes: `user_inactive`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_label`, `bad_role`, `bad_table`, `bad_expiry`, `token_beyond_user`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn create_token(
    state: web::Data<AppState>,
    path: web::Path<UserId>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let req: users::NewTokenRequest = json_body(payload).await?;
    let token = with_database(&state, move |db| users::create_token(db, &identity.actor, id, req)).await?;
    Ok(HttpResponse::Created().json(token))
}

/// `DELETE /api/v1/tokens/{id}`: revokes a token.
#[utoipa::path(
    delete,
    path = "/api/v1/tokens/{id}",
    tag = "users",
    responses(
        (status = 204, description = "Revoked"),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_token`", body = ErrorBody),
    ),
    security(("token" = ["admin"]), ("session" = ["admin"])),
)]
pub async fn revoke_token(
    state: web::Data<AppState>,
    path: web::Path<TokenId>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    with_database(&state, move |db| users::revoke_token(db, &identity.actor, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordRequest {
    pub current_password: String,
    pub new_password: String,
}

/// `POST /api/v1/me/password` `{"current_password", "new_password"}`: 204;
/// every session of the user ends.
#[utoipa::path(
    post,
    path = "/api/v1/me/password",
    tag = "users",
    request_body = PasswordRequest,
    responses(
        (status = 204, description = "Changed; every session of the user ends"),
        (status = 422, description = "Codes: `wrong_password`, `same_password`, `bad_password`", body = ErrorBody),
    ),
    security(("token" = []), ("session" = [])),
)]
pub async fn change_password(
    state: web::Data<AppState>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let req: PasswordRequest = json_body(payload).await?;
    let actor = identity.actor.clone();
    with_database(&state, move |db| users::change_own_password(db, &actor, &req.current_password, &req.new_password))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
