//! The data layer: one binary, two databases. SQLite (bundled) is the
//! embedded default; `DATABASE_URL=postgres://…` selects PostgreSQL. Each
//! backend has its own migrations, embedded and applied at start-up.
//!
//! Money is stored as BIGINT cents, times as UTC `TIMESTAMP` truncated to
//! the second (`now`; both backends round-trip the same value).

// Defined before the modules that use it (a macro's scope is textual).
/// Inserts `rows` (a `Vec` of insertable tuples) into `table` in one
/// statement. A fixed number of rows is a statement type of its own, which
/// diesel keeps prepared (with the table's triggers compiled in it); a
/// `Vec` of rows would be parsed and compiled again at every hand. Counts
/// from 1 up to the listed ones are fixed-size arrays; more rows go in as
/// the `Vec`.
macro_rules! insert_by_count {
    ($conn:ident, $table:path, $rows:ident; $n:literal $($more:literal)*) => {
        match <[_; $n]>::try_from($rows) {
            Ok(fixed) => $crate::on_backend!($conn, |c| diesel::insert_into($table).values(fixed).execute(c)),
            Err($rows) => insert_by_count!($conn, $table, $rows; $($more)*),
        }
    };
    ($conn:ident, $table:path, $rows:ident;) => {
        $crate::on_backend!($conn, |c| diesel::insert_into($table).values(&$rows).execute(c))
    };
}

pub mod audit;
pub mod board;
pub mod cached;
pub mod gaming_days;
pub mod hands;
pub mod jackpots;
pub mod ledger;
pub mod players;
pub mod pool;
pub mod reports;
pub mod rollups;
pub mod schema;
pub mod session_files;
pub mod tables;
pub mod users;
pub mod writer;

use chrono::{NaiveDateTime, SubsecRound, Utc};
use diesel::connection::{AnsiTransactionManager, SimpleConnection, TransactionManager};
use diesel::pg::PgConnection;
use diesel::r2d2::{self, CustomizeConnection};
use diesel::sqlite::SqliteConnection;
use diesel::{Connection, RunQueryDsl};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use crate::domain::{AppError, Kind, PoolId, TableId};

#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    // PostgreSQL first: SQLite would accept any string as a path.
    Pg(PgConnection),
    Sqlite(SqliteConnection),
}

type DbPool = r2d2::Pool<pool::Manager>;

pub use pool::{statements, unprepared, watch_statements};

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// The database the service uses when `DATABASE_URL` is not set.
pub const DEFAULT_DATABASE: &str = "pitboss.sqlite";

/// Now, in UTC, to the second: every stored time (the ledger's, the audit
/// trail's, a hand's) is kept to the second, as a card room's books and
/// slips show it; order within a second is the rows' ids. On SQLite a time
/// is text, and the fraction would be 7 of its 26 bytes on each of the dozen
/// rows a hand writes (issue 17). Moved by [`set_clock_offset`], which only
/// the year-scale bench builder and tests of days gone by use.
pub fn now() -> NaiveDateTime {
    let offset = CLOCK_OFFSET_MICROS.load(std::sync::atomic::Ordering::Relaxed);
    (Utc::now().naive_utc() + chrono::Duration::microseconds(offset)).trunc_subsecs(0)
}

static CLOCK_OFFSET_MICROS: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);

/// Moves this process's clock (`now`) by `offset` from the real time: a time
/// machine for building a year of hands in minutes and for testing gaming
/// days in the past. The service never calls it.
pub fn set_clock_offset(offset: chrono::Duration) {
    let micros = offset.num_microseconds().unwrap_or(0);
    CLOCK_OFFSET_MICROS.store(micros, std::sync::atomic::Ordering::Relaxed);
}

/// Runs the same diesel query on whichever backend `conn` is: for the
/// statements the multi-backend connection cannot build (batch inserts,
/// upserts), written once.
#[macro_export]
macro_rules! on_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::db::DbConnection::Pg($c) => $body,
            $crate::db::DbConnection::Sqlite($c) => $body,
        }
    };
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

/// A new connection's setup. SQLite: wait for locks instead of failing,
/// write-ahead log, durable commits, foreign keys. PostgreSQL: the ledger
/// kind's type.
#[derive(Debug, Clone, Copy)]
struct ConnectionSetup;

impl CustomizeConnection<pool::Tracked, r2d2::Error> for ConnectionSetup {
    fn on_acquire(&self, conn: &mut pool::Tracked) -> Result<(), r2d2::Error> {
        match &mut **conn {
            DbConnection::Sqlite(c) => c.batch_execute(writer::SQLITE_PRAGMAS).map_err(r2d2::Error::QueryError)?,
            // The ledger kind's type is looked up once, as the connection is
            // made, not by the first statement that binds a kind (a hand's
            // commit). A failed lookup (a database not yet migrated) is not
            // kept: the first statement that binds a kind looks again, and
            // `open` makes the pool again after migrating.
            DbConnection::Pg(c) => {
                let _ = diesel::pg::PgMetadataLookup::lookup_type(c, "ledger_entry_kind", None);
            }
        }
        Ok(())
    }
}

/// The longest a request waits for a pooled connection, and on PostgreSQL
/// for its turn at the database ([`Database::turn`]), before it is answered
/// 503.
pub const WAIT_FOR_CONNECTION: std::time::Duration = std::time::Duration::from_secs(5);

/// The database: a pool of connections for reads (and for writes on
/// PostgreSQL), and on SQLite the group-commit writer.
#[derive(Clone)]
pub struct Database {
    pool: DbPool,
    writes: Writes,
}

/// How changes reach the database, by backend.
#[derive(Clone)]
enum Writes {
    /// SQLite: through the group-commit writer.
    Sqlite(std::sync::Arc<writer::GroupWriter>),
    /// PostgreSQL: on a pooled connection each, in turns: as many as the
    /// pool has connections, given in the order asked for
    /// ([`Database::turn`]).
    Postgres(std::sync::Arc<tokio::sync::Semaphore>),
}

pub type Conn = r2d2::PooledConnection<pool::Manager>;

impl Database {
    /// The pool's connections: (open, idle).
    pub fn pool_state(&self) -> (u32, u32) {
        let state = self.pool.state();
        (state.connections, state.idle_connections)
    }

    /// Bytes SQLite has allocated in this process now (every connection's
    /// page cache, prepared statements and schema), `None` on PostgreSQL.
    /// SQLite keeps these outside Rust's allocator, so this is what tells its
    /// caches filling up from memory the service itself holds.
    pub fn sqlite_heap_bytes(&self) -> Option<i64> {
        // SAFETY: `sqlite3_memory_used` only reads SQLite's own counter; it
        // takes no pointers and is safe to call from any thread.
        matches!(self.writes, Writes::Sqlite(_)).then(|| unsafe { libsqlite3_sys::sqlite3_memory_used() })
    }

    /// A turn at the database for a request (PostgreSQL; `None` on SQLite,
    /// whose writes queue at the group-commit writer): at most as many
    /// requests hold one as the pool has connections, and turns are given in
    /// the order asked for. Without them, every request waiting for a
    /// connection waits on its own thread, and the pool hands a connection
    /// given back to whichever waiting thread takes it first, not to the one
    /// that has waited longest. A request waiting for its turn holds no
    /// thread; 503 when none comes within [`WAIT_FOR_CONNECTION`] (as when
    /// the database is down and every turn waits for a connection).
    pub async fn turn(&self) -> Result<Option<tokio::sync::OwnedSemaphorePermit>, AppError> {
        let Writes::Postgres(turns) = &self.writes else { return Ok(None) };
        // A free turn is taken without a timer (none is free while anyone
        // waits: a turn given back goes to the first in line).
        if let Ok(turn) = turns.clone().try_acquire_owned() {
            return Ok(Some(turn));
        }
        match tokio::time::timeout(WAIT_FOR_CONNECTION, turns.clone().acquire_owned()).await {
            Ok(turn) => Ok(turn.ok()), // (The semaphore is never closed.)
            Err(_) => Err(AppError::unavailable(format!(
                "the database is unavailable: no turn at it in {} s (every connection busy)",
                WAIT_FOR_CONNECTION.as_secs()
            ))),
        }
    }

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
        table_id: Option<TableId>,
        f: impl FnOnce(&mut DbConnection) -> Result<T, AppError> + Send + 'static,
    ) -> Result<T, AppError> {
        match &self.writes {
            Writes::Sqlite(writer) => writer.write(f),
            Writes::Postgres(_) => {
                let mut pooled = self.conn()?;
                let conn: &mut DbConnection = &mut pooled;
                let DbConnection::Pg(pg) = &mut *conn else {
                    return Err(AppError::internal("a PostgreSQL writer with another connection"));
                };
                begin_locked(pg, table_id)?;
                // The rest as diesel's `Connection::transaction` does it.
                type Transactions = <DbConnection as Connection>::TransactionManager;
                match f(conn) {
                    Ok(value) => {
                        Transactions::commit_transaction(conn)?;
                        Ok(value)
                    }
                    Err(refused) => match Transactions::rollback_transaction(conn) {
                        Ok(()) | Err(diesel::result::Error::BrokenTransactionManager) => Err(refused),
                        Err(e) => Err(e.into()),
                    },
                }
            }
        }
    }
}

/// The PostgreSQL advisory lock that writes to no one table take in turn
/// (`Database::write` without a table).
pub const UNTABLED_TURN: i64 = 7420002;

/// Begins a PostgreSQL write transaction and takes its turn in the same
/// round trip: `BEGIN` and the lock go to the server as one message (two
/// statements of the simple protocol), a round trip less for every write,
/// which on a floor with its database on another machine is a network
/// round trip less. The lock is the table's row (`SELECT … FOR UPDATE`), or
/// without a table a transaction-scoped advisory lock, so app servers
/// sharing a database serialise their changes. Where the lock fails after
/// `BEGIN` took effect (a lock or statement timeout), the transaction the
/// server opened is rolled back before the error is returned, so the
/// connection goes back to the pool with none open.
fn begin_locked(pg: &mut PgConnection, table_id: Option<TableId>) -> Result<(), AppError> {
    // (The id is a number: formatted into the text, nothing to quote.)
    let sql = match table_id {
        Some(id) => format!("BEGIN; SELECT 1 FROM casino_tables WHERE id = {} FOR UPDATE", id.0),
        // Changes to no one table (users, sign-ins, pools, new tables) take
        // turns too, across app servers.
        None => format!("BEGIN; SELECT pg_advisory_xact_lock({UNTABLED_TURN})"),
    };
    match AnsiTransactionManager::begin_transaction_sql(pg, &sql) {
        Ok(()) => Ok(()),
        // The server answered: `BEGIN` may have taken effect before the lock
        // failed.
        Err(e @ diesel::result::Error::DatabaseError(..)) => {
            if let Err(lost) = pg.batch_execute("ROLLBACK") {
                // A transaction may still be open on the server: the pool
                // drops this connection instead of lending it again.
                AnsiTransactionManager::transaction_manager_status_mut(pg).set_in_error();
                log::warn!("cannot roll back a write transaction whose lock failed ({e}): {lost}");
            }
            // The statement that failed is the one that waits for the turn:
            // unless the connection is gone (503 already), the wait was given
            // up (a lock or statement timeout, a cancel), which sent again
            // may pass.
            let said = e.to_string();
            match AppError::from(e) {
                error if error.kind == Kind::Internal => {
                    log::warn!("a write gave up waiting for its turn (table {table_id:?}): {said}");
                    Err(AppError::turn_not_taken(table_id, &said))
                }
                error => Err(error),
            }
        }
        // Refused before anything was sent.
        Err(e) => Err(e.into()),
    }
}

/// What opening the database may do to its schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaPolicy {
    /// Set up a new, empty database; refuse one with pending migrations.
    SetUpNew,
    /// Apply pending migrations.
    ApplyPending,
    /// Change nothing; refuse a new or out-of-date database.
    Never,
}

/// What opening the database found and did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaOutcome {
    /// A new database: every migration was applied (their names).
    SetUp(Vec<String>),
    /// Pending migrations were applied (their names).
    Migrated(Vec<String>),
    /// Nothing to do.
    UpToDate,
}

/// Opens the database at `url` for the service and the tests: a new, empty
/// database is set up; one with pending migrations is refused.
pub fn connect(url: &str, max_size: u32) -> Result<Database, AppError> {
    open(url, max_size, SchemaPolicy::SetUpNew).map(|(db, _)| db)
}

/// Opens the database at `url`, does to its schema what `policy` allows,
/// and on SQLite starts the group-commit writer.
pub fn open(url: &str, max_size: u32, policy: SchemaPolicy) -> Result<(Database, SchemaOutcome), AppError> {
    let pool = open_pool(url, max_size)?;
    let mut conn = pool.get().map_err(|e| AppError::unavailable(format!("cannot open the database: {e}")))?;
    let outcome = prepare_schema(&mut conn, policy)?;
    rollups::build_if_missing(&mut conn)?;
    drop(conn);
    // A PostgreSQL connection keeps the ids of the types it looked up (the
    // ledger kind's, as it is made): the connections made before the
    // migrations ran did not find it, or found one a migration replaced.
    // The pool is made again.
    let pool = match &outcome {
        SchemaOutcome::SetUp(_) | SchemaOutcome::Migrated(_) if is_postgres(url) => {
            drop(pool);
            open_pool(url, max_size)?
        }
        _ => pool,
    };
    let writes = if is_postgres(url) {
        Writes::Postgres(std::sync::Arc::new(tokio::sync::Semaphore::new(pool.max_size() as usize)))
    } else {
        Writes::Sqlite(std::sync::Arc::new(writer::GroupWriter::start(url.strip_prefix("sqlite://").unwrap_or(url))?))
    };
    Ok((Database { pool, writes }, outcome))
}

/// A connection to the database at `url` for the schema commands
/// (`pitboss migrate`): nothing is changed by opening it.
pub fn open_for_migrations(url: &str) -> Result<Conn, AppError> {
    let pool = open_pool(url, 1)?;
    pool.get().map_err(|e| AppError::unavailable(format!("cannot open the database: {e}")))
}

/// SQLite's threading mode for this process: multi-thread, not the
/// bundled library's serialized default. A diesel connection is used by one
/// thread at a time (it is `Send`, not `Sync`), so the lock SQLite would take
/// and give back on each connection at every call (every column of every row
/// read: an eighth of the time of a sessions file in `perf`) guards nothing
/// here. SQLite takes the mode only before it starts: this runs before this
/// process's first SQLite connection (every connection of the service is made
/// after it, the pool's, the writer's, a backup's); had SQLite started
/// already, it stays serialized (correct, only slower), and says so in the log.
/// `true` when SQLite took the mode.
pub fn sqlite_multi_thread() -> bool {
    static MODE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *MODE.get_or_init(|| {
        // SAFETY: `sqlite3_config` takes one integer for this option, and
        // must not run while another thread is in SQLite. The once-lock holds
        // back only the other callers of this function; every connection this
        // crate makes is made after it (the pool's, the writer's and
        // checkpointer's, a backup's), and so must a test's that opens one
        // directly (it calls this first).
        let rc = unsafe { libsqlite3_sys::sqlite3_config(libsqlite3_sys::SQLITE_CONFIG_MULTITHREAD) };
        if rc != libsqlite3_sys::SQLITE_OK {
            log::warn!("SQLite stays in its serialized threading mode (sqlite3_config answered {rc})");
        }
        rc == libsqlite3_sys::SQLITE_OK
    })
}

fn open_pool(url: &str, max_size: u32) -> Result<DbPool, AppError> {
    pool::instrument_connections();
    let postgres = is_postgres(url);
    let url = url.strip_prefix("sqlite://").unwrap_or(url);
    if postgres {
        // The multi-backend connection reports only "invalid url" when a
        // PostgreSQL server cannot be reached; ask PostgreSQL itself first.
        PgConnection::establish(url)
            .map_err(|e| AppError::unavailable(format!("cannot reach PostgreSQL at {}: {e}", redact(url))))?;
    } else {
        sqlite_multi_thread();
        check_sqlite_path(url)?;
    }
    let manager = pool::Manager::new(url);
    r2d2::Pool::builder()
        .max_size(max_size)
        // A PostgreSQL connection is checked when taken from the pool if it
        // idled or the server was found gone (`pool::Manager`), so one that
        // broke is replaced instead of failing a request; when the database
        // is down, a request waits at most 5 s, then 503. (A SQLite
        // connection is a file in this process: nothing to check.)
        .test_on_check_out(postgres)
        .connection_timeout(WAIT_FOR_CONNECTION)
        .connection_customizer(Box::new(ConnectionSetup))
        .build(manager)
        .map_err(|e| AppError::unavailable(format!("cannot open the database: {e}")))
}

/// A SQLite database path that can work: a file (made if missing) in a
/// directory that exists and can be written. Says once which path and which
/// operating-system error, before any connection is tried (a pool of them
/// would otherwise each fail with the same words).
fn check_sqlite_path(path: &str) -> Result<(), AppError> {
    let refuse = |why: String| Err(AppError::unavailable(format!("cannot open the SQLite database {path:?}: {why}")));
    if path.is_empty() {
        return refuse("DATABASE_URL is empty; give a file path or postgres://…".to_string());
    }
    if path.starts_with("file:") || path.contains("://") {
        return refuse("URIs are not supported; give a file path (or postgres://… for PostgreSQL)".to_string());
    }
    if path == ":memory:" {
        return refuse("an in-memory database would be a different one per connection; give a file path".to_string());
    }
    let file = std::path::Path::new(path);
    if file.is_dir() {
        return refuse("it is a directory; give a file path inside it".to_string());
    }
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if let Err(e) = std::fs::metadata(dir) {
        return refuse(format!("its directory {} cannot be used: {e}", dir.display()));
    }
    // Opening for writing (and making it if it is missing) gives the
    // operating system's own reason: permission denied, read-only, …
    if let Err(e) = std::fs::OpenOptions::new().create(true).append(true).open(file) {
        return refuse(e.to_string());
    }
    Ok(())
}

/// Writes a consistent copy of a SQLite database to `dest` (a new file),
/// also while the service is running: `VACUUM INTO` reads one snapshot.
pub fn backup_sqlite(url: &str, dest: &str) -> Result<(), AppError> {
    if is_postgres(url) {
        return Err(AppError::invalid(
            "backup_postgres",
            "this is a PostgreSQL database: back it up with pg_dump or the server's own tools",
        ));
    }
    if std::path::Path::new(dest).exists() {
        return Err(AppError::invalid("backup_exists", format!("{dest} already exists; a backup goes to a new file")));
    }
    let path = url.strip_prefix("sqlite://").unwrap_or(url);
    if !std::path::Path::new(path).exists() {
        return Err(AppError::not_found("no_database", format!("no database at {path}")));
    }
    sqlite_multi_thread();
    let mut conn = SqliteConnection::establish(path)
        .map_err(|e| AppError::unavailable(format!("cannot open the database: {e}")))?;
    conn.batch_execute("PRAGMA busy_timeout = 15000")?;
    diesel::sql_query("VACUUM INTO ?").bind::<diesel::sql_types::Text, _>(dest).execute(&mut conn)?;
    Ok(())
}

/// The schema of a database against the migrations built into this binary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MigrationStatus {
    /// Applied, by name (`2026-11-21-000001_initial`), oldest first.
    pub applied: Vec<String>,
    /// Not applied yet, by name, in the order they would run.
    pub pending: Vec<String>,
    /// Versions applied to the database that this binary does not know (a
    /// newer release migrated it).
    pub unknown: Vec<String>,
}

impl MigrationStatus {
    /// No migration has run: a new database.
    pub fn is_new(&self) -> bool {
        self.applied.is_empty() && self.unknown.is_empty()
    }
}

#[derive(diesel::QueryableByName)]
struct AppliedVersion {
    #[diesel(sql_type = diesel::sql_types::Text)]
    version: String,
}

fn migration_names<DB: diesel::backend::Backend>(
    source: &EmbeddedMigrations,
) -> Result<Vec<(String, String)>, AppError> {
    let migrations = diesel::migration::MigrationSource::<DB>::migrations(source)
        .map_err(|e| AppError::internal(format!("the built-in migrations cannot be read: {e}")))?;
    Ok(migrations.iter().map(|m| (m.name().version().to_string(), m.name().to_string())).collect())
}

/// Which migrations the database has and which it lacks. Reads only: a new
/// database is left as it is.
pub fn migration_status(conn: &mut DbConnection) -> Result<MigrationStatus, AppError> {
    let (known, has_table) = match conn {
        DbConnection::Pg(_) => (
            migration_names::<diesel::pg::Pg>(&POSTGRES_MIGRATIONS)?,
            "SELECT count(*) AS n FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_name = '__diesel_schema_migrations'",
        ),
        DbConnection::Sqlite(_) => (
            migration_names::<diesel::sqlite::Sqlite>(&SQLITE_MIGRATIONS)?,
            "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = '__diesel_schema_migrations'",
        ),
    };
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let tables: Count = diesel::sql_query(has_table).get_result(conn)?;
    let applied: Vec<String> = if tables.n == 0 {
        Vec::new()
    } else {
        let rows: Vec<AppliedVersion> =
            diesel::sql_query("SELECT version FROM __diesel_schema_migrations ORDER BY version").load(conn)?;
        rows.into_iter().map(|r| r.version).collect()
    };
    let mut status = MigrationStatus::default();
    for (version, name) in &known {
        if applied.contains(version) {
            status.applied.push(name.clone());
        } else {
            status.pending.push(name.clone());
        }
    }
    status.unknown = applied.into_iter().filter(|v| !known.iter().any(|(k, _)| k == v)).collect();
    Ok(status)
}

/// Applies pending migrations, one app server at a time on PostgreSQL (an
/// advisory lock); answers the names applied.
pub fn apply_migrations(conn: &mut DbConnection) -> Result<Vec<String>, AppError> {
    let failed = |e: Box<dyn std::error::Error + Send + Sync>| AppError::internal(format!("migrations failed: {e}"));
    if let DbConnection::Pg(c) = conn {
        c.batch_execute("SELECT pg_advisory_lock(7420001)")?;
    }
    // Under the lock: what is pending now is what this run applies.
    let outcome = migration_status(conn).and_then(|status| {
        match conn {
            DbConnection::Pg(c) => c.run_pending_migrations(POSTGRES_MIGRATIONS).map(|_| ()),
            DbConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|_| ()),
        }
        .map_err(failed)?;
        Ok(status.pending)
    });
    if let DbConnection::Pg(c) = conn {
        c.batch_execute("SELECT pg_advisory_unlock(7420001)")?;
    }
    outcome
}

/// Brings the schema to what `policy` allows, or says why not.
fn prepare_schema(conn: &mut DbConnection, policy: SchemaPolicy) -> Result<SchemaOutcome, AppError> {
    let status = migration_status(conn)?;
    if !status.unknown.is_empty() {
        log::warn!(
            "the database has migrations this release does not know ({}): it was migrated by a newer release",
            status.unknown.join(", ")
        );
    }
    if status.pending.is_empty() {
        return Ok(SchemaOutcome::UpToDate);
    }
    match (policy, status.is_new()) {
        (SchemaPolicy::SetUpNew, true) => Ok(SchemaOutcome::SetUp(apply_migrations(conn)?)),
        (SchemaPolicy::ApplyPending, true) => Ok(SchemaOutcome::SetUp(apply_migrations(conn)?)),
        (SchemaPolicy::ApplyPending, false) => Ok(SchemaOutcome::Migrated(apply_migrations(conn)?)),
        (SchemaPolicy::Never, true) => Err(AppError::unavailable(
            "the database is new (no migration applied) and MIGRATE_ON_START=never: run `pitboss migrate` first",
        )),
        (_, false) => Err(AppError::unavailable(format!(
            "the database has {} pending migration(s) ({}): back it up, then run `pitboss migrate` \
             (`pitboss migrate status` lists them; MIGRATE_ON_START=always applies them at start-up)",
            status.pending.len(),
            status.pending.join(", ")
        ))),
    }
}

/// A hand is at `table`: its table compared, not sought, in a query that
/// finds its rows by something rarer (a hit, a void, a time). SQLite uses
/// no index for `+hands.table_id`; with the hands' index by table it walked
/// every hand the table ever had and looked for the rarer rows of each (a
/// year of a table is some 300,000 hands).
pub(crate) fn hand_at_table(
    table: TableId,
) -> diesel::expression::UncheckedBind<
    diesel::expression::SqlLiteral<diesel::sql_types::Bool>,
    <i64 as diesel::expression::AsExpression<diesel::sql_types::BigInt>>::Expression,
> {
    diesel::dsl::sql::<diesel::sql_types::Bool>("+hands.table_id = ").bind::<diesel::sql_types::BigInt, _>(table.get())
}

/// Takes a jackpot pool for a change that takes money out of it (a hit, a
/// void, a return): on PostgreSQL the pool's row (such changes take turns)
/// and every share of its balance (a commit at another table waits, so no
/// contribution lands between the locks of one deal; one already written
/// is waited for). SQLite has one writer.
pub fn lock_pool(conn: &mut DbConnection, pool_id: PoolId) -> diesel::QueryResult<()> {
    if let DbConnection::Pg(pg) = conn {
        use diesel::{ExpressionMethods, QueryDsl};
        schema::pools::table.find(pool_id).select(schema::pools::id).for_no_key_update().execute(pg)?;
        schema::pool_balances::table
            .filter(schema::pool_balances::pool_id.eq(pool_id))
            .order(schema::pool_balances::table_key)
            .select(schema::pool_balances::table_key)
            .for_update()
            .execute(pg)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// A connection opened as diesel opens one (no threading flag of its
    /// own) has no lock of its own once the mode is set; one that asks for
    /// the lock (`SQLITE_OPEN_FULLMUTEX`) still has it, so the check can fail.
    #[test]
    fn sqlite_connections_take_no_lock_of_their_own() {
        use libsqlite3_sys as ffi;
        assert!(super::sqlite_multi_thread(), "set before SQLite started");
        let has_lock = |flags: i32| {
            let mut db = std::ptr::null_mut();
            // SAFETY: a new in-memory database, its handle closed below.
            unsafe {
                assert_eq!(
                    ffi::sqlite3_open_v2(c":memory:".as_ptr(), &mut db, flags, std::ptr::null()),
                    ffi::SQLITE_OK
                );
                let locked = !ffi::sqlite3_db_mutex(db).is_null();
                ffi::sqlite3_close(db);
                locked
            }
        };
        // The flags diesel opens a connection with (diesel 2.3,
        // src/sqlite/connection/raw.rs: no threading flag).
        let diesels = ffi::SQLITE_OPEN_READWRITE | ffi::SQLITE_OPEN_CREATE | ffi::SQLITE_OPEN_URI;
        assert!(!has_lock(diesels));
        assert!(has_lock(diesels | ffi::SQLITE_OPEN_FULLMUTEX));
    }
}
