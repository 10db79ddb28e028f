//! Log lines through env_logger, each carrying the request it belongs to.
//!
//! Every request gets an id (`X-Request-Id`, from `actix-request-identifier`
//! in `web::observe`); the id, and the user and table once they are known,
//! ride in a task-local for the request's own future, and in a thread-local
//! while its database work runs on the blocking pool or in the SQLite writer
//! (`in_context`). The format closure reads whichever is set, so every log
//! line of a request names it, whoever writes the line. `LOG_FORMAT=json`
//! writes one JSON object per line instead of text.

use std::cell::RefCell;
use std::future::Future;
use std::io::Write;

/// How log lines are written (env_logger either way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// `[time LEVEL target] message request_id=… user=… table=…`
    #[default]
    Text,
    /// One JSON object per line: `time`, `level`, `target`, `message`,
    /// `request_id`, `user`, `table`.
    Json,
}

/// The request a log line belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestContext {
    pub request_id: String,
    /// The signed-in user's name (a person or a token's user).
    pub user: Option<String>,
    /// The table the request is about (`/tables/{id}/…`).
    pub table: Option<i64>,
}

tokio::task_local! {
    static TASK: RefCell<RequestContext>;
}

thread_local! {
    static THREAD: RefCell<Option<RequestContext>> = const { RefCell::new(None) };
}

/// Runs `future` as the request `context`: log lines written while it runs
/// name it.
pub async fn scope<F: Future>(context: RequestContext, future: F) -> F::Output {
    TASK.scope(RefCell::new(context), future).await
}

/// The request being served on this task or thread, if any.
pub fn current() -> Option<RequestContext> {
    TASK.try_with(|c| c.borrow().clone()).ok().or_else(|| THREAD.with(|t| t.borrow().clone()))
}

/// Records who is asking, for the rest of the request's log lines.
pub fn note_user(username: &str) {
    let _ = TASK.try_with(|c| c.borrow_mut().user = Some(username.to_string()));
}

/// Records the table the request is about.
pub fn note_table(table: i64) {
    let _ = TASK.try_with(|c| c.borrow_mut().table = Some(table));
}

/// Runs `f` on this thread as the request `context` (work handed to the
/// blocking pool or the writer thread).
pub fn in_context<T>(context: Option<RequestContext>, f: impl FnOnce() -> T) -> T {
    let previous = THREAD.with(|t| t.replace(context));
    struct Restore(Option<RequestContext>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            THREAD.with(|t| *t.borrow_mut() = previous);
        }
    }
    let _restore = Restore(previous);
    f()
}

/// Starts env_logger with `filter` (`RUST_LOG` syntax) and `format`.
pub fn init(filter: &str, format: LogFormat) {
    let mut builder = env_logger::Builder::new();
    builder.parse_filters(filter);
    match format {
        LogFormat::Text => builder.format(|buf, record| {
            let time = buf.timestamp_seconds();
            write!(buf, "[{time} {:<5} {}] {}", record.level(), record.target(), record.args())?;
            if let Some(c) = current() {
                write!(buf, " request_id={}", c.request_id)?;
                if let Some(user) = &c.user {
                    write!(buf, " user={user}")?;
                }
                if let Some(table) = c.table {
                    write!(buf, " table={table}")?;
                }
            }
            writeln!(buf)
        }),
        LogFormat::Json => builder.format(|buf, record| {
            let mut line = serde_json::json!({
                "time": buf.timestamp_millis().to_string(),
                "level": record.level().as_str(),
                "target": record.target(),
                "message": record.args().to_string(),
            });
            if let Some(c) = current() {
                line["request_id"] = c.request_id.into();
                if let Some(user) = c.user {
                    line["user"] = user.into();
                }
                if let Some(table) = c.table {
                    line["table"] = table.into();
                }
            }
            writeln!(buf, "{line}")
        }),
    };
    // A second start in one process (tests) keeps the first logger.
    let _ = builder.try_init();
}
