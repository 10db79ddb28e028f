//! Building and running the app. Tests start the same app on port 0.

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::{middleware, web, App, HttpServer};

use super::routes;

/// Largest request body accepted (a showdown is well under 4 KiB).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Configuration from the environment.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `BIND_ADDR`, default `127.0.0.1:8080`.
    pub bind_addr: String,
}

impl Settings {
    pub fn from_env() -> Settings {
        Settings {
            bind_addr: std::env::var("BIND_ADDR").unwrap_or_else(|_| "127.0.0.1:8080".to_string()),
        }
    }
}

/// Registers every route; shared by the server and the tests.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(routes::healthz))
        .service(
            web::resource("/api/v1/score")
                .route(web::post().to(routes::score_showdown))
                .default_service(web::to(routes::method_not_allowed)),
        );
}

/// Starts the service on `listener`.
pub fn run(listener: TcpListener) -> std::io::Result<Server> {
    let server = HttpServer::new(|| {
        App::new()
            .wrap(middleware::Logger::default())
            .configure(configure)
            .default_service(web::to(routes::not_found))
    })
    .listen(listener)?
    .run();
    Ok(server)
}
