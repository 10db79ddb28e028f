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
