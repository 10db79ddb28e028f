//! Tables, pools, seats and the ledger.

use actix_web::{web, HttpResponse};

use super::{json_body, ok_json, with_database, with_db};
use crate::db::users::Role;
use crate::db::{ledger, tables};
use crate::error::AppError;
use crate::web::auth::Identity;
use crate::web::startup::AppState;

/// `POST /api/v1/pools` (admin).
pub async fn create_pool(
    state: web::Data<AppState>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let req: tables::NewPoolRequest = json_body(payload).await?;
    let pool = with_database(&state, move |db| tables::create_pool(db, &identity.actor, &req)).await?;
    Ok(HttpResponse::Created().json(pool))
}

pub async fn get_pool(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| tables::get_pool(c, id)).await?))
}

/// `POST /api/v1/tables` (admin).
pub async fn create_table(
    state: web::Data<AppState>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Admin])?;
    let req: tables::NewTableRequest = json_body(payload).await?;
    let table = with_database(&state, move |db| tables::create_table(db, &identity.actor, &req)).await?;
    Ok(HttpResponse::Created().json(table))
}

pub async fn list_tables(state: web::Data<AppState>, _identity: Identity) -> Result<HttpResponse, AppError> {
    Ok(ok_json(&with_db(&state, tables::list_tables).await?))
}

pub async fn get_table(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| tables::get_table(c, id)).await?))
}

/// `PUT /api/v1/tables/{id}/ruleset` (floor).
pub async fn change_ruleset(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(&[Role::Floor])?;
    let id = path.into_inner();
    let req: tables::RulesetRequest = json_body(payload).await?;
    Ok(ok_json(&with_database(&state, move |db| tables::change_ruleset(db, &identity.actor, id, &req)).await?))
}

/// `POST /api/v1/tables/{id}/seats` (the table's dealer or floor).
pub async fn seat_player(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    identity.require_table(id)?;
    let req: tables::SeatPlayerRequest = json_body(payload).await?;
    let table = with_database(&state, move |db| tables::seat_player(db, &identity.actor, id, &req)).await?;
    Ok(HttpResponse::Created().json(table))
}

pub async fn add_on(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, seat) = path.into_inner();
    identity.require_table(id)?;
    let req: tables::AmountRequest = json_body(payload).await?;
    Ok(ok_json(&with_database(&state, move |db| tables::add_on(db, &identity.actor, id, seat, &req)).await?))
}

pub async fn cash_out(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, seat) = path.into_inner();
    identity.require_table(id)?;
    Ok(ok_json(&with_database(&state, move |db| tables::cash_out(db, &identity.actor, id, seat)).await?))
}

/// `GET /api/v1/tables/{id}/ledger`: the table's dealer, floor, accountants, admins.
pub async fn table_ledger(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    if !identity.user.deals_at(id) {
        identity.require(&[Role::Floor, Role::Accountant, Role::Admin])?;
    }
    let entries = with_db(&state, move |c| {
        tables::table_row(c, id)?;
        ledger::entries_for_table(c, id)
    })
    .await?;
    let view: Vec<ledger::EntryView> = entries.into_iter().map(Into::into).collect();
    Ok(ok_json(&view))
}
