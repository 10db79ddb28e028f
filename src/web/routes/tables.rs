//! Tables, pools, seats and the ledger.

use actix_web::{web, HttpResponse};

use super::{json_body, ok_json, with_database, with_db};
use crate::db::{ledger, tables};
use crate::error::AppError;
use crate::web::startup::AppState;

pub async fn create_pool(state: web::Data<AppState>, payload: web::Payload) -> Result<HttpResponse, AppError> {
    let req: tables::NewPoolRequest = json_body(payload).await?;
    let pool = with_database(&state, move |db| tables::create_pool(db, &req)).await?;
    Ok(HttpResponse::Created().json(pool))
}

pub async fn get_pool(state: web::Data<AppState>, path: web::Path<i64>) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| tables::get_pool(c, id)).await?))
}

pub async fn create_table(state: web::Data<AppState>, payload: web::Payload) -> Result<HttpResponse, AppError> {
    let req: tables::NewTableRequest = json_body(payload).await?;
    let table = with_database(&state, move |db| tables::create_table(db, &req)).await?;
    Ok(HttpResponse::Created().json(table))
}

pub async fn list_tables(state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    Ok(ok_json(&with_db(&state, tables::list_tables).await?))
}

pub async fn get_table(state: web::Data<AppState>, path: web::Path<i64>) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| tables::get_table(c, id)).await?))
}

pub async fn change_ruleset(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let req: tables::RulesetRequest = json_body(payload).await?;
    Ok(ok_json(&with_database(&state, move |db| tables::change_ruleset(db, id, &req)).await?))
}

pub async fn seat_player(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let req: tables::SeatPlayerRequest = json_body(payload).await?;
    let table = with_database(&state, move |db| tables::seat_player(db, id, &req)).await?;
    Ok(HttpResponse::Created().json(table))
}

pub async fn add_on(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, seat) = path.into_inner();
    let req: tables::AmountRequest = json_body(payload).await?;
    Ok(ok_json(&with_database(&state, move |db| tables::add_on(db, id, seat, &req)).await?))
}

pub async fn cash_out(state: web::Data<AppState>, path: web::Path<(i64, i32)>) -> Result<HttpResponse, AppError> {
    let (id, seat) = path.into_inner();
    Ok(ok_json(&with_database(&state, move |db| tables::cash_out(db, id, seat)).await?))
}

pub async fn table_ledger(state: web::Data<AppState>, path: web::Path<i64>) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let entries = with_db(&state, move |c| {
        tables::table_row(c, id)?;
        ledger::entries_for_table(c, id)
    })
    .await?;
    let view: Vec<ledger::EntryView> = entries.into_iter().map(Into::into).collect();
    Ok(ok_json(&view))
}
