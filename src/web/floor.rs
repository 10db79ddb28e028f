//! The floor's and the back office's pages: jackpot review with two
//! sign-offs, the exception report, the audit trail, users (admin), and the
//! public jackpot display. Every form carries the session's token; every
//! handler checks its roles.

use actix_web::{web, HttpRequest, HttpResponse, Responder};
use askama::Template;
use askama_web::WebTemplate;

use super::auth::Identity;
use super::bodies::{NewPoolBody, NewTableBody, RulesetBody};
use super::extract::{with_database, with_db};
use super::helpers::{
    elapsed, field, flash, form_again, form_problem, form_token, optional, see_other, shown, FormState, Nav,
};
use super::routes::jackpots::REVIEWERS;
use super::routes::tables::{BOARD_READERS, TABLE_OPENERS};
use super::state::AppState;
use crate::domain::{AppError, HitId, Role, SignoffAction, TableId, TableStatus, UserId};
use crate::service::audit::{self, AuditEventView, AuditQuery};
use crate::service::board::{self, BoardView};
use crate::service::jackpots::{self, HitFilter, HitView, PoolBalance};
use crate::service::users::{self, UserView};

#[derive(Template, WebTemplate)]
#[template(path = "floor.html")]
struct FloorPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    pools: Vec<PoolBalance>,
    open: Vec<HitView>,
    decided: Vec<HitView>,
    /// The signed-in user's id (the approver cannot verify).
    me: String,
    can_approve: bool,
    can_verify: bool,
    problem: String,
}

impl FloorPage {
    fn when(&self, at: &chrono::NaiveDateTime) -> String {
        shown(at, self.tz)
    }
}

async fn floor_page_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    problem: String,
) -> Result<FloorPage, AppError> {
    identity.require(REVIEWERS)?;
    let (pools, open, decided) = with_db(state, |c| {
        Ok((
            jackpots::pool_balances(c)?,
            jackpots::list_hits(c, Some(HitFilter::Open), 500)?,
            jackpots::list_hits(c, Some(HitFilter::Decided), 30)?,
        ))
    })
    .await?;
    Ok(FloorPage {
        tz: state.time_zone,
        nav: Nav::of(identity),
        pools,
        open,
        decided,
        me: identity.user.username.clone(),
        can_approve: identity.user.has_any(jackpots::roles_for(SignoffAction::Approve)),
        can_verify: identity.user.has_any(jackpots::roles_for(SignoffAction::Verify)),
        problem,
    })
}

/// `GET /floor`: pools and jackpot hits waiting for sign-off.
pub async fn floor_page(state: web::Data<AppState>, identity: Identity) -> Result<impl Responder, AppError> {
    floor_page_for(&state, &identity, String::new()).await
}

/// `POST /floor/jackpots/{id}/{approve|verify|reject}` (a form).
pub async fn decide_post(
    state: web::Data<AppState>,
    path: web::Path<(HitId, String)>,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    let (id, action) = path.into_inner();
    let decision = SignoffAction::parse(&action)
        .ok_or_else(|| AppError::not_found("no_route", format!("no such decision: {action}")))?;
    identity.require(jackpots::roles_for(decision))?;
    let reason = field(&form, "reason").to_string();
    let (user, actor) = (identity.user.clone(), identity.actor.clone());
    match with_database(&state, move |db| jackpots::decide(db, &user, &actor, id, decision, &reason)).await {
        Ok(_) => Ok(see_other("/floor")),
        Err(e) => {
            let problem = form_problem(e)?;
            let page = floor_page_for(&state, &identity, problem.message.clone()).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "board.html")]
struct BoardPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    board: BoardView,
    /// Floor or admin: the open and close forms.
    can_change: bool,
    problem: String,
}

impl BoardPage {
    fn when(&self, at: &chrono::DateTime<chrono::Utc>) -> String {
        shown(&at.naive_utc(), self.tz)
    }

    fn time(&self, at: &chrono::DateTime<chrono::Utc>) -> String {
        at.with_timezone(&self.tz).format("%H:%M").to_string()
    }

    fn ago(&self, seconds: &i64) -> String {
        elapsed(*seconds)
    }
}

async fn board_page_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    problem: String,
) -> Result<BoardPage, AppError> {
    identity.require(BOARD_READERS)?;
    Ok(BoardPage {
        tz: state.time_zone,
        nav: Nav::of(identity),
        board: with_db(state, board::board).await?,
        can_change: identity.user.has_any(TABLE_OPENERS),
        problem,
    })
}

/// `GET /floor/board`: the live pit board (refreshes itself).
pub async fn board_page(state: web::Data<AppState>, identity: Identity) -> Result<impl Responder, AppError> {
    board_page_for(&state, &identity, String::new()).await
}

/// `POST /floor/tables/{id}/{close|open}` (a form, floor or admin).
pub async fn table_status_post(
    state: web::Data<AppState>,
    path: web::Path<(TableId, String)>,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    let (id, action) = path.into_inner();
    let to = match action.as_str() {
        "close" => TableStatus::Closed,
        "open" => TableStatus::Open,
        _ => return Err(AppError::not_found("no_route", format!("no such change of a table: {action}"))),
    };
    identity.require(TABLE_OPENERS)?;
    let (note, actor) = (field(&form, "note").to_string(), identity.actor.clone());
    let outcome = with_database(&state, move |db| match to {
        TableStatus::Closed => crate::service::tables::close_table(db, &actor, id, note),
        TableStatus::Open => crate::service::tables::open_table(db, &actor, id, note),
    })
    .await;
    match outcome {
        Ok(_) => Ok(see_other("/floor/board")),
        Err(e) => {
            let problem = form_problem(e)?;
            let page = board_page_for(&state, &identity, problem.message.clone()).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "display.html")]
struct DisplayPage {
    pools: Vec<PoolBalance>,
}

/// `GET /display`: the jackpot balances for a screen on the floor (public,
/// refreshes itself).
pub async fn display_page(state: web::Data<AppState>) -> Result<impl Responder, AppError> {
    Ok(DisplayPage { pools: with_db(&state, jackpots::pool_balances).await? })
}

#[derive(Template, WebTemplate)]
#[template(path = "audit.html")]
struct AuditPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    events: Vec<AuditEventView>,
    action: String,
    username: String,
    older: Option<i64>,
}

impl AuditPage {
    fn when(&self, at: &chrono::NaiveDateTime) -> String {
        shown(at, self.tz)
    }
}

/// `GET /audit[?action=&username=&before=]`: the audit trail, read-only (floor, admin).
pub async fn audit_page(
    state: web::Data<AppState>,
    identity: Identity,
    query: web::Query<AuditQuery>,
) -> Result<impl Responder, AppError> {
    identity.require(&[Role::Floor, Role::Admin])?;
    let q = query.into_inner();
    let (action, username) = (q.action.clone().unwrap_or_default(), q.username.clone().unwrap_or_default());
    let q = AuditQuery { limit: Some(100), ..q };
    let events = with_db(&state, move |c| audit::list(c, &q)).await?;
    let older = if events.len() == 100 { events.last().map(|e| e.id) } else { None };
    Ok(AuditPage { tz: state.time_zone, nav: Nav::of(&identity), events, action, username, older })
}

#[derive(Template, WebTemplate)]
#[template(path = "users.html")]
struct UsersPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    users: Vec<UserView>,
    tables: Vec<(TableId, String)>,
    roles: Vec<&'static str>,
    problem: String,
    /// A token just made: shown once.
    new_token: String,
    /// The new-user form, as typed when it was refused.
    form: FormState,
}

impl UsersPage {
    fn has_role(&self, user: &UserView, role: &str) -> bool {
        user.roles.iter().any(|r| r.name() == role)
    }

    fn assigned(&self, user: &UserView, table: &TableId) -> bool {
        user.tables.contains(table)
    }

    fn until(&self, at: &chrono::DateTime<chrono::Utc>) -> String {
        at.with_timezone(&self.tz).format("%H:%M").to_string()
    }
}

async fn users_page_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    problem: String,
    new_token: String,
    form: FormState,
) -> Result<UsersPage, AppError> {
    identity.require(&[Role::Admin])?;
    let (users, tables) = with_db(state, |c| Ok((users::list_users(c)?, crate::db::tables::table_names(c)?))).await?;
    Ok(UsersPage {
        tz: state.time_zone,
        nav: Nav::of(identity),
        users,
        tables,
        roles: Role::ALL.iter().map(|r| r.name()).collect(),
        problem,
        new_token,
        form,
    })
}

/// `GET /admin/users`.
pub async fn users_page(
    state: web::Data<AppState>,
    identity: Identity,
    session: actix_session::Session,
) -> Result<impl Responder, AppError> {
    let mut page = users_page_for(&state, &identity, String::new(), String::new(), FormState::new()).await?;
    page.nav = page.nav.with_notice(&session);
    Ok(page)
}

fn roles_from(form: &[(String, String)]) -> Vec<String> {
    form.iter().filter(|(k, _)| k == "role").map(|(_, v)| v.clone()).collect()
}

fn tables_from(form: &[(String, String)]) -> Vec<TableId> {
    form.iter().filter(|(k, _)| k == "table").filter_map(|(_, v)| v.parse().ok()).map(TableId).collect()
}

/// A users form's answer: on success back to the page with `done` said
/// there (or, for a new token, the page showing it once); when refused, the
/// page again with the problem (and the new-user form as typed).
async fn users_answer(
    state: &web::Data<AppState>,
    identity: &Identity,
    request: &HttpRequest,
    outcome: Result<String, AppError>,
) -> Result<HttpResponse, AppError> {
    users_answer_with(state, identity, request, outcome, None, None).await
}

async fn users_answer_with(
    state: &web::Data<AppState>,
    identity: &Identity,
    request: &HttpRequest,
    outcome: Result<String, AppError>,
    done: Option<(&actix_session::Session, String)>,
    sent: Option<&[(String, String)]>,
) -> Result<HttpResponse, AppError> {
    match outcome {
        Ok(token) if token.is_empty() => {
            if let Some((session, notice)) = done {
                flash(session, notice);
            }
            Ok(see_other("/admin/users"))
        }
        Ok(token) => Ok(users_page_for(state, identity, String::new(), token, FormState::new())
            .await?
            .respond_to(request)
            .map_into_boxed_body()),
        Err(e) => {
            let problem = form_problem(e)?;
            let form = sent.map(|f| FormState::refused(f, &problem)).unwrap_or_default();
            let general = if sent.is_some() { String::new() } else { problem.message.clone() };
            let page = users_page_for(state, identity, general, String::new(), form).await?;
            Ok(form_again(page, request, &problem))
        }
    }
}

/// `POST /admin/users` (a form): a new user.
pub async fn create_user_post(
    state: web::Data<AppState>,
    identity: Identity,
    session: actix_session::Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let req = users::NewUserRequest {
        username: field(&form, "username").to_string(),
        display_name: Some(field(&form, "display_name").to_string()),
        roles: roles_from(&form),
        password: field(&form, "password").to_string(),
        tables: tables_from(&form),
    };
    let actor = identity.actor.clone();
    let outcome = with_database(&state, move |db| users::create_user(db, &actor, req, false)).await;
    let done =
        outcome.as_ref().map(|u| format!("{} ({}) can sign in now.", u.display_name, u.username)).unwrap_or_default();
    let sent: Vec<(String, String)> = form.iter().filter(|(k, _)| k != "password").cloned().collect();
    users_answer_with(&state, &identity, &request, outcome.map(|_| String::new()), Some((&session, done)), Some(&sent))
        .await
}

/// `POST /admin/users/{id}` (a form): roles, tables, active, a new password.
pub async fn update_user_post(
    state: web::Data<AppState>,
    path: web::Path<UserId>,
    identity: Identity,
    session: actix_session::Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let password = field(&form, "password");
    let req = users::UpdateUserRequest {
        display_name: None,
        roles: Some(roles_from(&form)),
        active: Some(field(&form, "active") == "on"),
        password: (!password.is_empty()).then(|| password.to_string()),
        tables: Some(tables_from(&form)),
    };
    let actor = identity.actor.clone();
    let outcome = with_database(&state, move |db| users::update_user(db, &actor, id, req)).await;
    let done = outcome.as_ref().map(|u| format!("{} saved.", u.display_name)).unwrap_or_default();
    users_answer_with(&state, &identity, &request, outcome.map(|_| String::new()), Some((&session, done)), None).await
}

/// `POST /admin/users/{id}/unlock` (a form): a user locked out by failed
/// sign-ins may try again at once.
pub async fn unlock_user_post(
    state: web::Data<AppState>,
    path: web::Path<UserId>,
    identity: Identity,
    session: actix_session::Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let actor = identity.actor.clone();
    match with_database(&state, move |db| users::unlock_user(db, &actor, id)).await {
        Ok(user) => {
            flash(&session, format!("{} can sign in again.", user.display_name));
            Ok(see_other("/admin/users"))
        }
        Err(e) => users_answer(&state, &identity, &request, Err(e)).await,
    }
}

/// `POST /admin/users/{id}/tokens` (a form): a new API token, shown once.
pub async fn create_token_post(
    state: web::Data<AppState>,
    path: web::Path<UserId>,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    // "scanner": a card reader's token (scans only); else the user's roles.
    let req = users::NewTokenRequest {
        label: field(&form, "label").to_string(),
        roles: (field(&form, "scope") == "scanner").then(|| vec!["scanner".to_string()]),
        tables: optional(&form, "tables")
            .map(|t| {
                t.split([',', ' ']).filter(|s| !s.is_empty()).map(|s| s.trim().parse::<i64>().map(TableId)).collect()
            })
            .transpose()
            .map_err(|_| {
                AppError::invalid("bad_table", "tables: give table numbers separated by commas").at_field("tables")
            })?,
        expires_at: optional(&form, "expires_at"),
    };
    let actor = identity.actor.clone();
    let outcome = with_database(&state, move |db| users::create_token(db, &actor, id, req).map(|t| t.token)).await;
    users_answer(&state, &identity, &request, outcome).await
}

#[derive(Template, WebTemplate)]
#[template(path = "admin_tables.html")]
struct AdminTablesPage {
    nav: Nav,
    tables: Vec<crate::service::tables::TableView>,
    pools: Vec<PoolBalance>,
    presets: Vec<&'static str>,
    /// The new-table form, as typed when it was refused.
    table_form: FormState,
    /// The new-pool form, as typed when it was refused.
    pool_form: FormState,
}

async fn admin_tables_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    table_form: FormState,
    pool_form: FormState,
) -> Result<AdminTablesPage, AppError> {
    identity.require(&[Role::Admin])?;
    let (tables, pools) =
        with_db(state, |c| Ok((crate::service::tables::list_tables(c)?, jackpots::pool_balances(c)?))).await?;
    Ok(AdminTablesPage {
        nav: Nav::of(identity),
        tables,
        pools,
        presets: crate::engine::PRESETS.iter().map(|p| p.name).collect(),
        table_form,
        pool_form,
    })
}

/// `GET /admin/tables`: tables and pools, with forms to add them (admin).
pub async fn admin_tables_page(
    state: web::Data<AppState>,
    identity: Identity,
    session: actix_session::Session,
) -> Result<impl Responder, AppError> {
    let mut page = admin_tables_for(&state, &identity, FormState::new(), FormState::new()).await?;
    page.nav = page.nav.with_notice(&session);
    Ok(page)
}

/// Which of the set-up page's forms was sent.
enum SetupForm {
    Table,
    Pool,
}

async fn admin_tables_answer(
    state: &web::Data<AppState>,
    identity: &Identity,
    session: &actix_session::Session,
    request: &HttpRequest,
    sent: (SetupForm, &[(String, String)]),
    outcome: Result<String, AppError>,
) -> Result<HttpResponse, AppError> {
    match outcome {
        Ok(done) => {
            flash(session, done);
            Ok(see_other("/admin/tables"))
        }
        Err(e) => {
            let problem = form_problem(e)?;
            let refused = FormState::refused(sent.1, &problem);
            let page = match sent.0 {
                SetupForm::Table => admin_tables_for(state, identity, refused, FormState::new()).await?,
                SetupForm::Pool => admin_tables_for(state, identity, FormState::new(), refused).await?,
            };
            Ok(form_again(page, request, &problem))
        }
    }
}

/// `POST /admin/pools` (a form): a new jackpot pool.
pub async fn create_pool_post(
    state: web::Data<AppState>,
    identity: Identity,
    session: actix_session::Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let body = NewPoolBody {
        name: field(&form, "name").to_string(),
        seed: field(&form, "seed").to_string(),
        shares: None,
        time_zone: optional(&form, "time_zone"),
        gaming_day_cutoff: optional(&form, "gaming_day_cutoff"),
    };
    let actor = identity.actor.clone();
    let outcome = match body.parse() {
        Ok(req) => {
            with_database(&state, move |db| {
                crate::service::tables::create_pool(db, &actor, req)
                    .map(|p| format!("Pool {} made, seeded {}.", p.name, p.seed))
            })
            .await
        }
        Err(e) => Err(e),
    };
    admin_tables_answer(&state, &identity, &session, &request, (SetupForm::Pool, &form), outcome).await
}

/// `POST /admin/tables` (a form): a new table.
pub async fn create_table_post(
    state: web::Data<AppState>,
    identity: Identity,
    session: actix_session::Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let parsed = (|| {
        let seat_count = optional(&form, "seat_count").map(|s| s.parse::<i32>()).transpose().map_err(|_| {
            AppError::invalid("bad_seat_count", "seat_count must be a whole number").at_field("seat_count")
        })?;
        let pool_id = optional(&form, "pool_id")
            .map(|s| s.parse::<i64>().map(crate::domain::PoolId))
            .transpose()
            .map_err(|_| AppError::invalid("bad_pool", "pool_id must be a pool").at_field("pool_id"))?;
        NewTableBody {
            name: field(&form, "name").to_string(),
            seat_count,
            pool_id,
            time_zone: optional(&form, "time_zone"),
            gaming_day_cutoff: optional(&form, "gaming_day_cutoff"),
            ruleset: RulesetBody {
                preset: field(&form, "preset").to_string(),
                unit: field(&form, "unit").to_string(),
                rake_per_seat: optional(&form, "rake_per_seat"),
                jackpot_part: optional(&form, "jackpot_part"),
                options: None,
                pair_units: None,
            },
        }
        .parse()
    })();
    let actor = identity.actor.clone();
    let outcome = match parsed {
        Ok(req) => {
            with_database(&state, move |db| {
                crate::service::tables::create_table(db, &actor, req).map(|t| format!("Table {} made.", t.name))
            })
            .await
        }
        Err(e) => Err(e),
    };
    admin_tables_answer(&state, &identity, &session, &request, (SetupForm::Table, &form), outcome).await
}

#[derive(Template, WebTemplate)]
#[template(path = "jackpot_slip.html")]
struct JackpotSlipPage {
    nav: Nav,
    slip: jackpots::PayoutSlip,
    tz: chrono_tz::Tz,
}

impl JackpotSlipPage {
    /// A time (UTC) in the casino's zone.
    fn when(&self, at: &chrono::NaiveDateTime) -> String {
        shown(at, self.tz)
    }
}

/// `GET /jackpots/{id}/slip`: a hit's payout slip, printable (floor,
/// accountant, admin): the hit, the shares by seat and player, both
/// sign-offs, and signature lines for each player paid and both signers.
pub async fn jackpot_slip_page(
    state: web::Data<AppState>,
    path: web::Path<HitId>,
    identity: Identity,
) -> Result<impl Responder, AppError> {
    identity.require(REVIEWERS)?;
    let id = path.into_inner();
    let slip = with_db(&state, move |c| jackpots::payout_slip(c, id)).await?;
    // Times as on the floor page: in the casino's zone; the gaming day is the table's.
    Ok(JackpotSlipPage { nav: Nav::of(&identity), slip, tz: state.time_zone })
}
