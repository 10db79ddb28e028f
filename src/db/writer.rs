//! Group commit for SQLite. SQLite has one writer, and a durable commit
//! (`synchronous = FULL`) costs an fsync. One writer thread owns the write
//! connection; write transactions queue for it, and whatever has queued while
//! the previous batch was being synced goes into the next transaction, each
//! request in its own savepoint (a failing request rolls back only itself).
//! A request's answer is sent only after its batch's COMMIT returned, so
//! nothing is acknowledged before it is on disk.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::Mutex;

use diesel::connection::SimpleConnection;
use diesel::sqlite::SqliteConnection;
use diesel::Connection;

use super::DbConnection;
use crate::domain::AppError;

/// Sends a request's answer once its batch is committed (or not).
type Deliver = Box<dyn FnOnce(Result<(), AppError>) + Send>;
/// Runs a request inside the open transaction (`alone`: the only request in
/// it, so it needs no savepoint of its own); says whether it succeeded.
type Job = Box<dyn FnOnce(&mut DbConnection, bool) -> (bool, Deliver) + Send>;

/// Most requests in one transaction.
const MAX_BATCH: usize = 64;

/// How often the checkpointer copies the write-ahead log into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

/// The log's size (pages of 4 kB) at which the writer checkpoints by itself:
/// only when the checkpointer falls behind.
const WRITER_CHECKPOINT_PAGES: u32 = 16_000;

pub struct GroupWriter {
    jobs: Mutex<mpsc::Sender<Job>>,
    /// Dropped with the writer: stops the checkpointer.
    _checkpointer: mpsc::Sender<()>,
}

/// Every connection's settings. Temporary b-trees (a savepoint's statement
/// journal, a sort) stay in memory: on files, the writer created and deleted
/// one at nearly every request. Recursive triggers on: a row deleted by a
/// REPLACE (`INSERT OR REPLACE`) then fires its delete trigger, so no
/// append-only row of the books is written over that way.
pub const SQLITE_PRAGMAS: &str = "PRAGMA busy_timeout = 15000; PRAGMA journal_mode = WAL; \
     PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY; \
     PRAGMA recursive_triggers = ON;";

/// The writer's page cache, in KiB (SQLite's default is 2 MiB): the pages
/// every commit touches (the ledger's and indexes' latest leaves, the rollups)
/// stay in it instead of being read again through the operating system.
const WRITER_CACHE_KIB: u32 = 32 * 1024;

impl GroupWriter {
    /// Opens the write connection on `path` and starts the writer thread.
    pub fn start(path: &str) -> Result<GroupWriter, AppError> {
        super::sqlite_multi_thread();
        let mut conn = SqliteConnection::establish(path)
            .map_err(|e| AppError::unavailable(format!("cannot open the database: {e}")))?;
        conn.batch_execute(SQLITE_PRAGMAS)?;
        conn.batch_execute(&format!(
            "PRAGMA wal_autocheckpoint = {WRITER_CHECKPOINT_PAGES}; PRAGMA cache_size = -{WRITER_CACHE_KIB};"
        ))?;
        let mut conn = DbConnection::Sqlite(conn);
        let (sender, receiver) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("sqlite-writer".to_string())
            .spawn(move || {
                let metrics = &crate::metrics::METRICS;
                while let Ok(first) = receiver.recv() {
                    let mut batch = vec![first];
                    while batch.len() < MAX_BATCH {
                        match receiver.try_recv() {
                            Ok(job) => batch.push(job),
                            Err(_) => break,
                        }
                    }
                    metrics.writer_queue_depth.sub(batch.len() as i64);
                    metrics.writer_batch_size.observe(batch.len() as f64);
                    let started = std::time::Instant::now();
                    run_batch(&mut conn, batch);
                    metrics.writer_batch_duration.observe(started.elapsed().as_secs_f64());
                }
            })
            .map_err(|e| AppError::internal(format!("cannot start the writer thread: {e}")))?;
        let checkpointer = start_checkpointer(path)?;
        Ok(GroupWriter { jobs: Mutex::new(sender), _checkpointer: checkpointer })
    }

    /// Runs `f` in the next write transaction and waits until it is durable.
    pub fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut DbConnection) -> Result<T, AppError> + Send + 'static,
    ) -> Result<T, AppError> {
        let (answer, wait) = mpsc::channel::<Result<T, AppError>>();
        // The request's log lines name it on the writer thread too.
        let context = crate::logging::current();
        let job: Job = Box::new(move |conn: &mut DbConnection, alone: bool| {
            let run = |conn: &mut DbConnection| match catch_unwind(AssertUnwindSafe(|| {
                crate::logging::in_context(context, || f(conn))
            })) {
                Ok(result) => result,
                Err(_) => Err(AppError::internal("a write request panicked")),
            };
            let outcome = if alone {
                // The transaction is this request's own: a failure rolls it
                // all back (`run_batch`).
                run(conn)
            } else {
                let outcome = conn.batch_execute("SAVEPOINT request").map_err(AppError::from).and_then(|()| run(conn));
                let closed = match outcome {
                    Ok(_) => conn.batch_execute("RELEASE request"),
                    Err(_) => conn.batch_execute("ROLLBACK TO request; RELEASE request"),
                };
                match closed {
                    Ok(()) => outcome,
                    Err(e) => Err(AppError::from(e)),
                }
            };
            let ok = outcome.is_ok();
            (
                ok,
                Box::new(move |committed: Result<(), AppError>| {
                    let _ = answer.send(committed.and(outcome));
                }) as Deliver,
            )
        });
        crate::metrics::METRICS.writer_queue_depth.inc();
        self.jobs.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).send(job).map_err(|_| {
            crate::metrics::METRICS.writer_queue_depth.dec();
            AppError::unavailable("the database writer has stopped")
        })?;
        wait.recv().map_err(|_| AppError::unavailable("the database could not take the write; try again"))?
    }
}

/// Copies the write-ahead log into the database on a thread and connection
/// of its own, so that the writer only appends to the log and syncs it (a
/// checkpoint run by the writer at a commit held every queued request up
/// while it copied and synced the database file). A passive checkpoint
/// waits for nobody and is waited for by nobody; the writer still
/// checkpoints by itself past `WRITER_CHECKPOINT_PAGES`, so the log stays
/// bounded if this thread falls behind. It stops when the writer is dropped.
fn start_checkpointer(path: &str) -> Result<mpsc::Sender<()>, AppError> {
    let mut conn = SqliteConnection::establish(path)
        .map_err(|e| AppError::unavailable(format!("cannot open the database: {e}")))?;
    // Its checkpoints are not what a use case costs: not counted
    // (`pool::statements`).
    conn.set_instrumentation(|_: diesel::connection::InstrumentationEvent<'_>| {});
    conn.batch_execute(SQLITE_PRAGMAS)?;
    let (stop, stopped) = mpsc::channel::<()>();
    std::thread::Builder::new()
        .name("sqlite-checkpoint".to_string())
        .spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(CHECKPOINT_EVERY) {
                if let Err(e) = conn.batch_execute("PRAGMA wal_checkpoint(PASSIVE);") {
                    log::warn!("the write-ahead log's checkpoint failed (the writer checkpoints instead): {e}");
                }
            }
        })
        .map_err(|e| AppError::internal(format!("cannot start the checkpoint thread: {e}")))?;
    Ok(stop)
}

fn run_batch(conn: &mut DbConnection, batch: Vec<Job>) {
    if let Err(e) = conn.batch_execute("BEGIN IMMEDIATE") {
        // Not run: dropping a job closes its answer channel, and its request
        // answers 503 (the database is unavailable).
        log::error!("cannot begin a write transaction: {e}");
        drop(batch);
        return;
    }
    let alone = batch.len() == 1;
    let ran: Vec<(bool, Deliver)> = batch.into_iter().map(|job| job(conn, alone)).collect();
    if alone && !ran[0].0 {
        // The one request failed: none of it is kept; it answers its error.
        let rolled_back =
            conn.batch_execute("ROLLBACK").map_err(|e| AppError::unavailable(format!("the rollback failed: {e}")));
        for (_, deliver) in ran {
            deliver(rolled_back.clone());
        }
        return;
    }
    let delivers = ran.into_iter().map(|(_, deliver)| deliver);
    let committed = conn.batch_execute("COMMIT").map_err(|e| {
        let _ = conn.batch_execute("ROLLBACK");
        AppError::unavailable(format!("the commit failed: {e}"))
    });
    for deliver in delivers {
        deliver(match &committed {
            Ok(()) => Ok(()),
            Err(e) => Err(AppError::unavailable(e.to_string())),
        });
    }
}
