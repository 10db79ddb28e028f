//! The data layer: one binary, two databases. SQLite (bundled) is the
//! embedded default; `DATABASE_URL=postgres://…` selects PostgreSQL. Each
//! backend has its own migrations, embedded and applied at start-up.
//!
//! Money is stored as BIGINT cents, times as UTC `TIMESTAMP` truncated to
//! microseconds (both backends round-trip the same value).

pub mod hands;
pub mod ledger;
pub mod schema;
pub mod tables;

use chrono::{NaiveDateTime, SubsecRound, Utc};
use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::r2d2::{self, ConnectionManager, CustomizeConnection};
use diesel::sqlite::SqliteConnection;
use diesel::{Connection, RunQueryDsl};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use crate::error::AppError;

#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    // PostgreSQL first: SQLite would accept any string as a path.
    Pg(PgConnection),
    Sqlite(SqliteConnection),
}

pub type DbPool = r2d2::Pool<ConnectionManager<DbConnection>>;

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// The database the service uses when `DATABASE_URL` is not set.
pub const DEFAULT_DATABASE: &str = "pitboss.sqlite";

/// Now, in UTC, to the microsecond.
pub fn now() -> NaiveDateTime {
    Utc::now().naive_utc().trunc_subsecs(6)
}

pub fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// SQLite: wait for locks instead of failing, write-ahead log, durable
/// commits, foreign keys.
#[derive(Debug, Clone, Copy)]
struct SqlitePragmas;

impl CustomizeConnection<DbConnection, r2d2::Error> for SqlitePragmas {
    fn on_acquire(&self, conn: &mut DbConnection) -> Result<(), r2d2::Error> {
        if let DbConnection::Sqlite(c) = conn {
            c.batch_execute(
                "PRAGMA busy_timeout = 15000; PRAGMA journal_mode = WAL; \
                 PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
            )
            .map_err(r2d2::Error::QueryError)?;
        }
        Ok(())
    }
}

/// Opens a pool on `url` and applies pending migrations.
pub fn connect(url: &str, max_size: u32) -> Result<DbPool, AppError> {
    let url = url.strip_prefix("sqlite://").unwrap_or(url);
    let manager = ConnectionManager::<DbConnection>::new(url);
    let pool = r2d2::Pool::builder()
        .max_size(max_size)
        .connection_customizer(Box::new(SqlitePragmas))
        .build(manager)
        .map_err(|e| AppError::Unavailable(format!("cannot open the database: {e}")))?;
    let mut conn = pool
        .get()
        .map_err(|e| AppError::Unavailable(format!("cannot open the database: {e}")))?;
    migrate(&mut conn)?;
    Ok(pool)
}

/// Applies pending migrations (one app server at a time on PostgreSQL).
pub fn migrate(conn: &mut DbConnection) -> Result<(), AppError> {
    let failed = |e: Box<dyn std::error::Error + Send + Sync>| {
        AppError::Internal(format!("migrations failed: {e}"))
    };
    match conn {
        DbConnection::Pg(c) => {
            c.batch_execute("SELECT pg_advisory_lock(7420001)")?;
            let outcome = c.run_pending_migrations(POSTGRES_MIGRATIONS).map(|_| ());
            c.batch_execute("SELECT pg_advisory_unlock(7420001)")?;
            outcome.map_err(failed)
        }
        DbConnection::Sqlite(c) => c
            .run_pending_migrations(SQLITE_MIGRATIONS)
            .map(|_| ())
            .map_err(failed),
    }
}

static SQLITE_WRITER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `f` in a write transaction that holds the table's lock until commit:
/// `BEGIN IMMEDIATE` on SQLite (one writer at a time), and a row lock on the
/// table (`SELECT … FOR UPDATE`) on PostgreSQL, so app servers sharing a
/// database serialise their changes to one table.
pub fn write_transaction<T>(
    conn: &mut DbConnection,
    table_id: Option<i64>,
    f: impl FnOnce(&mut DbConnection) -> Result<T, AppError>,
) -> Result<T, AppError> {
    match conn {
        DbConnection::Sqlite(_) => {
            // One writer at a time in this process: queue here, in order,
            // rather than in SQLite's busy handler, whose back-off sleeps
            // make the slowest commits very slow. (Other processes on the
            // same file still wait through `busy_timeout`.)
            let _writer = SQLITE_WRITER
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            conn.batch_execute("BEGIN IMMEDIATE")?;
            match f(conn) {
                Ok(value) => match conn.batch_execute("COMMIT") {
                    Ok(()) => Ok(value),
                    Err(e) => {
                        let _ = conn.batch_execute("ROLLBACK");
                        Err(e.into())
                    }
                },
                Err(e) => {
                    let _ = conn.batch_execute("ROLLBACK");
                    Err(e)
                }
            }
        }
        DbConnection::Pg(_) => conn.transaction(|conn| {
            if let Some(id) = table_id {
                diesel::sql_query("SELECT id FROM casino_tables WHERE id = $1 FOR UPDATE")
                    .bind::<diesel::sql_types::BigInt, _>(id)
                    .execute(conn)?;
            }
            f(conn)
        }),
    }
}

/// Locks a pool row until the end of the transaction (PostgreSQL; SQLite's
/// write transaction already excludes every other writer).
pub fn lock_pool(conn: &mut DbConnection, pool_id: i64) -> Result<(), AppError> {
    if let DbConnection::Pg(_) = conn {
        diesel::sql_query("SELECT id FROM pools WHERE id = $1 FOR UPDATE")
            .bind::<diesel::sql_types::BigInt, _>(pool_id)
            .execute(conn)?;
    }
    Ok(())
}
