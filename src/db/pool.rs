//! The connection pool's manager, and what every connection reports through
//! diesel's instrumentation: the statements it runs (counted by database,
//! what a use case costs) and a lost connection (PostgreSQL restarted).
//!
//! A pooled connection is not checked with a `SELECT 1` each time it is
//! taken (that would be a statement on every request): it is checked when it
//! has been idle a while, and when any connection to the same database has
//! found its server gone since it was last checked — so after an outage
//! every connection is tried once before it serves a request again, and the
//! broken ones are replaced.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use diesel::connection::{Instrumentation, InstrumentationEvent};
use diesel::r2d2::{self, ConnectionManager, ManageConnection};
use diesel::result::{DatabaseErrorKind, Error};

use super::DbConnection;

/// A connection idle longer than this is checked before it is used (a
/// firewall or the server may have closed it meanwhile).
const IDLE_CHECK: Duration = Duration::from_secs(30);

/// What the connections to one database report.
#[derive(Default)]
pub struct Health {
    /// Statements started.
    statements: AtomicU64,
    /// Raised each time a connection finds its server gone.
    lost: AtomicU64,
    /// Watched statements only (see [`watch_statements`]): the texts the
    /// connections keep prepared, and the statements started that are not
    /// among them (prepared again for this one run) or that SQLite prepares
    /// again at every run (a bound `LIMIT`: its planner reads the value).
    prepared: Mutex<std::collections::HashSet<String>>,
    unprepared: AtomicU64,
}

/// Whether the statements' texts are watched: off in the service (it costs
/// a formatted text a statement), on in the tests that ask.
static WATCH: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From now on, every statement's text is checked against the prepared
/// statements of its connection's database ([`unprepared`]).
pub fn watch_statements() {
    WATCH.store(true, Ordering::Relaxed);
}

/// Statements run against the database at `url` (while watched) that were
/// not kept prepared: parsed and planned again for that one run. A
/// transaction's own statements (`BEGIN`, a savepoint, `COMMIT`) are not
/// counted.
pub fn unprepared(url: &str) -> u64 {
    health(url).unprepared.load(Ordering::Relaxed)
}

impl Health {
    fn started(&self, query: &dyn std::fmt::Display) {
        self.statements.fetch_add(1, Ordering::Relaxed);
        if !WATCH.load(Ordering::Relaxed) {
            return;
        }
        let text = query.to_string();
        let sql = text.split(" -- binds: ").next().unwrap_or_default();
        // (A transaction's own statement alone: `BEGIN` sent with a lock,
        // `BEGIN; SELECT …`, is a statement parsed and planned each time.)
        let control = !sql.contains(';')
            && ["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE"].iter().any(|c| sql.starts_with(c));
        let prepared = self.prepared.lock().unwrap_or_else(|p| p.into_inner()).contains(sql);
        if !control && (!prepared || sql.contains("LIMIT ?")) {
            log::debug!(target: "pitboss::sql", "not kept prepared: {sql}");
            self.unprepared.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn cached(&self, sql: &str) {
        if WATCH.load(Ordering::Relaxed) {
            self.prepared.lock().unwrap_or_else(|p| p.into_inner()).insert(sql.to_string());
        }
    }
}

/// The reports of the connections to `url` (one record per address).
pub fn health(url: &str) -> Arc<Health> {
    static ALL: LazyLock<Mutex<HashMap<String, Arc<Health>>>> = LazyLock::new(Default::default);
    let url = url.strip_prefix("sqlite://").unwrap_or(url);
    let mut all = ALL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    all.entry(url.to_string()).or_default().clone()
}

/// SQL statements run against the database at `url` by this process so far,
/// every connection to it together: what a use case costs the database,
/// measured by the tests.
pub fn statements(url: &str) -> u64 {
    health(url).statements.load(Ordering::Relaxed)
}

/// Every connection made from now on reports to the [`Health`] of its
/// address (diesel's default instrumentation, set once per process).
pub fn instrument_connections() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        fn reporter() -> Option<Box<dyn Instrumentation>> {
            let mut mine: Option<Arc<Health>> = None;
            Some(Box::new(move |event: InstrumentationEvent<'_>| match event {
                InstrumentationEvent::StartEstablishConnection { url, .. } => mine = Some(health(url)),
                InstrumentationEvent::StartQuery { query, .. } => {
                    log::trace!(target: "pitboss::sql", "{query}");
                    if let Some(h) = &mine {
                        h.started(query);
                    }
                }
                InstrumentationEvent::CacheQuery { sql, .. } => {
                    if let Some(h) = &mine {
                        h.cached(sql);
                    }
                }
                InstrumentationEvent::FinishQuery { error: Some(e), .. } if is_lost(e) => {
                    if let Some(h) = &mine {
                        h.lost.fetch_add(1, Ordering::Relaxed);
                    }
                }
                _ => {}
            }))
        }
        if let Err(e) = diesel::connection::set_default_instrumentation(reporter) {
            log::warn!("statements will not be counted: {e}");
        }
    });
}

fn is_lost(e: &Error) -> bool {
    matches!(e, Error::DatabaseError(DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand, _))
}

/// A pooled connection with when it was last known good.
pub struct Tracked {
    conn: DbConnection,
    /// The database's `lost` count when this connection was last known good.
    lost_seen: u64,
    /// When it was last known good (made, checked, or given back unbroken).
    good_at: Instant,
}

impl std::ops::Deref for Tracked {
    type Target = DbConnection;
    fn deref(&self) -> &DbConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for Tracked {
    fn deref_mut(&mut self) -> &mut DbConnection {
        &mut self.conn
    }
}

/// diesel's manager, checking a connection only when there is a reason to.
pub struct Manager {
    inner: ConnectionManager<DbConnection>,
    health: Arc<Health>,
}

impl Manager {
    pub fn new(url: &str) -> Manager {
        Manager { inner: ConnectionManager::new(url), health: health(url) }
    }
}

impl ManageConnection for Manager {
    type Connection = Tracked;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<Tracked, r2d2::Error> {
        let lost_seen = self.health.lost.load(Ordering::Relaxed);
        Ok(Tracked { conn: self.inner.connect()?, lost_seen, good_at: Instant::now() })
    }

    fn is_valid(&self, conn: &mut Tracked) -> Result<(), r2d2::Error> {
        let lost = self.health.lost.load(Ordering::Relaxed);
        if conn.lost_seen == lost && conn.good_at.elapsed() < IDLE_CHECK {
            return Ok(());
        }
        self.inner.is_valid(&mut conn.conn)?;
        conn.lost_seen = lost;
        conn.good_at = Instant::now();
        Ok(())
    }

    fn has_broken(&self, conn: &mut Tracked) -> bool {
        if self.inner.has_broken(&mut conn.conn) {
            return true;
        }
        // Given back: good as of now, unless a connection found the server
        // gone meanwhile (then it is checked before its next use).
        conn.good_at = Instant::now();
        false
    }
}
