//! Building and running the app. Tests start the same app on port 0.

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::{error::InternalError, middleware, web, App, HttpServer, ResponseError};

use super::routes::{self, hands, health, jackpots, score, tables, users};
use super::{account, floor, pages, reports};
use crate::db::{self, Database};
use crate::error::AppError;

/// Largest request body accepted (a showdown is well under 4 KiB).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Configuration from the environment.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `BIND_ADDR`, default `127.0.0.1:8080`.
    pub bind_addr: String,
    /// `DATABASE_URL`: `postgres://…`, or a SQLite file (default `pitboss.sqlite`).
    pub database_url: String,
    /// `DATABASE_POOL_SIZE`, default 16.
    pub pool_size: u32,
}

impl Settings {
    pub fn from_env() -> Settings {
        Settings {
            bind_addr: std::env::var("BIND_ADDR").unwrap_or_else(|_| "127.0.0.1:8080".to_string()),
            database_url: std::env::var("DATABASE_URL").unwrap_or_else(|_| db::DEFAULT_DATABASE.to_string()),
            pool_size: std::env::var("DATABASE_POOL_SIZE").ok().and_then(|s| s.parse().ok()).unwrap_or(16),
        }
    }
}

/// What every handler can reach. Nothing here holds state that matters
/// between requests: several app servers can share one database.
pub struct AppState {
    pub db: Database,
    /// The casino's time zone (`TIME_ZONE`, default UTC): times on the floor
    /// and back-office pages are shown in it (they are stored in UTC).
    pub time_zone: chrono_tz::Tz,
    /// `TRUST_PROXY=true`: client addresses come from the last
    /// `X-Forwarded-For` entry (set it only behind a proxy that appends it).
    pub trust_proxy: bool,
}

/// Registers every route; shared by the server and the tests.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let path_error = web::PathConfig::default().error_handler(|err, _req| {
        let response = AppError::NotFound(format!("no such resource: {err}")).error_response();
        InternalError::from_response(err.to_string(), response).into()
    });
    let query_error = web::QueryConfig::default().error_handler(|err, _req| {
        let response = AppError::Invalid(format!("the query string is not valid: {err}")).error_response();
        InternalError::from_response(err.to_string(), response).into()
    });
    let form_error = web::FormConfig::default().limit(MAX_BODY_BYTES).error_handler(|err, _req| {
        let response = AppError::BadRequest(format!("the form could not be read: {err}")).error_response();
        InternalError::from_response(err.to_string(), response).into()
    });
    cfg.app_data(path_error)
        .app_data(query_error)
        .app_data(form_error)
        .service(web::resource("/login").route(web::get().to(account::login_page)).route(form(account::login_post)))
        .service(web::resource("/logout").route(form(account::logout_post)))
        .service(web::resource("/setup").route(web::get().to(account::setup_page)).route(form(account::setup_post)))
        .route("/display", web::get().to(floor::display_page))
        .route("/floor", web::get().to(floor::floor_page))
        .service(web::resource("/floor/jackpots/{id}/{decision}").route(form(floor::decide_post)))
        .route("/exceptions", web::get().to(floor::exceptions_page))
        .route("/exceptions.csv", web::get().to(floor::exceptions_csv))
        .route("/audit", web::get().to(floor::audit_page))
        .service(
            web::resource("/admin/users").route(web::get().to(floor::users_page)).route(form(floor::create_user_post)),
        )
        .service(
            web::resource("/admin/tables")
                .route(web::get().to(floor::admin_tables_page))
                .route(form(floor::create_table_post)),
        )
        .service(web::resource("/admin/pools").route(form(floor::create_pool_post)))
        .service(web::resource("/admin/users/{id}").route(form(floor::update_user_post)))
        .service(web::resource("/admin/users/{id}/tokens").route(form(floor::create_token_post)))
        .service(web::resource("/tables/{id}/hands/{number}/void").route(form(pages::void_post)))
        .route("/", web::get().to(pages::tables_page))
        .route("/tables/{id}", web::get().to(pages::table_page))
        .service(
            web::resource("/tables/{id}/hands/{number}/entry")
                .route(web::get().to(pages::entry_page))
                .route(form(pages::entry_post)),
        )
        .service(web::resource("/tables/{id}/start-hand").route(form(pages::start_hand_post)))
        .service(web::resource("/tables/{id}/seats/{seat}/{action}").route(form(pages::seat_post)))
        .route("/tables/{id}/hands/{number}/sheet", web::get().to(pages::sheet_page))
        .route("/tables/{id}/hands/{number}/sheet.json", web::get().to(pages::sheet_json))
        .route("/tables/{id}/hands/{number}/sheet.csv", web::get().to(pages::sheet_csv))
        .route("/static/{file}", web::get().to(pages::static_file))
        // Reports (accountant): every route under /reports, GET only.
        .service(
            web::scope("/reports")
                .route("", web::get().to(reports::index))
                .route("/rake", web::get().to(reports::rake_page))
                .route("/rake.csv", web::get().to(reports::rake_csv))
                .route("/rake.json", web::get().to(reports::rake_json))
                .route("/rake.svg", web::get().to(reports::rake_svg))
                .route("/jackpots", web::get().to(reports::jackpots_page))
                .route("/jackpots.csv", web::get().to(reports::jackpots_csv))
                .route("/jackpots.json", web::get().to(reports::jackpots_json))
                .route("/jackpots.svg", web::get().to(reports::jackpots_svg))
                .route("/sessions", web::get().to(reports::sessions_page))
                .route("/sessions.csv", web::get().to(reports::sessions_csv))
                .route("/sessions.json", web::get().to(reports::sessions_json))
                .default_service(web::to(routes::not_found)),
        )
        .route("/healthz", web::get().to(health::healthz))
        .route("/readyz", web::get().to(health::readyz))
        .service(
            web::scope("/api/v1")
                .wrap(middleware::from_fn(require_json))
                .service(resource("/score").route(web::post().to(score::score_showdown)))
                .service(resource("/me").route(web::get().to(users::me)))
                .service(
                    resource("/users")
                        .route(web::get().to(users::list_users))
                        .route(web::post().to(users::create_user)),
                )
                .service(
                    resource("/users/{id}")
                        .route(web::get().to(users::get_user))
                        .route(web::patch().to(users::update_user)),
                )
                .service(resource("/users/{id}/tokens").route(web::post().to(users::create_token)))
                .service(resource("/tokens/{id}").route(web::delete().to(users::revoke_token)))
                .service(resource("/jackpots").route(web::get().to(jackpots::list_hits)))
                .service(resource("/jackpots/{id}").route(web::get().to(jackpots::get_hit)))
                .service(resource("/jackpots/{id}/approve").route(web::post().to(jackpots::approve)))
                .service(resource("/jackpots/{id}/verify").route(web::post().to(jackpots::verify)))
                .service(resource("/jackpots/{id}/reject").route(web::post().to(jackpots::reject)))
                .service(resource("/audit").route(web::get().to(jackpots::audit_trail)))
                .service(resource("/exceptions").route(web::get().to(jackpots::exceptions)))
                .service(resource("/presets").route(web::get().to(score::list_presets)))
                .service(resource("/analyse").route(web::post().to(score::analyse)))
                .service(resource("/pools").route(web::post().to(tables::create_pool)))
                .service(resource("/pools/{id}").route(web::get().to(tables::get_pool)))
                .service(
                    resource("/tables")
                        .route(web::post().to(tables::create_table))
                        .route(web::get().to(tables::list_tables)),
                )
                .service(resource("/tables/{id}").route(web::get().to(tables::get_table)))
                .service(resource("/tables/{id}/ruleset").route(web::put().to(tables::change_ruleset)))
                .service(resource("/tables/{id}/seats").route(web::post().to(tables::seat_player)))
                .service(resource("/tables/{id}/seats/{seat}/add-on").route(web::post().to(tables::add_on)))
                .service(resource("/tables/{id}/seats/{seat}/cash-out").route(web::post().to(tables::cash_out)))
                .service(resource("/tables/{id}/ledger").route(web::get().to(tables::table_ledger)))
                .service(resource("/tables/{id}/hands").route(web::post().to(hands::start_hand)))
                .service(resource("/tables/{id}/hands/{number}").route(web::get().to(hands::get_hand)))
                .service(resource("/tables/{id}/hands/{number}/preview").route(web::post().to(hands::preview)))
                .service(resource("/tables/{id}/hands/{number}/commit").route(web::post().to(hands::commit)))
                .service(resource("/tables/{id}/hands/{number}/void").route(web::post().to(hands::void)))
                .service(resource("/tables/{id}/hands/{number}/rescore").route(web::get().to(hands::rescore)))
                .service(
                    resource("/tables/{id}/hands/{number}/scans")
                        .route(web::get().to(hands::scans))
                        .route(web::post().to(hands::add_scan)),
                ),
        );
}

/// A request that changes something must say its body is JSON. Browsers
/// cannot send that content type to another site without its consent (a CORS
/// preflight this service never grants), so no other page can post to the API
/// on a user's behalf (cross-site request forgery).
async fn require_json(
    req: actix_web::dev::ServiceRequest,
    next: middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    use actix_web::http::{header, Method};
    // Scoring and analysing write nothing: any body is welcome there.
    let pure = matches!(req.path(), "/api/v1/score" | "/api/v1/analyse");
    let changes = !pure && !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if changes && !json {
        return Err(AppError::UnsupportedMediaType.into());
    }
    next.call(req).await
}

/// A form post must come from this service's own pages: its `Origin` (or,
/// without one, its `Referer`) must name the host it was sent to. Browsers
/// set these headers and pages cannot forge them, so another site cannot post
/// a form on a dealer's behalf (cross-site request forgery).
async fn same_origin(
    req: actix_web::dev::ServiceRequest,
    next: middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<
    actix_web::dev::ServiceResponse<actix_web::body::EitherBody<impl actix_web::body::MessageBody>>,
    actix_web::Error,
> {
    use actix_web::http::header;
    let host = req.connection_info().host().to_string();
    let header_value = |name| req.headers().get(name).and_then(|v: &header::HeaderValue| v.to_str().ok());
    let from = header_value(header::ORIGIN).or_else(|| header_value(header::REFERER)).unwrap_or("");
    let from_host = from.split("://").nth(1).map(|rest| rest.split('/').next().unwrap_or(""));
    if from_host != Some(host.as_str()) {
        let refusal = AppError::Forbidden(format!(
            "this form was not sent from this service's own page (origin {:?}, host {host:?})",
            from
        ));
        // An answer, not an error, so that a browser gets it as a page.
        return Ok(req.into_response(refusal.error_response()).map_into_right_body());
    }
    next.call(req).await.map(|res| res.map_into_left_body())
}

/// A form post: only from this service's own pages.
fn form<F, Args>(handler: F) -> actix_web::Route
where
    F: actix_web::Handler<Args>,
    Args: actix_web::FromRequest + 'static,
    F::Output: actix_web::Responder + 'static,
{
    web::post().to(handler).wrap(middleware::from_fn(same_origin))
}

/// A resource whose other methods answer 405 in JSON.
fn resource(path: &str) -> actix_web::Resource {
    web::resource(path).default_service(web::to(routes::method_not_allowed))
}

/// Session cookies are `Secure` (sent over HTTPS only) unless the service
/// listens on a loopback address only, where there is no TLS to be had;
/// `SECURE_COOKIES=true|false` decides otherwise (e.g. `true` behind a TLS
/// proxy on the same host).
fn secure_cookies(listener: &TcpListener) -> bool {
    match std::env::var("SECURE_COOKIES").ok().as_deref() {
        Some("true" | "1") => true,
        Some("false" | "0") => false,
        _ => !listener.local_addr().is_ok_and(|a| a.ip().is_loopback()),
    }
}

/// Starts the service on `listener` with the database `db`.
pub fn run(listener: TcpListener, db: Database) -> std::io::Result<Server> {
    use actix_session::{config::CookieContentSecurity, storage::CookieSessionStore, SessionMiddleware};
    let key = crate::db::users::session_key(&db).map_err(|e| std::io::Error::other(e.to_string()))?;
    if let Some(token) = crate::db::users::setup_token(&db).map_err(|e| std::io::Error::other(e.to_string()))? {
        let at = listener.local_addr()?;
        log::warn!(
            "no user yet: make the first admin at http://{at}/setup?token={token} (on this machine), \
             or run `pitboss admin create`"
        );
    }
    let key = actix_web::cookie::Key::from(&key);
    let secure = secure_cookies(&listener);
    let time_zone = match std::env::var("TIME_ZONE") {
        Ok(name) if !name.is_empty() => name.parse::<chrono_tz::Tz>().map_err(|_| {
            std::io::Error::other(format!("TIME_ZONE {name:?} is not an IANA time zone (e.g. America/Los_Angeles)"))
        })?,
        _ => chrono_tz::UTC,
    };
    let trust_proxy = matches!(std::env::var("TRUST_PROXY").ok().as_deref(), Some("true" | "1"));
    let state = web::Data::new(AppState { db, time_zone, trust_proxy });
    let server = HttpServer::new(move || {
        let sessions = SessionMiddleware::builder(CookieSessionStore::default(), key.clone())
            .cookie_name("pitboss_session".to_string())
            .cookie_secure(secure)
            .cookie_http_only(true)
            .cookie_same_site(actix_web::cookie::SameSite::Strict)
            .cookie_content_security(CookieContentSecurity::Private)
            .build();
        App::new()
            .wrap(middleware::from_fn(super::error::html_errors))
            .wrap(sessions)
            .wrap(middleware::Logger::default())
            .app_data(state.clone())
            .configure(configure)
            .default_service(web::to(routes::not_found))
    })
    .listen(listener)?
    .run();
    Ok(server)
}
