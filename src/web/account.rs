//! Signing in and out, and the first admin account of a new installation.
//! There are no default credentials: until a user exists, the sign-in page
//! sends you to `/setup`, which answers only on the server itself (a
//! loopback address); `pitboss admin create` does the same from a shell.

use actix_session::Session;
use actix_web::{web, HttpRequest, HttpResponse, Responder};
use askama::Template;
use askama_web::WebTemplate;

use super::auth::{self, Identity};
use super::extract::{with_database, with_db};
use super::helpers::{field, form_again, form_token, see_other, Nav};
use super::state::AppState;
use crate::domain::{Actor, AppError, Kind};
use crate::service::users;

#[derive(Template, WebTemplate)]
#[template(path = "login.html")]
struct LoginPage {
    nav: Nav,
    next: String,
    username: String,
    problem: String,
    notice: String,
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
    /// Back from a password change.
    changed: Option<String>,
    /// Sent here because the session ended (the dealer screen).
    expired: Option<String>,
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
        notice: if query.changed.is_some() {
            "Your password is changed; sign in with the new one.".to_string()
        } else if query.expired.is_some() {
            "Your session has ended. Sign in again to go back where you were; \
             the cards typed so far are kept in this browser."
                .to_string()
        } else {
            String::new()
        },
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
    let ip = super::observe::client_ip(&request);
    let name = username.clone();
    match with_database(&state, move |db| users::sign_in(db, &name, &password, &ip)).await {
        Ok(user) => {
            auth::start_session(&session, &user)?;
            Ok(see_other(&next))
        }
        Err(e) if matches!(e.kind, Kind::Unauthorized | Kind::TooManyRequests) => {
            let page = LoginPage {
                nav: Nav::anonymous(auth::session_csrf(&session)),
                next,
                username,
                problem: e.message.clone(),
                notice: String::new(),
            };
            Ok(form_again(page, &request, &e))
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
        return Err(AppError::forbidden(
            "setup_not_local",
            format!("the first admin account is made on the server itself: {how}"),
        ));
    }
    let expected = with_database(state, users::setup_token).await?.unwrap_or_default();
    if expected.is_empty() || !bool::from(subtle::ConstantTimeEq::ct_eq(expected.as_bytes(), sent.as_bytes())) {
        return Err(AppError::forbidden("setup_token", format!("this installation has no user yet: {how}")));
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
        Some(AppError::invalid("passwords_differ", "the two passwords differ").at_field("password_again"))
    } else {
        let req = users::NewUserRequest {
            username: username.clone(),
            display_name: Some(display_name.clone()),
            roles: vec!["admin".to_string()],
            password: password.clone(),
            tables: Vec::new(),
        };
        let actor = Actor::anonymous("setup", &super::observe::client_ip(&request));
        match with_database(&state, move |db| users::create_user(db, &actor, req, true)).await {
            Ok(_) => {
                let ip = super::observe::client_ip(&request);
                let name = username.clone();
                let user = with_database(&state, move |db| users::sign_in(db, &name, &password, &ip)).await?;
                auth::start_session(&session, &user)?;
                return Ok(see_other("/admin/users"));
            }
            Err(e) if e.is(Kind::Invalid) => Some(e),
            Err(e) if e.is(Kind::Conflict) => return Ok(see_other("/login")),
            Err(other) => return Err(other),
        }
    };
    let problem = problem.unwrap_or_else(|| AppError::invalid("setup", "the first admin could not be made"));
    let page = SetupPage {
        setup_token: token,
        nav: Nav::anonymous(auth::session_csrf(&session)),
        username,
        display_name,
        problem: problem.message.clone(),
        min_password: users::PASSWORD_LENGTH.0,
    };
    Ok(form_again(page, &request, &problem))
}

#[derive(Template, WebTemplate)]
#[template(path = "password.html")]
struct PasswordPage {
    nav: Nav,
    problem: String,
    min_password: usize,
}

/// `GET /account/password`: choose a new password of one's own.
pub async fn password_page(identity: Identity) -> Result<impl Responder, AppError> {
    Ok(PasswordPage { nav: Nav::of(&identity), problem: String::new(), min_password: users::PASSWORD_LENGTH.0 })
}

/// `POST /account/password` (a form): the current and the new password. Every
/// session of the user ends, this one too: they sign in again with the new one.
pub async fn password_post(
    state: web::Data<AppState>,
    identity: Identity,
    session: Session,
    request: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    let (current, new) = (field(&form, "current_password").to_string(), field(&form, "new_password").to_string());
    if new != field(&form, "new_password_again") {
        let problem = AppError::invalid("passwords_differ", "the two new passwords differ; type the same one twice")
            .at_field("new_password_again");
        let page = PasswordPage {
            nav: Nav::of(&identity),
            problem: problem.message.clone(),
            min_password: users::PASSWORD_LENGTH.0,
        };
        return Ok(form_again(page, &request, &problem));
    }
    let actor = identity.actor.clone();
    match with_database(&state, move |db| users::change_own_password(db, &actor, &current, &new)).await {
        Ok(()) => {
            auth::end_session(&session);
            Ok(see_other("/login?changed=1"))
        }
        Err(e) if e.is(Kind::Invalid) => {
            let page = PasswordPage {
                nav: Nav::of(&identity),
                problem: e.message.clone(),
                min_password: users::PASSWORD_LENGTH.0,
            };
            Ok(form_again(page, &request, &e))
        }
        Err(other) => Err(other),
    }
}
