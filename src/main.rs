use clap::{Parser, Subcommand};
use std::io;

use pitboss::config::{Config, DatabaseConfig};

/// The service's own allocations go to mimalloc (`pitboss::allocator`;
/// why: docs/benchmarks.md, "The allocator"). SQLite's and the other C
/// libraries' allocations stay with the C library's `malloc`. (examples/year.rs
/// sets the same.)
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// pitboss: table bookkeeping and settlement for Chinese poker.
#[derive(Parser)]
#[command(name = "pitboss", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Users and API tokens, on the database (`DATABASE_URL`) directly: the
    /// first admin of a new installation, or a token for a device.
    Admin {
        #[command(flatten)]
        database: DatabaseConfig,
        #[command(subcommand)]
        command: AdminCommand,
    },
    /// Set 13 cards by the house way, list their specials and explain a
    /// foul: 13 cards or `front / middle / back` (or JSON) on standard input.
    Analyse {
        /// The preset (default hawaiian-gardens).
        #[arg(long)]
        ruleset: Option<String>,
    },
    /// Write a consistent copy of the SQLite database (`DATABASE_URL`, default
    /// pitboss.sqlite) to a new file, also while the service runs.
    Backup {
        #[command(flatten)]
        database: DatabaseConfig,
        /// The new file.
        dest: String,
    },
    /// Apply the pending migrations of the database (`DATABASE_URL`), or
    /// with `status` list what is applied and what is pending.
    Migrate {
        #[command(flatten)]
        database: DatabaseConfig,
        #[command(subcommand)]
        action: Option<MigrateAction>,
    },
    /// Run the service (the default). Every setting is a flag and an
    /// environment variable: `pitboss serve --help`.
    Serve(Box<Config>),
    /// Score showdowns (CONTRACT.md): one JSON showdown on standard input, or
    /// one per line with --jsonl.
    Score {
        /// Read one showdown per line and write one result per line.
        #[arg(long)]
        jsonl: bool,
    },
}

#[derive(Subcommand)]
enum MigrateAction {
    /// List the migrations: applied, pending, and any unknown to this release.
    Status,
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Make a user. The password is the first line of standard input.
    Create {
        #[arg(long)]
        username: String,
        #[arg(long)]
        display_name: Option<String>,
        /// dealer, floor, accountant or admin; repeat for several.
        #[arg(long = "role", required = true)]
        roles: Vec<String>,
        /// A table id a dealer works at; repeat for several.
        #[arg(long = "table")]
        tables: Vec<i64>,
    },
    /// Make an API token for a user (printed once).
    Token {
        #[arg(long)]
        username: String,
        #[arg(long)]
        label: String,
        /// A role the token acts with (some of the user's; `scanner` for a
        /// card reader); repeat for several. Default: all of the user's.
        #[arg(long = "role")]
        roles: Vec<String>,
        /// A table the token acts at; repeat for several. Default: the user's.
        #[arg(long = "table")]
        tables: Vec<i64>,
        /// When the token stops working: YYYY-MM-DD or an RFC 3339 time.
        #[arg(long)]
        expires_at: Option<String>,
    },
}

fn admin(database: DatabaseConfig, command: AdminCommand) -> io::Result<i32> {
    use pitboss::domain::{Actor, AppError};
    use pitboss::service::users;
    let actor = Actor::command_line();
    // A new database is set up (as `serve` would); pending migrations are
    // refused, never applied behind the operator's back.
    let outcome = pitboss::db::connect(&database.url, 2).and_then(|db| match command {
        AdminCommand::Create { username, display_name, roles, tables } => {
            let mut password = String::new();
            io::stdin()
                .read_line(&mut password)
                .map_err(|e| AppError::invalid("no_password", format!("cannot read the password: {e}")))?;
            let password = password.trim_end_matches(['\r', '\n']).to_string();
            let tables = tables.into_iter().map(pitboss::domain::TableId).collect();
            let req = users::NewUserRequest { username, display_name, roles, password, tables };
            let user = users::create_user(&db, &actor, req, false)?;
            let roles: Vec<&str> = user.roles.iter().map(|r| r.name()).collect();
            Ok(format!("made user {} ({}) with roles {}", user.username, user.id, roles.join(", ")))
        }
        AdminCommand::Token { username, label, roles, tables, expires_at } => {
            let (user, _) = users::login_candidate(&mut *db.conn()?, &username.to_lowercase())?
                .ok_or_else(|| AppError::not_found("no_user", format!("no user {username}")))?;
            let req = users::NewTokenRequest {
                label,
                roles: (!roles.is_empty()).then_some(roles),
                tables: (!tables.is_empty()).then(|| tables.into_iter().map(pitboss::domain::TableId).collect()),
                expires_at,
            };
            let token = users::create_token(&db, &actor, user.id, req)?;
            Ok(token.token)
        }
    });
    match outcome {
        Ok(message) => {
            println!("{message}");
            Ok(0)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(2)
        }
    }
}

fn serve(config: Config) -> io::Result<i32> {
    pitboss::logging::init(&config.log_filter, config.log_format);
    let url = &config.database.url;
    let (db, outcome) = match pitboss::db::open(url, config.pool_size, config.migrate_on_start.policy()) {
        Ok(opened) => opened,
        Err(e) => {
            log::error!("{e}");
            eprintln!("pitboss: {e}");
            return Ok(1);
        }
    };
    let backend = if pitboss::db::is_postgres(url) { "PostgreSQL" } else { "SQLite" };
    match outcome {
        pitboss::db::SchemaOutcome::SetUp(applied) => {
            log::info!("database: {backend}, new: set up with {} migrations", applied.len())
        }
        pitboss::db::SchemaOutcome::Migrated(applied) => {
            log::info!("database: {backend}, migrations applied at start-up: {}", applied.join(", "))
        }
        pitboss::db::SchemaOutcome::UpToDate => log::info!("database: {backend}, schema up to date"),
    }
    let listener = std::net::TcpListener::bind(config.bind_addr)?;
    log::info!("pitboss listening on http://{}", listener.local_addr()?);
    // The sessions file's gaming days kept ready while the server runs.
    let keeper = pitboss::web::sessions_file::Keeper::start(
        db.clone(),
        config.time_zone,
        pitboss::web::sessions_file::KEEP_EVERY,
        pitboss::db::now,
    );
    actix_web::rt::System::new().block_on(async move {
        let service = pitboss::web::start(listener, db, &config)?;
        service.run_until_stopped().await
    })?;
    drop(keeper);
    log::info!("pitboss stopped");
    Ok(0)
}

fn migrate(database: DatabaseConfig, action: Option<MigrateAction>) -> io::Result<i32> {
    let outcome = pitboss::db::open_for_migrations(&database.url).and_then(|mut conn| match action {
        Some(MigrateAction::Status) => {
            let status = pitboss::db::migration_status(&mut conn)?;
            let mut lines: Vec<String> = status.applied.iter().map(|m| format!("applied  {m}")).collect();
            lines.extend(status.pending.iter().map(|m| format!("pending  {m}")));
            lines.extend(status.unknown.iter().map(|m| format!("unknown  {m} (applied by a newer release)")));
            lines.push(match status.pending.len() {
                0 => "up to date".to_string(),
                n => format!("{n} pending: run `pitboss migrate` (after a backup)"),
            });
            Ok(lines.join("\n"))
        }
        None => {
            let applied = pitboss::db::apply_migrations(&mut conn)?;
            let mut lines: Vec<String> = applied.iter().map(|m| format!("applied  {m}")).collect();
            lines.push(match applied.len() {
                0 => "up to date: nothing to apply".to_string(),
                n => format!("{n} migration(s) applied"),
            });
            Ok(lines.join("\n"))
        }
    });
    match outcome {
        Ok(report) => {
            println!("{report}");
            Ok(0)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(2)
        }
    }
}

fn backup(database: DatabaseConfig, dest: &str) -> io::Result<i32> {
    let url = database.url;
    match pitboss::db::backup_sqlite(&url, dest) {
        Ok(()) => {
            println!("backed up {url} to {dest}");
            Ok(0)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(2)
        }
    }
}

fn main() {
    pitboss::allocator::configure();
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::Score { jsonl: false }) => {
            pitboss::cli::score_one(io::stdin().lock(), io::stdout().lock(), io::stderr().lock())
        }
        Some(Command::Score { jsonl: true }) => pitboss::cli::score_lines(io::stdin().lock(), io::stdout().lock()),
        Some(Command::Analyse { ruleset }) => {
            pitboss::cli::analyse(io::stdin().lock(), ruleset, io::stdout().lock(), io::stderr().lock())
        }
        Some(Command::Backup { database, dest }) => backup(database, &dest),
        Some(Command::Admin { database, command }) => admin(database, command),
        Some(Command::Migrate { database, action }) => migrate(database, action),
        Some(Command::Serve(config)) => serve(*config),
        None => serve(Config::from_env()),
    };
    match code {
        Ok(c) => std::process::exit(c),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
