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
    /// Score showdowns (CONTRACT.md): one JSON showdown on standard input, or
    /// one per line with --jsonl.
    Score {
        /// Read one showdown per line and write one result per line.
        #[arg(long)]
        jsonl: bool,
    },
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::Score { jsonl: false }) => {
            pitboss::cli::score_one(io::stdin().lock(), io::stdout().lock(), io::stderr().lock())
        }
        Some(Command::Score { jsonl: true }) => {
            pitboss::cli::score_lines(io::stdin().lock(), io::stdout().lock())
        }
        None => {
            eprintln!("pitboss: the service is not built yet; use `pitboss score`");
            Ok(2)
        }
    };
    match code {
        Ok(c) => std::process::exit(c),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
