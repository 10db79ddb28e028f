//! The data layer: one binary, two databases. SQLite (bundled) is the
//! embedded default; `DATABASE_URL=postgres://…` selects PostgreSQL. Each
//! backend has its own migrations, embedded and applied at start-up.
//!
//! Money is stored as BIGINT cents, times as UTC `TIMESTAMP` truncated to
//! microseconds (both backends round-trip the same value).

pub mod audit;
pub mod hands;
pub mod jackpots;
pub mod ledger;
pub mod reports;
pub mod schema;
pub mod tables;
pub mod users;
pub mod writer;

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

type DbPool = r2d2::Pool<ConnectionManager<DbConnection>>;

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// The database the service uses when `DATABASE_URL` is not set.
pub const DEFAULT_DATABASE: &str = "pitboss.sqlite";

/// Now, in UTC, to the microsecond.
pub fn now() -> NaiveDateTime {
    Utc::now().naive_utc().trunc_subsecs(6)
}

/// A database URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            let user = credentials.split(':').next().unwrap_or("");
            format!("{}{user}@{}", &url[..scheme + 3], &url[at + 1..])
        }
        _ => url.to_string(),
    }
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
            c.batch_execute(writer::SQLITE_PRAGMAS).map_err(r2d2::Error::QueryError)?;
        }
        Ok(())
    }
}

/// The database: a pool of connections for reads (and for writes on
/// PostgreSQL), and on SQLite the group-commit writer.
#[derive(Clone)]
pub struct Database {
    pool: DbPool,
    writer: Option<std::sync::Arc<writer::GroupWriter>>,
}

pub type Conn = r2d2::PooledConnection<ConnectionManager<DbConnection>>;

impl Database {
    /// A pooled connection (503 when the database cannot be reached).
    pub fn conn(&self) -> Result<Conn, AppError> {
        Ok(self.pool.get()?)
    }

    /// Runs `f` in a write transaction and returns once it is durable: on
    /// SQLite through the group-commit writer; on PostgreSQL in a transaction
    /// that first locks the table's row (`SELECT … FOR UPDATE`), or without a
    /// table a transaction-scoped advisory lock, so app servers sharing a
    /// database serialise their changes.
    pub fn write<T: Send + 'static>(
        &self,
        table_id: Option<i64>,
        f: impl FnOnce(&mut DbConnection) -> Result<T, AppError> + Send + 'static,
    ) -> Result<T, AppError> {
        match &self.writer {
            Some(writer) => writer.write(f),
            None => {
                let mut pooled = self.conn()?;
                let conn: &mut DbConnection = &mut pooled;
                conn.transaction(|conn| {
                    if let DbConnection::Pg(pg) = &mut *conn {
                        match table_id {
                            Some(id) => {
                                use diesel::QueryDsl;
                                schema::casino_tables::table
                                    .find(id)
                                    .select(schema::casino_tables::id)
                                    .for_update()
                                    .execute(pg)?;
                            }
                            // Changes to no one table (users, sign-ins, pools,
                            // new tables) take turns too, across app servers.
                            None => pg.batch_execute("SELECT pg_advisory_xact_lock(7420002)")?,
                        }
                    }
                    f(conn)
                })
            }
        }
    }
}

/// Opens the database at `url`, applies pending migrations, and on SQLite
/// starts the group-commit writer.
pub fn connect(url: &str, max_size: u32) -> Result<Database, AppError> {
    let postgres = is_postgres(url);
    if postgres {
        // The multi-backend connection reports only "invalid url" when a
        // PostgreSQL server cannot be reached; ask PostgreSQL itself first.
        PgConnection::establish(url)
            .map_err(|e| AppError::Unavailable(format!("cannot reach PostgreSQL at {}: {e}", redact(url))))?;
    }
    let url = url.strip_prefix("sqlite://").unwrap_or(url);
    let manager = ConnectionManager::<DbConnection>::new(url);
    let pool = r2d2::Pool::builder()
        .max_size(max_size)
        // A connection is checked when taken from the pool, so one that broke
        // (PostgreSQL restarted) is replaced instead of failing a request;
        // when the database is down, a request waits at most 5 s, then 503.
        .test_on_check_out(true)
        .connection_timeout(std::time::Duration::from_secs(5))
        .connection_customizer(Box::new(SqlitePragmas))
        .build(manager)
        .map_err(|e| AppError::Unavailable(format!("cannot open the database: {e}")))?;
    let mut conn = pool.get().map_err(|e| AppError::Unavailable(format!("cannot open the database: {e}")))?;
    migrate(&mut conn)?;
    let writer = if postgres { None } else { Some(std::sync::Arc::new(writer::GroupWriter::start(url)?)) };
    Ok(Database { pool, writer })
}

/// Writes a consistent copy of a SQLite database to `dest` (a new file),
/// also while the service is running: `VACUUM INTO` reads one snapshot.
pub fn backup_sqlite(url: &str, dest: &str) -> Result<(), AppError> {
    if is_postgres(url) {
        return Err(AppError::Invalid(
            "this is a PostgreSQL database: back it up with pg_dump or the server's own tools".to_string(),
        ));
    }
    if std::path::Path::new(dest).exists() {
        return Err(AppError::Invalid(format!("{dest} already exists; a backup goes to a new file")));
    }
    let path = url.strip_prefix("sqlite://").unwrap_or(url);
    if !std::path::Path::new(path).exists() {
        return Err(AppError::NotFound(format!("no database at {path}")));
    }
    let mut conn = SqliteConnection::establish(path)
        .map_err(|e| AppError::Unavailable(format!("cannot open the database: {e}")))?;
    conn.batch_execute("PRAGMA busy_timeout = 15000")?;
    diesel::sql_query("VACUUM INTO ?").bind::<diesel::sql_types::Text, _>(dest).execute(&mut conn)?;
    Ok(())
}

/// Applies pending migrations (one app server at a time on PostgreSQL).
pub fn migrate(conn: &mut DbConnection) -> Result<(), AppError> {
    let failed = |e: Box<dyn std::error::Error + Send + Sync>| AppError::Internal(format!("migrations failed: {e}"));
    match conn {
        DbConnection::Pg(c) => {
            c.batch_execute("SELECT pg_advisory_lock(7420001)")?;
            let outcome = c.run_pending_migrations(POSTGRES_MIGRATIONS).map(|_| ());
            c.batch_execute("SELECT pg_advisory_unlock(7420001)")?;
            outcome.map_err(failed)
        }
        DbConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|_| ()).map_err(failed),
    }
}

/// Locks a pool row until the end of the transaction (PostgreSQL; SQLite's
/// write transaction already excludes every other writer).
pub fn lock_pool(conn: &mut DbConnection, pool_id: i64) -> Result<(), AppError> {
    if let DbConnection::Pg(pg) = conn {
        use diesel::QueryDsl;
        schema::pools::table.find(pool_id).select(schema::pools::id).for_no_key_update().execute(pg)?;
    }
    Ok(())
}
