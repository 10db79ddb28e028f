//! Players' pages: the list with a search and a form for a new record
//! (`/players`), and one player's sessions and results (`/players/{id}`).

use actix_session::Session;
use actix_web::{web, HttpRequest, HttpResponse, Responder};
use askama::Template;
use askama_web::WebTemplate;

use super::auth::Identity;
use super::extract::{with_database, with_db};
use super::helpers::{field, flash, form_again, form_problem, form_token, optional, see_other, FormState, Nav};
use super::routes::players::{PLAYER_MAKERS, PLAYER_READERS};
use super::state::AppState;
use crate::domain::{AppError, PlayerId};
use crate::service::players::{self, PlayerDetail, PlayerView};

#[derive(Template, WebTemplate)]
#[template(path = "players.html")]
struct PlayersPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    search: String,
    players: Vec<PlayerView>,
    /// May make a record here.
    can_add: bool,
    form: FormState,
}

impl PlayersPage {
    fn when(&self, at: &Option<chrono::DateTime<chrono::Utc>>) -> String {
        at.map(|t| t.with_timezone(&self.tz).format("%Y-%m-%d %H:%M").to_string()).unwrap_or_default()
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchQuery {
    q: Option<String>,
}

async fn players_page_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    search: String,
    form: FormState,
) -> Result<PlayersPage, AppError> {
    identity.require(PLAYER_READERS)?;
    let text = search.clone();
    let players = with_db(state, move |c| players::list_players(c, &text, players::LIST_LIMIT)).await?;
    Ok(PlayersPage {
        tz: state.time_zone,
        nav: Nav::of(identity),
        search,
        players,
        can_add: PLAYER_MAKERS.iter().any(|r| identity.user.has(*r)),
        form,
    })
}

/// `GET /players[?q=…]`.
pub async fn players_page(
    state: web::Data<AppState>,
    identity: Identity,
    session: Session,
    query: web::Query<SearchQuery>,
) -> Result<impl Responder, AppError> {
    let search = query.into_inner().q.unwrap_or_default();
    let mut page = players_page_for(&state, &identity, search, FormState::new()).await?;
    page.nav = page.nav.with_notice(&session);
    Ok(page)
}

/// `POST /players` (a form): a new player's record.
pub async fn players_post(
    state: web::Data<AppState>,
    identity: Identity,
    session: Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(PLAYER_MAKERS)?;
    let (name, member_no) = (field(&form, "name").to_string(), optional(&form, "member_no"));
    let actor = identity.actor.clone();
    match with_database(&state, move |db| players::create_player(db, &actor, &name, member_no.as_deref())).await {
        Ok(p) => {
            flash(&session, format!("{} added.", p.name));
            Ok(see_other(&format!("/players/{}", p.id)))
        }
        Err(e) => {
            let problem = form_problem(e)?;
            let page = players_page_for(&state, &identity, String::new(), FormState::refused(&form, &problem)).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "player.html")]
struct PlayerPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    player: PlayerDetail,
}

impl PlayerPage {
    fn when(&self, at: &chrono::DateTime<chrono::Utc>) -> String {
        at.with_timezone(&self.tz).format("%Y-%m-%d %H:%M").to_string()
    }
}

/// `GET /players/{id}`: a player's sessions and results.
pub async fn player_page(
    state: web::Data<AppState>,
    identity: Identity,
    session: Session,
    path: web::Path<PlayerId>,
) -> Result<impl Responder, AppError> {
    identity.require(PLAYER_READERS)?;
    let id = path.into_inner();
    let player = with_db(&state, move |c| players::get_player(c, id)).await?;
    Ok(PlayerPage { tz: state.time_zone, nav: Nav::of(&identity).with_notice(&session), player })
}
