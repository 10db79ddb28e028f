//! The floor's and the back office's pages: jackpot review with two
//! sign-offs, the exception report, the audit trail, users (admin), and the
//! public jackpot display. Every form carries the session's token; every
//! handler checks its roles.

use actix_web::{http::header, web, HttpRequest, HttpResponse, Responder};
use askama::Template;
use askama_web::WebTemplate;

use super::auth::Identity;
use super::pages::{form_problem, form_token, page_with_status, Nav};
use super::routes::{with_database, with_db};
use super::startup::AppState;
use crate::db::audit::{self, AuditEventView, AuditQuery, ExceptionView};
use crate::db::jackpots::{self, Decision, HitView, PoolBalance};
use crate::db::tables;
use crate::db::users::{self, Role, UserView};
use crate::error::AppError;

fn field<'a>(form: &'a [(String, String)], name: &str) -> &'a str {
    form.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("")
}

fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header((header::LOCATION, location.to_string())).finish()
}

/// A stored (UTC) time as shown on a page: in the casino's time zone.
fn shown(at: &chrono::NaiveDateTime, tz: chrono_tz::Tz) -> String {
    at.and_utc().with_timezone(&tz).format("%Y-%m-%d %H:%M:%S %Z").to_string()
}

/// A stored time in CSV: UTC.
fn utc(at: &chrono::NaiveDateTime) -> String {
    at.format("%Y-%m-%d %H:%M:%S").to_string()
}

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
    identity.require(super::routes::jackpots::REVIEWERS)?;
    let (pools, open, decided) = with_db(state, |c| {
        Ok((
            jackpots::pool_balances(c)?,
            jackpots::list_hits(c, Some("open"), 500)?,
            jackpots::list_hits(c, Some("decided"), 30)?,
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
        can_approve: identity.user.has_any(Decision::Approve.roles()),
        can_verify: identity.user.has_any(Decision::Verify.roles()),
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
    path: web::Path<(i64, String)>,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    let (id, action) = path.into_inner();
    let decision = match action.as_str() {
        "approve" => Decision::Approve,
        "verify" => Decision::Verify,
        "reject" => Decision::Reject,
        other => return Err(AppError::NotFound(format!("no such decision: {other}"))),
    };
    identity.require(decision.roles())?;
    let reason = field(&form, "reason").to_string();
    let (user, actor) = (identity.user.clone(), identity.actor.clone());
    match with_database(&state, move |db| jackpots::decide(db, &user, &actor, id, decision, &reason)).await {
        Ok(_) => Ok(see_other("/floor")),
        Err(e) => {
            let page = floor_page_for(&state, &identity, form_problem(e)?).await?;
            Ok(page_with_status(page, &request, actix_web::http::StatusCode::UNPROCESSABLE_ENTITY))
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
#[template(path = "exceptions.html")]
struct ExceptionsPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    rows: Vec<ExceptionView>,
}

impl ExceptionsPage {
    fn when(&self, at: &chrono::NaiveDateTime) -> String {
        shown(at, self.tz)
    }
}

/// `GET /exceptions`: every void, rejected hit and ruleset change.
pub async fn exceptions_page(state: web::Data<AppState>, identity: Identity) -> Result<impl Responder, AppError> {
    identity.require(super::routes::jackpots::REVIEWERS)?;
    Ok(ExceptionsPage { tz: state.time_zone, nav: Nav::of(&identity), rows: with_db(&state, audit::exceptions).await? })
}

/// `GET /exceptions.csv` (RFC 4180).
pub async fn exceptions_csv(state: web::Data<AppState>, identity: Identity) -> Result<HttpResponse, AppError> {
    identity.require(super::routes::jackpots::REVIEWERS)?;
    let rows = with_db(&state, audit::exceptions).await?;
    let mut out = csv::Writer::from_writer(Vec::new());
    let csv_error = |e: csv::Error| AppError::Internal(e.to_string());
    out.write_record(["at_utc", "kind", "table", "subject", "reason", "note", "by"]).map_err(csv_error)?;
    for r in &rows {
        let t = super::csv_text;
        out.write_record([&utc(&r.at), r.kind, &t(&r.table), &r.subject, &t(&r.reason), &t(&r.note), &t(&r.by)])
            .map_err(csv_error)?;
    }
    let bytes = out.into_inner().map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(("Content-Disposition", "attachment; filename=\"exceptions.csv\""))
        .body(bytes))
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
    nav: Nav,
    users: Vec<UserView>,
    tables: Vec<(i64, String)>,
    roles: Vec<&'static str>,
    problem: String,
    /// A token just made: shown once.
    new_token: String,
}

impl UsersPage {
    fn has_role(&self, user: &UserView, role: &str) -> bool {
        user.roles.iter().any(|r| r.name() == role)
    }

    fn assigned(&self, user: &UserView, table: &i64) -> bool {
        user.tables.contains(table)
    }
}

async fn users_page_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    problem: String,
    new_token: String,
) -> Result<UsersPage, AppError> {
    identity.require(&[Role::Admin])?;
    let (users, tables) = with_db(state, |c| {
        let tables = tables::list_tables(c)?.into_iter().map(|t| (t.id, t.name)).collect();
        Ok((users::list_users(c)?, tables))
    })
    .await?;
    Ok(UsersPage {
        nav: Nav::of(identity),
        users,
        tables,
        roles: Role::ALL.iter().map(|r| r.name()).collect(),
        problem,
        new_token,
    })
}

/// `GET /admin/users`.
pub async fn users_page(state: web::Data<AppState>, identity: Identity) -> Result<impl Responder, AppError> {
    users_page_for(&state, &identity, String::new(), String::new()).await
}

fn roles_from(form: &[(String, String)]) -> Vec<String> {
    form.iter().filter(|(k, _)| k == "role").map(|(_, v)| v.clone()).collect()
}

fn tables_from(form: &[(String, String)]) -> Vec<i64> {
    form.iter().filter(|(k, _)| k == "table").filter_map(|(_, v)| v.parse().ok()).collect()
}

async fn users_answer(
    state: &web::Data<AppState>,
    identity: &Identity,
    request: &HttpRequest,
    outcome: Result<String, AppError>,
) -> Result<HttpResponse, AppError> {
    match outcome {
        Ok(token) if token.is_empty() => Ok(see_other("/admin/users")),
        Ok(token) => {
            Ok(users_page_for(state, identity, String::new(), token).await?.respond_to(request).map_into_boxed_body())
        }
        Err(e) => {
            let page = users_page_for(state, identity, form_problem(e)?, String::new()).await?;
            Ok(page_with_status(page, request, actix_web::http::StatusCode::UNPROCESSABLE_ENTITY))
        }
    }
}

/// `POST /admin/users` (a form): a new user.
pub async fn create_user_post(
    state: web::Data<AppState>,
    identity: Identity,
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
    let outcome =
        with_database(&state, move |db| users::create_user(db, &actor, &req, false).map(|_| String::new())).await;
    users_answer(&state, &identity, &request, outcome).await
}

/// `POST /admin/users/{id}` (a form): roles, tables, active, a new password.
pub async fn update_user_post(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
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
    let outcome =
        with_database(&state, move |db| users::update_user(db, &actor, id, &req).map(|_| String::new())).await;
    users_answer(&state, &identity, &request, outcome).await
}

/// `POST /admin/users/{id}/tokens` (a form): a new API token, shown once.
pub async fn create_token_post(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let req = users::NewTokenRequest { label: field(&form, "label").to_string() };
    let actor = identity.actor.clone();
    let outcome = with_database(&state, move |db| users::create_token(db, &actor, id, &req).map(|t| t.token)).await;
    users_answer(&state, &identity, &request, outcome).await
}

#[derive(Template, WebTemplate)]
#[template(path = "admin_tables.html")]
struct AdminTablesPage {
    nav: Nav,
    tables: Vec<tables::TableView>,
    pools: Vec<PoolBalance>,
    presets: Vec<&'static str>,
    problem: String,
}

async fn admin_tables_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    problem: String,
) -> Result<AdminTablesPage, AppError> {
    identity.require(&[Role::Admin])?;
    let (tables, pools) = with_db(state, |c| Ok((tables::list_tables(c)?, jackpots::pool_balances(c)?))).await?;
    Ok(AdminTablesPage {
        nav: Nav::of(identity),
        tables,
        pools,
        presets: crate::engine::PRESETS.iter().map(|p| p.name).collect(),
        problem,
    })
}

/// `GET /admin/tables`: tables and pools, with forms to add them (admin).
pub async fn admin_tables_page(state: web::Data<AppState>, identity: Identity) -> Result<impl Responder, AppError> {
    admin_tables_for(&state, &identity, String::new()).await
}

async fn admin_tables_answer(
    state: &web::Data<AppState>,
    identity: &Identity,
    request: &HttpRequest,
    outcome: Result<(), AppError>,
) -> Result<HttpResponse, AppError> {
    match outcome {
        Ok(()) => Ok(see_other("/admin/tables")),
        Err(e) => {
            let page = admin_tables_for(state, identity, form_problem(e)?).await?;
            Ok(page_with_status(page, request, actix_web::http::StatusCode::UNPROCESSABLE_ENTITY))
        }
    }
}

fn optional(form: &[(String, String)], name: &str) -> Option<String> {
    Some(field(form, name).trim().to_string()).filter(|v| !v.is_empty())
}

/// `POST /admin/pools` (a form): a new jackpot pool.
pub async fn create_pool_post(
    state: web::Data<AppState>,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let req = tables::NewPoolRequest {
        name: field(&form, "name").to_string(),
        seed: field(&form, "seed").to_string(),
        shares: None,
    };
    let actor = identity.actor.clone();
    let outcome = with_database(&state, move |db| tables::create_pool(db, &actor, &req).map(|_| ())).await;
    admin_tables_answer(&state, &identity, &request, outcome).await
}

/// `POST /admin/tables` (a form): a new table.
pub async fn create_table_post(
    state: web::Data<AppState>,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let seat_count = match optional(&form, "seat_count").map(|s| s.parse::<i32>()) {
        Some(Err(_)) => Err(AppError::Invalid("seat_count must be a whole number".to_string())),
        Some(Ok(n)) => Ok(Some(n)),
        None => Ok(None),
    };
    let pool_id = match optional(&form, "pool_id").map(|s| s.parse::<i64>()) {
        Some(Err(_)) => Err(AppError::Invalid("pool_id must be a pool".to_string())),
        Some(Ok(n)) => Ok(Some(n)),
        None => Ok(None),
    };
    let outcome = match (seat_count, pool_id) {
        (Ok(seat_count), Ok(pool_id)) => {
            let req = tables::NewTableRequest {
                name: field(&form, "name").to_string(),
                seat_count,
                pool_id,
                time_zone: optional(&form, "time_zone"),
                gaming_day_cutoff: optional(&form, "gaming_day_cutoff"),
                ruleset: tables::RulesetRequest {
                    preset: field(&form, "preset").to_string(),
                    unit: field(&form, "unit").to_string(),
                    rake_per_seat: optional(&form, "rake_per_seat"),
                    jackpot_part: optional(&form, "jackpot_part"),
                    options: None,
                },
            };
            let actor = identity.actor.clone();
            with_database(&state, move |db| tables::create_table(db, &actor, &req).map(|_| ())).await
        }
        (Err(e), _) | (_, Err(e)) => Err(e),
    };
    admin_tables_answer(&state, &identity, &request, outcome).await
}
