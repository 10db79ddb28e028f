//! Building and running the app. Tests start the same app on port 0.

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::{error::InternalError, middleware, web, App, HttpServer, ResponseError};

use super::observe::Lifecycle;
use super::routes::{self, gaming_days, hands, health, jackpots, players, score, tables, users};
use super::state::{AppState, MAX_BODY_BYTES};
use super::{account, admin, floor, gaming_days as day_pages, pages, players as player_pages, reports};
use crate::config::Config;
use crate::db::Database;
use crate::domain::AppError;

/// Registers every route; shared by the server and the tests.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let path_error = web::PathConfig::default().error_handler(|err, _req| {
        let response = AppError::not_found("no_route", format!("no such resource: {err}")).error_response();
        InternalError::from_response(err.to_string(), response).into()
    });
    let query_error = web::QueryConfig::default().error_handler(|err, _req| {
        let response = AppError::invalid("bad_query", format!("the query string is not valid: {err}")).error_response();
        InternalError::from_response(err.to_string(), response).into()
    });
    let form_error = web::FormConfig::default().limit(MAX_BODY_BYTES).error_handler(|err, _req| {
        let response = AppError::bad_request("bad_form", format!("the form could not be read: {err}")).error_response();
        InternalError::from_response(err.to_string(), response).into()
    });
    cfg.app_data(path_error)
        .app_data(query_error)
        .app_data(form_error)
        .service(web::resource("/login").route(web::get().to(account::login_page)).route(form(account::login_post)))
        .service(web::resource("/logout").route(form(account::logout_post)))
        .service(
            web::resource("/account/password")
                .route(web::get().to(account::password_page))
                .route(form(account::password_post)),
        )
        .service(web::resource("/setup").route(web::get().to(account::setup_page)).route(form(account::setup_post)))
        .route("/display", web::get().to(floor::display_page))
        .route("/floor", web::get().to(floor::floor_page))
        .route("/floor/board", web::get().to(floor::board_page))
        .service(web::resource("/floor/tables/{id}/{action}").route(form(floor::table_status_post)))
        .service(web::resource("/floor/jackpots/{id}/{decision}").route(form(floor::decide_post)))
        .route("/gaming-days", web::get().to(day_pages::days_page))
        .route("/gaming-days/{date}", web::get().to(day_pages::day_page))
        .service(web::resource("/gaming-days/{date}/count").route(form(day_pages::count_post)))
        .service(web::resource("/gaming-days/{date}/close").route(form(day_pages::close_post)))
        .route("/jackpots/{id}/slip", web::get().to(floor::jackpot_slip_page))
        .route("/tables/{id}/cash-outs/{entry}/slip", web::get().to(pages::cash_out_slip_page))
        .route("/exceptions", web::get().to(reports::exceptions_page))
        .route("/exceptions.csv", web::get().to(reports::exceptions_csv))
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
        .service(
            web::resource("/players")
                .route(web::get().to(player_pages::players_page))
                .route(form(player_pages::players_post)),
        )
        .service(web::resource("/players/{id}").route(web::get().to(player_pages::player_page)))
        .service(
            web::resource("/admin/tables/{id}").route(web::get().to(admin::table_page)).route(form(admin::table_post)),
        )
        .service(
            web::resource("/admin/pools/{id}").route(web::get().to(admin::pool_page)).route(form(admin::pool_post)),
        )
        .service(web::resource("/admin/pools/{id}/seed").route(form(admin::pool_seed_post)))
        .service(web::resource("/admin/users/{id}/unlock").route(form(floor::unlock_user_post)))
        .service(
            web::resource("/tables/{id}/ruleset")
                .route(web::get().to(admin::ruleset_page))
                .route(form(admin::ruleset_post)),
        )
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
                .route("/jackpot-hits.csv", web::get().to(reports::jackpot_hits_csv))
                .route("/jackpots.json", web::get().to(reports::jackpots_json))
                .route("/jackpots.svg", web::get().to(reports::jackpots_svg))
                .route("/sessions", web::get().to(reports::sessions_page))
                .route("/sessions.csv", web::get().to(reports::sessions_csv))
                .route("/sessions.json", web::get().to(reports::sessions_json))
                .default_service(web::to(routes::not_found)),
        )
        .route("/healthz", web::get().to(health::healthz))
        .route("/readyz", web::get().to(health::readyz))
        .route("/metrics", web::get().to(routes::metrics::metrics))
        // The OpenAPI document (`/api/openapi.json`) and Swagger UI.
        .route("/api/docs", web::get().to(super::openapi::to_docs))
        .service(super::openapi::swagger_ui())
        .service(
            web::scope("/api/v1")
                .wrap(middleware::from_fn(require_json))
                .service(resource("/score").route(web::post().to(score::score_showdown)))
                .service(resource("/me").route(web::get().to(users::me)))
                .service(resource("/me/password").route(web::post().to(users::change_password)))
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
                .service(resource("/users/{id}/unlock").route(web::post().to(users::unlock_user)))
                .service(resource("/tokens/{id}").route(web::delete().to(users::revoke_token)))
                .service(resource("/jackpots").route(web::get().to(jackpots::list_hits)))
                .service(resource("/jackpots/{id}").route(web::get().to(jackpots::get_hit)))
                .service(resource("/jackpots/{id}/approve").route(web::post().to(jackpots::approve)))
                .service(resource("/jackpots/{id}/verify").route(web::post().to(jackpots::verify)))
                .service(resource("/jackpots/{id}/reject").route(web::post().to(jackpots::reject)))
                .service(resource("/audit").route(web::get().to(jackpots::audit_trail)))
                .service(resource("/exceptions").route(web::get().to(jackpots::exceptions)))
                .service(
                    resource("/players")
                        .route(web::get().to(players::list_players))
                        .route(web::post().to(players::create_player)),
                )
                .service(resource("/players/{id}").route(web::get().to(players::get_player)))
                .service(resource("/presets").route(web::get().to(score::list_presets)))
                .service(resource("/analyse").route(web::post().to(score::analyse)))
                .service(
                    resource("/pools")
                        .route(web::post().to(tables::create_pool))
                        .route(web::get().to(tables::list_pools)),
                )
                .service(
                    resource("/pools/{id}")
                        .route(web::get().to(tables::get_pool))
                        .route(web::patch().to(tables::edit_pool)),
                )
                .service(resource("/pools/{id}/seed").route(web::post().to(tables::seed_pool)))
                .service(
                    resource("/tables")
                        .route(web::post().to(tables::create_table))
                        .route(web::get().to(tables::list_tables)),
                )
                .service(
                    resource("/tables/{id}")
                        .route(web::get().to(tables::get_table))
                        .route(web::patch().to(tables::edit_table)),
                )
                .service(resource("/tables/{id}/ruleset").route(web::put().to(tables::change_ruleset)))
                .service(resource("/tables/{id}/seats").route(web::post().to(tables::seat_player)))
                .service(resource("/tables/{id}/seats/{seat}/add-on").route(web::post().to(tables::add_on)))
                .service(resource("/tables/{id}/seats/{seat}/cash-out").route(web::post().to(tables::cash_out)))
                .service(resource("/tables/{id}/ledger").route(web::get().to(tables::table_ledger)))
                .service(resource("/tables/{id}/close").route(web::post().to(tables::close_table)))
                .service(resource("/tables/{id}/open").route(web::post().to(tables::open_table)))
                .service(resource("/board").route(web::get().to(tables::board)))
                .service(resource("/board/events").route(web::get().to(tables::board_events)))
                .service(resource("/gaming-days").route(web::get().to(gaming_days::list_days)))
                .service(resource("/gaming-days/{date}").route(web::get().to(gaming_days::get_day)))
                .service(resource("/gaming-days/{date}/count").route(web::post().to(gaming_days::count)))
                .service(resource("/gaming-days/{date}/close").route(web::post().to(gaming_days::close)))
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
) -> Result<
    actix_web::dev::ServiceResponse<actix_web::body::EitherBody<impl actix_web::body::MessageBody>>,
    actix_web::Error,
> {
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
        // An answer, not an error, so that the outer middleware (request
        // id, security headers) sees it.
        return Ok(req.into_response(AppError::json_required().error_response()).map_into_right_body());
    }
    next.call(req).await.map(|res| res.map_into_left_body())
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
    // The host the request was sent to: its own Host header. Forwarding
    // headers (X-Forwarded-Host, Forwarded) count only behind a trusted proxy.
    let trust_proxy = req.app_data::<web::Data<AppState>>().is_some_and(|s| s.trust_proxy);
    let host = if trust_proxy {
        req.connection_info().host().to_string()
    } else {
        req.headers().get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("").to_string()
    };
    let header_value = |name| req.headers().get(name).and_then(|v: &header::HeaderValue| v.to_str().ok());
    let from = header_value(header::ORIGIN).or_else(|| header_value(header::REFERER)).unwrap_or("");
    let from_host = from.split("://").nth(1).map(|rest| rest.split('/').next().unwrap_or(""));
    if from_host != Some(host.as_str()) {
        let refusal = AppError::forbidden(
            "cross_site_form",
            format!("this form was not sent from this service's own page (origin {from:?}, host {host:?})"),
        );
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

/// The service started: the server, and what its shutdown needs.
pub struct Service {
    pub server: Server,
    lifecycle: web::Data<Lifecycle>,
    shutdown_timeout: std::time::Duration,
}

impl Service {
    /// Serves until SIGTERM or Ctrl-C, then drains: new requests are answered
    /// 503 `shutting_down` while the ones in flight (commits waiting for
    /// their durable COMMIT) finish, at most `SHUTDOWN_TIMEOUT`; then the
    /// server stops.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let Service { server, lifecycle, shutdown_timeout } = self;
        let handle = server.handle();
        actix_web::rt::spawn(async move {
            let signal = stop_signal().await;
            log::info!("{signal}: draining ({} requests in flight; new ones get 503)", lifecycle.in_flight());
            lifecycle.start_draining();
            if lifecycle.drained(shutdown_timeout).await {
                log::info!("drained: stopping");
            } else {
                log::warn!(
                    "{} requests still in flight after {}s (SHUTDOWN_TIMEOUT): stopping anyway",
                    lifecycle.in_flight(),
                    shutdown_timeout.as_secs()
                );
            }
            handle.stop(true).await;
        });
        server.await
    }
}

/// The first of SIGTERM and Ctrl-C (SIGINT).
async fn stop_signal() -> &'static str {
    use futures_util::future::{select, Either};
    #[cfg(unix)]
    {
        use actix_web::rt::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            let term = Box::pin(async move { term.recv().await });
            let interrupt = Box::pin(actix_web::rt::signal::ctrl_c());
            return match select(term, interrupt).await {
                Either::Left(_) => "SIGTERM",
                Either::Right(_) => "SIGINT",
            };
        }
    }
    let _ = actix_web::rt::signal::ctrl_c().await;
    "SIGINT"
}

/// The service's address as a browser on this machine reaches it: a
/// loopback address where it listens on every address (`0.0.0.0`, `[::]`).
fn on_this_machine(at: std::net::SocketAddr) -> std::net::SocketAddr {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
    match at.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => (Ipv4Addr::LOCALHOST, at.port()).into(),
        IpAddr::V6(ip) if ip.is_unspecified() => (Ipv6Addr::LOCALHOST, at.port()).into(),
        _ => at,
    }
}

/// The service's address as the floor network reaches it: the address it
/// listens on, or where that is every address, this machine's own address
/// on its network (the one its route out would use; nothing is sent).
fn floor_address(at: std::net::SocketAddr) -> std::net::SocketAddr {
    if !at.ip().is_unspecified() {
        return at;
    }
    let probe = if at.is_ipv4() { ("0.0.0.0:0", "192.0.2.1:9") } else { ("[::]:0", "[2001:db8::1]:9") };
    std::net::UdpSocket::bind(probe.0)
        .and_then(|socket| {
            socket.connect(probe.1)?;
            socket.local_addr()
        })
        .map(|local| std::net::SocketAddr::new(local.ip(), at.port()))
        .unwrap_or_else(|_| on_this_machine(at))
}

/// Starts the service on `listener` with the database `db` and the
/// default settings (the tests' app).
pub fn run(listener: TcpListener, db: Database) -> std::io::Result<Server> {
    start(listener, db, &Config::default()).map(|service| service.server)
}

/// Starts the service on `listener` with the database `db`.
pub fn start(listener: TcpListener, db: Database, config: &Config) -> std::io::Result<Service> {
    use actix_request_identifier::{IdReuse, RequestIdentifier};
    use actix_session::{config::CookieContentSecurity, storage::CookieSessionStore, SessionMiddleware};
    let key = crate::service::users::session_key(&db).map_err(|e| std::io::Error::other(e.to_string()))?;
    let at = listener.local_addr()?;
    let secure = config.secure_cookies_at(at);
    if let Some(token) = crate::service::users::setup_token(&db).map_err(|e| std::io::Error::other(e.to_string()))? {
        // The page answers on this machine only: a loopback address, never
        // the 0.0.0.0 or [::] the service may be bound to.
        log::warn!(
            "no user yet: make the first admin at http://{}/setup?token={token} (on this machine), \
             or run `pitboss admin create`",
            on_this_machine(at)
        );
    }
    if !at.ip().is_loopback() {
        let floor = floor_address(at);
        log::info!("tablets on the floor network open http://{floor}/ (or https:// through a TLS proxy)");
        if secure {
            log::warn!(
                "session cookies are Secure (HTTPS only): a tablet at http://{floor}/ cannot stay signed in; \
                 put a TLS proxy in front, or on a closed floor network set SECURE_COOKIES=false"
            );
        }
    }
    let key = actix_web::cookie::Key::from(&key);
    let time_zone = config.time_zone;
    let trust_proxy = config.trust_proxy;
    let state = web::Data::new(AppState { db, time_zone, trust_proxy });
    let lifecycle = web::Data::new(Lifecycle::default());
    let board_hub = web::Data::new(super::live::BoardHub::new(state.db.clone(), config.board_streams as usize));
    let headers = web::Data::new(super::headers::SecurityHeaders { hsts: secure });
    let metrics_access = web::Data::new(routes::metrics::MetricsAccess { token: config.metrics_token.clone() });
    // Behind a trusted proxy its request id is kept; otherwise each request
    // gets a new one (a client's header could say anything).
    let incoming_id = if trust_proxy { IdReuse::UseIncoming } else { IdReuse::IgnoreIncoming };
    let app_lifecycle = lifecycle.clone();
    let server = HttpServer::new(move || {
        let sessions = SessionMiddleware::builder(CookieSessionStore::default(), key.clone())
            .cookie_name("pitboss_session".to_string())
            .cookie_secure(secure)
            .cookie_http_only(true)
            .cookie_same_site(actix_web::cookie::SameSite::Strict)
            .cookie_content_security(CookieContentSecurity::Private)
            .build();
        App::new()
            .wrap(middleware::from_fn(super::error_page::html_errors))
            .wrap(sessions)
            .wrap(middleware::from_fn(super::observe::observe))
            .wrap(middleware::from_fn(super::headers::security_headers))
            .wrap(RequestIdentifier::with_uuid().use_incoming_id(incoming_id))
            .app_data(state.clone())
            .app_data(app_lifecycle.clone())
            .app_data(board_hub.clone())
            .app_data(headers.clone())
            .app_data(metrics_access.clone())
            .configure(configure)
            .default_service(web::to(routes::not_found))
    })
    // Signals are ours: SIGTERM drains first (`Service::run_until_stopped`).
    .disable_signals()
    .shutdown_timeout(config.shutdown_timeout)
    .listen(listener)?
    .run();
    Ok(Service { server, lifecycle, shutdown_timeout: config.shutdown_timeout() })
}
