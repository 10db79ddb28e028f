//! Players' records: the list (searchable), one player's sessions and
//! results, a new record.

use actix_web::{web, HttpResponse};

use super::ok_json;
use crate::domain::{AppError, PlayerId, Role};
use crate::service::players::{self, PlayerView};
use crate::web::auth::Identity;
use crate::web::bodies::NewPlayerBody;
use crate::web::error::ErrorBody;
use crate::web::extract::{json_body, with_database, with_db};
use crate::web::state::AppState;

/// Who may look players up: the people who seat them and count their money.
pub const PLAYER_READERS: &[Role] = &[Role::Dealer, Role::Floor, Role::Admin, Role::Accountant];
/// Who may make a player's record.
pub const PLAYER_MAKERS: &[Role] = &[Role::Dealer, Role::Floor, Role::Admin];

#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct PlayersQuery {
    /// Part of a name or member number (any case).
    pub q: Option<String>,
    /// At most this many (1 to 200, default 50).
    pub limit: Option<i64>,
}

/// `GET /api/v1/players[?q=…&limit=…]`: players, the most recently seated first.
#[utoipa::path(
    get,
    path = "/api/v1/players",
    tag = "players",
    params(PlayersQuery),
    responses(
        (status = 200, description = "Players, the most recently seated first", body = Vec<PlayerView>),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_query`, `unknown_parameter`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "floor", "admin", "accountant"]), ("session" = ["dealer", "floor", "admin", "accountant"])),
)]
pub async fn list_players(
    state: web::Data<AppState>,
    identity: Identity,
    query: web::Query<PlayersQuery>,
) -> Result<HttpResponse, AppError> {
    identity.require(PLAYER_READERS)?;
    let PlayersQuery { q, limit } = query.into_inner();
    let text = q.unwrap_or_default();
    Ok(ok_json(&with_db(&state, move |c| players::list_players(c, &text, limit.unwrap_or(50))).await?))
}

/// `GET /api/v1/players/{id}`: the player with their sessions (the latest
/// 500) and totals: buy-ins, add-ons, cash-outs, rake, jackpot payouts, net.
#[utoipa::path(
    get,
    path = "/api/v1/players/{id}",
    tag = "players",
    responses(
        (status = 200, description = "The player, their sessions and totals"),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 404, description = "Codes: `no_player`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "floor", "admin", "accountant"]), ("session" = ["dealer", "floor", "admin", "accountant"])),
)]
pub async fn get_player(
    state: web::Data<AppState>,
    identity: Identity,
    path: web::Path<PlayerId>,
) -> Result<HttpResponse, AppError> {
    identity.require(PLAYER_READERS)?;
    let id = path.into_inner();
    Ok(ok_json(&with_db(&state, move |c| players::get_player(c, id)).await?))
}

/// `POST /api/v1/players`: a player's record made ahead of seating.
#[utoipa::path(
    post,
    path = "/api/v1/players",
    tag = "players",
    request_body = NewPlayerBody,
    responses(
        (status = 201, description = "The player", body = PlayerView),
        (status = 403, description = "Codes: `role_required`", body = ErrorBody),
        (status = 409, description = "Codes: `member_no_taken`", body = ErrorBody),
        (status = 422, description = "Codes: `bad_name`, `bad_member_no`", body = ErrorBody),
    ),
    security(("token" = ["dealer", "floor", "admin"]), ("session" = ["dealer", "floor", "admin"])),
)]
pub async fn create_player(
    state: web::Data<AppState>,
    identity: Identity,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    identity.require(PLAYER_MAKERS)?;
    let body = json_body::<NewPlayerBody>(payload).await?;
    let player = with_database(&state, move |db| {
        players::create_player(db, &identity.actor, &body.name, body.member_no.as_deref())
    })
    .await?;
    Ok(HttpResponse::Created().json(player))
}
