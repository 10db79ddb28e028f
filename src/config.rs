//! Every setting of the service, typed, in one place: each is a flag of
//! `pitboss serve` and an environment variable (clap's `env`), a flag winning
//! over the variable. A value that does not parse stops the start with a
//! message naming the setting (`pitboss serve --help` lists them all); nothing
//! falls back to a default in silence.

use std::net::SocketAddr;
use std::time::Duration;

use clap::builder::BoolishValueParser;
use clap::{Args, Parser, ValueEnum};

use crate::db::{SchemaPolicy, DEFAULT_DATABASE};
use crate::logging::LogFormat;

/// The database: where it is. Shared by every command that opens it.
#[derive(Clone, Debug, Args)]
pub struct DatabaseConfig {
    /// `postgres://…` for PostgreSQL; anything else is a SQLite file path
    /// (`sqlite://` prefix optional).
    #[arg(long = "database-url", env = "DATABASE_URL", value_name = "DATABASE_URL", default_value = DEFAULT_DATABASE, hide_env_values = true)]
    pub url: String,
}

/// What `serve` may do to the database's schema when it starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum MigrateOnStart {
    /// Set up a new, empty database; on a database with pending migrations,
    /// refuse to start (run `pitboss migrate` first).
    #[default]
    NewDatabase,
    /// Apply pending migrations at start-up.
    Always,
    /// Never change the schema: refuse to start unless it is up to date.
    Never,
}

impl MigrateOnStart {
    pub fn policy(self) -> SchemaPolicy {
        match self {
            MigrateOnStart::NewDatabase => SchemaPolicy::SetUpNew,
            MigrateOnStart::Always => SchemaPolicy::ApplyPending,
            MigrateOnStart::Never => SchemaPolicy::Never,
        }
    }
}

pub const DEFAULT_BIND_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_POOL_SIZE: u32 = 16;
pub const DEFAULT_LOG_FILTER: &str = "info";
pub const DEFAULT_SHUTDOWN_SECONDS: u64 = 30;

/// Live board streams per server (`BOARD_STREAMS`).
pub const DEFAULT_BOARD_STREAMS: u64 = 200;

/// The service's settings (`pitboss serve`).
#[derive(Clone, Debug, Parser)]
#[command(name = "pitboss serve", about = "Run the service", next_line_help = false)]
pub struct Config {
    /// Address the service listens on (IP:port; `0.0.0.0:8080` for every address).
    #[arg(long, env = "BIND_ADDR", default_value = DEFAULT_BIND_ADDR)]
    pub bind_addr: SocketAddr,

    #[command(flatten)]
    pub database: DatabaseConfig,

    /// Connections in the database pool (1 to 1000).
    #[arg(long = "database-pool-size", env = "DATABASE_POOL_SIZE", value_name = "DATABASE_POOL_SIZE", default_value_t = DEFAULT_POOL_SIZE,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub pool_size: u32,

    /// What the start may do to the schema: set up a new database only, apply
    /// pending migrations too, or never change it.
    #[arg(long, env = "MIGRATE_ON_START", value_enum, default_value_t = MigrateOnStart::NewDatabase)]
    pub migrate_on_start: MigrateOnStart,

    /// The casino's IANA time zone, for times on pages (stored in UTC).
    #[arg(long, env = "TIME_ZONE", default_value = "UTC", value_parser = parse_time_zone)]
    pub time_zone: chrono_tz::Tz,

    /// Behind a reverse proxy that appends the client to `X-Forwarded-For`
    /// (true/false): the client address is its last entry, and an incoming
    /// `X-Request-Id` is kept.
    #[arg(long, env = "TRUST_PROXY", default_value = "false", value_parser = BoolishValueParser::new(),
          num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub trust_proxy: bool,

    /// The session cookie over HTTPS only, and `Strict-Transport-Security`
    /// (true/false). Default: false when listening on loopback, else true.
    #[arg(long, env = "SECURE_COOKIES", value_parser = BoolishValueParser::new(),
          num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub secure_cookies: Option<bool>,

    /// Log filter (env_logger syntax: `info`, `warn,pitboss=debug`, …).
    #[arg(long = "log", env = "RUST_LOG", value_name = "RUST_LOG", default_value = DEFAULT_LOG_FILTER)]
    pub log_filter: String,

    /// Log lines as text or as one JSON object per line.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// A bearer token that lets a scraper on another machine read `/metrics`
    /// (`Authorization: Bearer …`). Without it `/metrics` answers this
    /// machine only.
    #[arg(long, env = "METRICS_TOKEN", hide_env_values = true, value_parser = parse_metrics_token)]
    pub metrics_token: Option<String>,

    /// Seconds a shutdown (SIGTERM, Ctrl-C) waits for requests in flight
    /// before it stops anyway (1 to 3600).
    #[arg(long, env = "SHUTDOWN_TIMEOUT", default_value_t = DEFAULT_SHUTDOWN_SECONDS,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub shutdown_timeout: u64,

    /// Live pit boards (`GET /api/v1/board/events` streams) one server
    /// serves at a time (1 to 10000); more are answered 429.
    #[arg(long, env = "BOARD_STREAMS", default_value_t = DEFAULT_BOARD_STREAMS,
          value_parser = clap::value_parser!(u64).range(1..=10000))]
    pub board_streams: u64,
}

impl Default for Config {
    /// The defaults, whatever the environment says (the tests' app).
    fn default() -> Config {
        Config {
            bind_addr: DEFAULT_BIND_ADDR.parse().expect("a socket address"),
            database: DatabaseConfig { url: DEFAULT_DATABASE.to_string() },
            pool_size: DEFAULT_POOL_SIZE,
            migrate_on_start: MigrateOnStart::default(),
            time_zone: chrono_tz::UTC,
            trust_proxy: false,
            secure_cookies: None,
            log_filter: DEFAULT_LOG_FILTER.to_string(),
            log_format: LogFormat::default(),
            metrics_token: None,
            shutdown_timeout: DEFAULT_SHUTDOWN_SECONDS,
            board_streams: DEFAULT_BOARD_STREAMS,
        }
    }
}

impl Config {
    /// The settings from the environment alone (`pitboss` without a
    /// command); a bad value prints clap's message and exits 2.
    pub fn from_env() -> Config {
        Config::parse_from(["pitboss serve"])
    }

    /// Session cookies are `Secure` unless the service listens on a loopback
    /// address only, where there is no TLS to be had; `SECURE_COOKIES`
    /// decides otherwise.
    pub fn secure_cookies_at(&self, listening: SocketAddr) -> bool {
        self.secure_cookies.unwrap_or(!listening.ip().is_loopback())
    }

    pub fn shutdown_timeout(&self) -> Duration {
        Duration::from_secs(self.shutdown_timeout)
    }
}

fn parse_time_zone(name: &str) -> Result<chrono_tz::Tz, String> {
    if name.is_empty() {
        return Ok(chrono_tz::UTC);
    }
    name.parse::<chrono_tz::Tz>().map_err(|_| "not an IANA time zone (e.g. America/Los_Angeles)".to_string())
}

fn parse_metrics_token(token: &str) -> Result<String, String> {
    if token.len() < 16 {
        return Err("a metrics token needs at least 16 characters".to_string());
    }
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err("a metrics token is printable ASCII without spaces".to_string());
    }
    Ok(token.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Config, clap::Error> {
        Config::try_parse_from(std::iter::once("pitboss serve").chain(args.iter().copied()))
    }

    #[test]
    fn the_defaults_are_the_flags_defaults() {
        let settings = ["BIND_ADDR", "DATABASE_URL", "DATABASE_POOL_SIZE", "MIGRATE_ON_START", "TIME_ZONE"];
        let more = ["TRUST_PROXY", "SECURE_COOKIES", "RUST_LOG", "LOG_FORMAT", "METRICS_TOKEN", "SHUTDOWN_TIMEOUT"];
        if settings.iter().chain(&more).any(|v| std::env::var_os(v).is_some()) {
            return; // this environment sets one: the comparison would mean nothing
        }
        let parsed = parse(&[]).unwrap();
        let default = Config::default();
        assert_eq!(format!("{parsed:?}"), format!("{default:?}"));
    }

    #[test]
    fn a_bad_value_is_an_error_naming_the_setting() {
        let e = parse(&["--database-pool-size", "many"]).unwrap_err().to_string();
        assert!(e.contains("DATABASE_POOL_SIZE") || e.contains("database-pool-size"), "{e}");
        assert!(parse(&["--database-pool-size", "0"]).is_err());
        assert!(parse(&["--time-zone", "Mars/Olympus"]).unwrap_err().to_string().contains("IANA"));
        assert!(parse(&["--trust-proxy=maybe"]).is_err());
        assert!(parse(&["--bind-addr", "localhost"]).is_err());
        assert!(parse(&["--metrics-token", "short"]).is_err());
        assert!(parse(&["--migrate-on-start", "sometimes"]).is_err());
    }

    #[test]
    fn booleans_read_as_flags_and_values() {
        assert!(parse(&["--trust-proxy"]).unwrap().trust_proxy);
        assert!(!parse(&["--trust-proxy=false"]).unwrap().trust_proxy);
        assert_eq!(parse(&["--secure-cookies=no"]).unwrap().secure_cookies, Some(false));
        let loopback: SocketAddr = "127.0.0.1:1".parse().unwrap();
        let every: SocketAddr = "0.0.0.0:1".parse().unwrap();
        assert!(!Config::default().secure_cookies_at(loopback));
        assert!(Config::default().secure_cookies_at(every));
    }
}
