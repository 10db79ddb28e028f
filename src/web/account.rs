//! Signing in and out, and the first admin account of a new installation.
//! There are no default credentials: until a user exists, the sign-in page
//! sends you to `/setup`, which answers only on the server itself (a
//! loopback address); `pitboss admin create` does the same from a shell.

use actix_session::Session;
use actix_web::{http::header, web, HttpRequest, HttpResponse, Responder};
use askama::Template;
use askama_web::WebTemplate;

use super::auth::{self, Identity};
use super::pages::{form_token, page_with_status, Nav};
use super::routes::{with_database, with_db};
use super::startup::AppState;
use crate::db::audit::Actor;
use crate::db::users;
use crate::error::AppError;

#[derive(Template, WebTemplate)]
#[template(path = "login.html")]
struct LoginPage {
    nav: Nav,
    next: String,
    username: String,
    problem: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "setup.html")]
struct SetupPage {
    nav: Nav,
    setup_token: String,
    username: String,
    display_name: String,
    problem: String,
    min_password: usize,
}

#[derive(Debug, serde::Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

fn field<'a>(form: &'a [(String, String)], name: &str) -> &'a str {
    form.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("")
}

fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header((header::LOCATION, location.to_string())).finish()
}

/// `GET /login`.
pub async fn login_page(
    state: web::Data<AppState>,
    session: Session,
    request: HttpRequest,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, AppError> {
    if with_db(&state, users::count_users).await? == 0 {
        return Ok(see_other("/setup"));
    }
    let page = LoginPage {
        nav: Nav::anonymous(auth::session_csrf(&session)),
        next: auth::safe_next(query.next.as_deref()),
        username: String::new(),
        problem: String::new(),
    };
    Ok(page.respond_to(&request).map_into_boxed_body())
}

/// `POST /login`: checks the password (rate-limited), starts a new session.
pub async fn login_post(
    state: web::Data<AppState>,
    session: Session,
    request: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    auth::check_session_csrf(&session, form_token(&form))?;
    let username = field(&form, "username").to_string();
    let password = field(&form, "password").to_string();
    let next = auth::safe_next(Some(field(&form, "next")));
    let ip = auth::client_ip(&request);
    let name = username.clone();
    match with_database(&state, move |db| users::sign_in(db, &name, &password, &ip)).await {
        Ok(user) => {
            auth::start_session(&session, &user)?;
            Ok(see_other(&next))
        }
        Err(e @ (AppError::Unauthorized(_) | AppError::TooManyRequests(_))) => {
            let status = actix_web::ResponseError::status_code(&e);
            let page =
                LoginPage { nav: Nav::anonymous(auth::session_csrf(&session)), next, username, problem: e.to_string() };
            Ok(page_with_status(page, &request, status))
        }
        Err(other) => Err(other),
    }
}

/// `POST /logout`.
pub async fn logout_post(
    state: web::Data<AppState>,
    session: Session,
    identity: Identity,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    let actor = identity.actor.clone();
    with_database(&state, move |db| users::sign_out(db, &actor)).await?;
    auth::end_session(&session);
    Ok(see_other("/login"))
}

/// `/setup` answers only on the server itself (a loopback address, not
/// through a proxy) and only with the one-time token printed in the
/// service's log at start-up.
async fn setup_refusal(state: &web::Data<AppState>, req: &HttpRequest, sent: &str) -> Result<(), AppError> {
    let how = "open the /setup link printed in the service's log at start-up, on the server itself, \
               or run `pitboss admin create` there";
    if !auth::is_local(req) {
        return Err(AppError::Forbidden(format!("the first admin account is made on the server itself: {how}")));
    }
    let expected = with_database(state, users::setup_token).await?.unwrap_or_default();
    if expected.is_empty() || !bool::from(subtle::ConstantTimeEq::ct_eq(expected.as_bytes(), sent.as_bytes())) {
        return Err(AppError::Forbidden(format!("this installation has no user yet: {how}")));
    }
    Ok(())
}

#[derive(Debug, serde::Deserialize)]
pub struct SetupQuery {
    token: Option<String>,
}

/// `GET /setup`: the first admin account (loopback only, only while there is no user).
pub async fn setup_page(
    state: web::Data<AppState>,
    session: Session,
    request: HttpRequest,
    query: web::Query<SetupQuery>,
) -> Result<HttpResponse, AppError> {
    if with_db(&state, users::count_users).await? > 0 {
        return Ok(see_other("/login"));
    }
    let token = query.into_inner().token.unwrap_or_default();
    setup_refusal(&state, &request, &token).await?;
    let page = SetupPage {
        setup_token: token,
        nav: Nav::anonymous(auth::session_csrf(&session)),
        username: String::new(),
        display_name: String::new(),
        problem: String::new(),
        min_password: users::PASSWORD_LENGTH.0,
    };
    Ok(page.respond_to(&request).map_into_boxed_body())
}

/// `POST /setup`: makes the first admin and signs them in.
pub async fn setup_post(
    state: web::Data<AppState>,
    session: Session,
    request: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    if with_db(&state, users::count_users).await? > 0 {
        return Ok(see_other("/login"));
    }
    let token = field(&form, "setup_token").to_string();
    setup_refusal(&state, &request, &token).await?;
    auth::check_session_csrf(&session, form_token(&form))?;
    let (username, display_name) = (field(&form, "username").to_string(), field(&form, "display_name").to_string());
    let (password, again) = (field(&form, "password").to_string(), field(&form, "password_again").to_string());
    let problem = if password != again {
        Some("the two passwords differ".to_string())
    } else {
        let req = users::NewUserRequest {
            username: username.clone(),
            display_name: Some(display_name.clone()),
            roles: vec!["admin".to_string()],
            password: password.clone(),
            tables: Vec::new(),
        };
        let actor = Actor::anonymous("setup", &auth::client_ip(&request));
        match with_database(&state, move |db| users::create_user(db, &actor, &req, true)).await {
            Ok(_) => {
                let ip = auth::client_ip(&request);
                let name = username.clone();
                let user = with_database(&state, move |db| users::sign_in(db, &name, &password, &ip)).await?;
                auth::start_session(&session, &user)?;
                return Ok(see_other("/admin/users"));
            }
            Err(AppError::Invalid(m)) => Some(m),
            Err(AppError::Conflict(_)) => return Ok(see_other("/login")),
            Err(other) => return Err(other),
        }
    };
    let page = SetupPage {
        setup_token: token,
        nav: Nav::anonymous(auth::session_csrf(&session)),
        username,
        display_name,
        problem: problem.unwrap_or_default(),
        min_password: users::PASSWORD_LENGTH.0,
    };
    Ok(page_with_status(page, &request, actix_web::http::StatusCode::UNPROCESSABLE_ENTITY))
}
