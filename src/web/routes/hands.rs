//! The hand lifecycle: start, preview, commit, void, rescore.

use actix_web::{web, HttpRequest, HttpResponse};

use super::{json_body, ok_json, with_database, with_db};
use crate::db::hands;
use crate::db::users::Role;
use crate::error::AppError;
use crate::web::auth::Identity;
use crate::web::startup::AppState;

pub async fn start_hand(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    identity.require_table(id)?;
    let req: hands::StartHandRequest = json_body(payload).await?;
    let hand = with_database(&state, move |db| hands::start_hand(db, &identity.actor, id, &req)).await?;
    Ok(HttpResponse::Created().json(hand))
}

pub async fn get_hand(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| hands::get_hand(c, id, number)).await?))
}

pub async fn preview(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.require_table(id)?;
    let req: hands::ShowdownRequest = json_body(payload).await?;
    Ok(ok_json(&with_db(&state, move |c| hands::preview(c, id, number, &req)).await?))
}

/// `Idempotency-Key` makes a retried commit answer the first result.
pub async fn commit(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    identity: Identity,
    request: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.require_table(id)?;
    let key = match request.headers().get("Idempotency-Key") {
        None => None,
        Some(v) => {
            let key = v.to_str().map_err(|_| AppError::BadRequest("Idempotency-Key must be ASCII text".to_string()))?;
            if key.is_empty() || key.len() > 200 {
                return Err(AppError::BadRequest("Idempotency-Key must be 1 to 200 characters".to_string()));
            }
            Some(key.to_string())
        }
    };
    let req: hands::ShowdownRequest = json_body(payload).await?;
    let outcome =
        with_database(&state, move |db| hands::commit(db, &identity.actor, id, number, &req, key.as_deref())).await?;
    Ok(if outcome.created { HttpResponse::Created() } else { HttpResponse::Ok() }.json(outcome))
}

/// `POST …/void` `{"reason": <code>, "note"}` (floor).
pub async fn void(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.require(&[Role::Floor])?;
    let req: hands::VoidRequest = json_body(payload).await?;
    Ok(ok_json(&with_database(&state, move |db| hands::void(db, &identity.actor, id, number, &req)).await?))
}

pub async fn rescore(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| hands::rescore(c, id, number)).await?))
}

/// `GET …/scans`: the cards a shoe or RFID table has read into the hand.
pub async fn scans(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    _identity: Identity,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| hands::scans(c, id, number)).await?))
}

/// `POST …/scans` `{"seat", "row", "card"}`: one scanned card; a card scanned
/// twice is refused (409), never doubled.
pub async fn add_scan(
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    identity.require_table(id)?;
    let req: hands::ScanRequest = json_body(payload).await?;
    let scans = with_database(&state, move |db| hands::add_scan(db, &identity.actor, id, number, &req)).await?;
    Ok(HttpResponse::Created().json(scans))
}
