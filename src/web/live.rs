//! The live pit board: `GET /api/v1/board/events`, a server-sent event
//! stream of the whole board each time it may have changed.
//!
//! The database is the event source, so app servers sharing one database
//! need no broker: each server runs one poller (a thread, only while a
//! stream is open) that looks at the audit trail every `POLL_EVERY`
//! (`service::board::audit_changed`: the ids after the newest seen, an index
//! walk) and, after a change that may touch the board, reads the board once
//! and hands it to every stream of that server (a broadcast channel). A new
//! stream gets the latest board at once, so a client that reconnects
//! (EventSource does, with `Last-Event-ID`) catches up whatever it missed,
//! whichever server it reaches. Streams end when the server drains (a
//! shutdown is not held up) and after `MAX_STREAM_AGE` (the client
//! reconnects and its session is checked again).

use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::web::{self, Bytes};
use futures_util::future::{select, Either};
use futures_util::Stream;
use tokio::sync::broadcast;

use super::observe::Lifecycle;
use crate::db::Database;
use crate::domain::AppError;
use crate::service::board::{self, AuditWatch};

/// How often the poller looks at the audit trail.
pub const POLL_EVERY: Duration = Duration::from_millis(250);

/// A comment line this often keeps proxies from closing a quiet stream.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A stream ends after this long; the client reconnects (and is signed in
/// again).
pub const MAX_STREAM_AGE: Duration = Duration::from_secs(600);

/// How long a client waits before it reconnects (the `retry:` field).
const RETRY_MS: u32 = 2000;

/// How often a waiting stream checks whether the server drains.
const DRAIN_CHECK: Duration = Duration::from_millis(250);

/// One reading of the board.
#[derive(Debug)]
pub struct BoardEvent {
    /// This server's count of readings (a stream sends each once).
    seq: u64,
    /// The newest audit id seen when the board was read.
    pub id: i64,
    /// The board as `GET /api/v1/board` answers it.
    pub json: String,
}

impl BoardEvent {
    fn frame(&self) -> Bytes {
        Bytes::from(format!("id: {}\nevent: board\ndata: {}\n\n", self.id, self.json))
    }
}

#[derive(Default)]
struct Poller {
    running: bool,
    /// The latest reading (while the poller runs).
    latest: Option<Arc<BoardEvent>>,
    seq: u64,
}

/// One server's board streams and their poller.
pub struct BoardHub {
    db: Database,
    sender: broadcast::Sender<Arc<BoardEvent>>,
    poller: Mutex<Poller>,
    streams: AtomicUsize,
    max_streams: usize,
}

impl BoardHub {
    /// At most `max_streams` open streams at a time (`BOARD_STREAMS`).
    pub fn new(db: Database, max_streams: usize) -> BoardHub {
        let (sender, _) = broadcast::channel(16);
        BoardHub { db, sender, poller: Mutex::default(), streams: AtomicUsize::new(0), max_streams }
    }

    /// Streams open now.
    pub fn streams(&self) -> usize {
        self.streams.load(Ordering::SeqCst)
    }

    /// A new stream's place: its receiver and the latest board; starts the
    /// poller if it is not running. Refused (429 `board_streams_full`) when
    /// `max_streams` are open.
    pub fn subscribe(self: &Arc<Self>) -> Result<Subscription, AppError> {
        let taken = self.streams.fetch_add(1, Ordering::SeqCst);
        let slot = Slot(self.clone());
        if taken >= self.max_streams {
            return Err(AppError::too_many_requests(
                "board_streams_full",
                format!(
                    "this server already serves {} live boards (BOARD_STREAMS); try again later or reload the page",
                    self.max_streams
                ),
            ));
        }
        let mut poller = self.poller.lock().unwrap_or_else(|e| e.into_inner());
        let receiver = self.sender.subscribe();
        let latest = poller.latest.clone();
        if !poller.running {
            let hub = self.clone();
            std::thread::Builder::new()
                .name("board-poller".to_string())
                .spawn(move || hub.poll())
                .map_err(|e| AppError::internal(format!("cannot start the board poller: {e}")))?;
            poller.running = true;
        }
        Ok(Subscription { receiver, latest, _slot: slot })
    }

    /// The poller: looks at the audit trail until no stream is left.
    fn poll(self: Arc<Self>) {
        let mut watch: Option<AuditWatch> = None;
        let mut failing = false;
        loop {
            {
                let mut poller = self.poller.lock().unwrap_or_else(|e| e.into_inner());
                if self.sender.receiver_count() == 0 {
                    // Under the lock: a new stream either saw it running
                    // and is counted, or starts a new poller.
                    *poller = Poller { seq: poller.seq, ..Poller::default() };
                    return;
                }
            }
            match self.look(&mut watch) {
                Ok(Some((id, json))) => {
                    let event = {
                        let mut poller = self.poller.lock().unwrap_or_else(|e| e.into_inner());
                        poller.seq += 1;
                        let event = Arc::new(BoardEvent { seq: poller.seq, id, json });
                        poller.latest = Some(event.clone());
                        event
                    };
                    let _ = self.sender.send(event);
                    failing = false;
                }
                Ok(None) => failing = false,
                Err(e) => {
                    if !failing {
                        log::warn!("the live board cannot read the database: {e}");
                    }
                    failing = true;
                }
            }
            std::thread::sleep(POLL_EVERY);
        }
    }

    /// One look: the board when it may have changed (always on the first).
    fn look(&self, watch: &mut Option<AuditWatch>) -> Result<Option<(i64, String)>, AppError> {
        let mut conn = self.db.conn()?;
        let changed = match watch {
            Some(watch) => board::audit_changed(&mut conn, watch)?,
            None => {
                let mut new = board::watch_audit(&mut conn)?;
                board::audit_changed(&mut conn, &mut new)?;
                *watch = Some(new);
                true
            }
        };
        let Some(watch) = watch.as_ref().filter(|_| changed) else { return Ok(None) };
        let id = watch.newest();
        let view = board::board(&mut conn)?;
        let json = serde_json::to_string(&view).map_err(AppError::internal)?;
        Ok(Some((id, json)))
    }
}

/// Holds one of the hub's stream places while it lives.
struct Slot(Arc<BoardHub>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.streams.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A stream's place at the hub.
pub struct Subscription {
    receiver: broadcast::Receiver<Arc<BoardEvent>>,
    latest: Option<Arc<BoardEvent>>,
    _slot: Slot,
}

struct Feed {
    sub: Subscription,
    lifecycle: Option<web::Data<Lifecycle>>,
    sent: u64,
    opened: Instant,
    wrote: Instant,
    greeted: bool,
}

impl Feed {
    fn over(&self) -> bool {
        self.lifecycle.as_ref().is_some_and(|l| l.is_draining()) || self.opened.elapsed() >= MAX_STREAM_AGE
    }

    /// The next bytes to send; none when the stream is over.
    async fn next(&mut self) -> Option<Bytes> {
        if !self.greeted {
            self.greeted = true;
            let mut first = format!("retry: {RETRY_MS}\n\n");
            if let Some(latest) = self.sub.latest.take() {
                self.sent = latest.seq;
                first.push_str(std::str::from_utf8(&latest.frame()).unwrap_or(""));
            }
            return Some(Bytes::from(first));
        }
        loop {
            if self.over() {
                return None;
            }
            let received = pin!(self.sub.receiver.recv());
            let wait = pin!(actix_web::rt::time::sleep(DRAIN_CHECK));
            match select(received, wait).await {
                Either::Left((Ok(event), _)) => {
                    if event.seq > self.sent {
                        self.sent = event.seq;
                        self.wrote = Instant::now();
                        return Some(event.frame());
                    }
                }
                // Too slow: older readings were dropped; the next is newer.
                Either::Left((Err(broadcast::error::RecvError::Lagged(_)), _)) => {}
                Either::Left((Err(broadcast::error::RecvError::Closed), _)) => return None,
                Either::Right(_) => {
                    if self.wrote.elapsed() >= KEEP_ALIVE {
                        self.wrote = Instant::now();
                        return Some(Bytes::from_static(b": keep-alive\n\n"));
                    }
                }
            }
        }
    }
}

/// The event stream of one subscription: `retry:`, the latest board if the
/// hub has one, then every new reading, a keep-alive comment every
/// `KEEP_ALIVE`; over when the server drains or after `MAX_STREAM_AGE`.
pub fn event_stream(
    sub: Subscription,
    lifecycle: Option<web::Data<Lifecycle>>,
) -> impl Stream<Item = Result<Bytes, actix_web::Error>> {
    let now = Instant::now();
    let feed = Feed { sub, lifecycle, sent: 0, opened: now, wrote: now, greeted: false };
    futures_util::stream::unfold(feed, |mut feed| async move {
        let bytes = feed.next().await?;
        Some((Ok(bytes), feed))
    })
}
