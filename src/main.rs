use clap::{Parser, Subcommand};
use std::io;

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
        /// The new file.
        dest: String,
    },
    /// Run the service (the default): `BIND_ADDR`, default 127.0.0.1:8080.
    Serve,
    /// Score showdowns (CONTRACT.md): one JSON showdown on standard input, or
    /// one per line with --jsonl.
    Score {
        /// Read one showdown per line and write one result per line.
        #[arg(long)]
        jsonl: bool,
    },
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
    },
}

fn admin(command: AdminCommand) -> io::Result<i32> {
    use pitboss::db::{audit::Actor, users};
    let url = std::env::var("DATABASE_URL").unwrap_or_else(|_| pitboss::db::DEFAULT_DATABASE.to_string());
    let actor = Actor::command_line();
    let outcome = pitboss::db::connect(&url, 2).and_then(|db| match command {
        AdminCommand::Create { username, display_name, roles, tables } => {
            let mut password = String::new();
            io::stdin().read_line(&mut password).map_err(|e| pitboss::error::AppError::Invalid(e.to_string()))?;
            let password = password.trim_end_matches(['\r', '\n']).to_string();
            let req = users::NewUserRequest { username, display_name, roles, password, tables };
            let user = users::create_user(&db, &actor, &req, false)?;
            let roles: Vec<&str> = user.roles.iter().map(|r| r.name()).collect();
            Ok(format!("made user {} ({}) with roles {}", user.username, user.id, roles.join(", ")))
        }
        AdminCommand::Token { username, label } => {
            let (user, _) = users::login_candidate(&mut *db.conn()?, &username.to_lowercase())?
                .ok_or_else(|| pitboss::error::AppError::NotFound(format!("no user {username}")))?;
            let token = users::create_token(&db, &actor, user.id, &users::NewTokenRequest { label })?;
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

fn serve() -> io::Result<i32> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let settings = pitboss::web::Settings::from_env();
    let pool = match pitboss::db::connect(&settings.database_url, settings.pool_size) {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("pitboss: {e}");
            return Ok(1);
        }
    };
    let backend = if pitboss::db::is_postgres(&settings.database_url) { "PostgreSQL" } else { "SQLite" };
    log::info!("database: {backend}, migrations applied");
    let listener = std::net::TcpListener::bind(&settings.bind_addr)?;
    log::info!("pitboss listening on http://{}", listener.local_addr()?);
    actix_web::rt::System::new().block_on(pitboss::web::run(listener, pool)?)?;
    Ok(0)
}

fn backup(dest: &str) -> io::Result<i32> {
    let url = std::env::var("DATABASE_URL").unwrap_or_else(|_| pitboss::db::DEFAULT_DATABASE.to_string());
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
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::Score { jsonl: false }) => {
            pitboss::cli::score_one(io::stdin().lock(), io::stdout().lock(), io::stderr().lock())
        }
        Some(Command::Score { jsonl: true }) => pitboss::cli::score_lines(io::stdin().lock(), io::stdout().lock()),
        Some(Command::Analyse { ruleset }) => {
            pitboss::cli::analyse(io::stdin().lock(), ruleset, io::stdout().lock(), io::stderr().lock())
        }
        Some(Command::Backup { dest }) => backup(&dest),
        Some(Command::Admin { command }) => admin(command),
        Some(Command::Serve) | None => serve(),
    };
    match code {
        Ok(c) => std::process::exit(c),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
