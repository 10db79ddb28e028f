//! What `GET /metrics` shows, in Prometheus' text format (the `prometheus`
//! crate). Counters and histograms are kept as things happen (requests in
//! `web::observe`, commits in `service::hands`, the SQLite writer in
//! `db::writer`); the books' own figures (pool balances, open hands) and the
//! connection pool are read from the database when scraped.

use std::sync::LazyLock;
use std::time::Duration;

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
    TextEncoder,
};

/// Seconds: 1 ms to 10 s.
const LATENCY_BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];
/// Requests in one SQLite transaction (the writer takes at most 64).
const BATCH_BUCKETS: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];

pub struct Metrics {
    registry: Registry,
    pub http_requests: IntCounterVec,
    pub http_duration: HistogramVec,
    pub http_in_flight: IntGauge,
    pub hands_committed: IntCounter,
    pub commit_duration: Histogram,
    pub writer_queue_depth: IntGauge,
    pub writer_batch_size: Histogram,
    pub writer_batch_duration: Histogram,
    pub pool_balance: prometheus::GaugeVec,
    pub open_hands: IntGauge,
    pub db_connections: IntGaugeVec,
    pub draining: IntGauge,
    pub database_up: IntGauge,
    pub sqlite_heap: IntGauge,
    pub malloc: IntGaugeVec,
    pub mimalloc_committed: IntGauge,
}

fn histogram(name: &str, help: &str, buckets: &[f64]) -> Histogram {
    Histogram::with_opts(HistogramOpts::new(name, help).buckets(buckets.to_vec())).expect("a valid histogram")
}

impl Metrics {
    fn new() -> Metrics {
        let m = Metrics {
            registry: Registry::new(),
            http_requests: IntCounterVec::new(
                Opts::new("pitboss_http_requests_total", "HTTP requests answered, by method, route and status"),
                &["method", "route", "status"],
            )
            .expect("a valid counter"),
            http_duration: HistogramVec::new(
                HistogramOpts::new(
                    "pitboss_http_request_duration_seconds",
                    "Time from a request's arrival to its answer's head, by method and route",
                )
                .buckets(LATENCY_BUCKETS.to_vec()),
                &["method", "route"],
            )
            .expect("a valid histogram"),
            http_in_flight: IntGauge::new("pitboss_http_requests_in_flight", "Requests being served now")
                .expect("a valid gauge"),
            hands_committed: IntCounter::new(
                "pitboss_hands_committed_total",
                "Hands committed (a repeated commit of the same showdown is not counted again)",
            )
            .expect("a valid counter"),
            commit_duration: histogram(
                "pitboss_hand_commit_duration_seconds",
                "Time to commit a hand, from the service call to the durable commit",
                LATENCY_BUCKETS,
            ),
            writer_queue_depth: IntGauge::new(
                "pitboss_sqlite_writer_queue_depth",
                "Write requests waiting for the SQLite writer (0 on PostgreSQL)",
            )
            .expect("a valid gauge"),
            writer_batch_size: histogram(
                "pitboss_sqlite_writer_batch_size",
                "Write requests in one SQLite transaction (group commit)",
                BATCH_BUCKETS,
            ),
            writer_batch_duration: histogram(
                "pitboss_sqlite_writer_batch_duration_seconds",
                "Time of one SQLite write transaction, BEGIN to durable COMMIT",
                LATENCY_BUCKETS,
            ),
            pool_balance: prometheus::GaugeVec::new(
                Opts::new("pitboss_jackpot_pool_balance", "Each jackpot pool's balance (read when scraped)"),
                &["pool_id", "pool"],
            )
            .expect("a valid gauge"),
            open_hands: IntGauge::new("pitboss_open_hands", "Hands started and neither committed nor voided")
                .expect("a valid gauge"),
            db_connections: IntGaugeVec::new(
                Opts::new("pitboss_db_pool_connections", "Database pool connections, by state (idle, busy)"),
                &["state"],
            )
            .expect("a valid gauge"),
            draining: IntGauge::new("pitboss_draining", "1 while the service drains before it stops")
                .expect("a valid gauge"),
            database_up: IntGauge::new("pitboss_database_up", "1 when the database answered the last scrape")
                .expect("a valid gauge"),
            sqlite_heap: IntGauge::new(
                "pitboss_sqlite_heap_bytes",
                "Bytes SQLite has allocated in this process: page caches, statements, schema (0 on PostgreSQL)",
            )
            .expect("a valid gauge"),
            malloc: IntGaugeVec::new(
                Opts::new(
                    "pitboss_malloc_bytes",
                    "The C allocator's bytes (glibc; read when scraped), for the C libraries' allocations \
                     (SQLite's, libpq's, zstd's): in_use, held from the operating system (in use, and freed but kept \
                     for reuse)",
                ),
                &["state"],
            )
            .expect("a valid gauge"),
            mimalloc_committed: IntGauge::new(
                "pitboss_mimalloc_committed_bytes",
                "Bytes mimalloc, the allocator of the service's own allocations, has committed from the \
                 operating system (read when scraped)",
            )
            .expect("a valid gauge"),
        };
        let r = &m.registry;
        let collectors: Vec<Box<dyn prometheus::core::Collector>> = vec![
            Box::new(m.http_requests.clone()),
            Box::new(m.http_duration.clone()),
            Box::new(m.http_in_flight.clone()),
            Box::new(m.hands_committed.clone()),
            Box::new(m.commit_duration.clone()),
            Box::new(m.writer_queue_depth.clone()),
            Box::new(m.writer_batch_size.clone()),
            Box::new(m.writer_batch_duration.clone()),
            Box::new(m.pool_balance.clone()),
            Box::new(m.open_hands.clone()),
            Box::new(m.db_connections.clone()),
            Box::new(m.draining.clone()),
            Box::new(m.database_up.clone()),
            Box::new(m.sqlite_heap.clone()),
            Box::new(m.malloc.clone()),
            Box::new(m.mimalloc_committed.clone()),
        ];
        for c in collectors {
            r.register(c).expect("each metric registered once");
        }
        m
    }

    /// Everything, in Prometheus' text format.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        TextEncoder::new().encode(&self.registry.gather(), &mut out).expect("text encoding");
        String::from_utf8(out).expect("the text format is UTF-8")
    }
}

/// The process's metrics.
pub static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// `Content-Type` of [`Metrics::render`].
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The C allocator's (in use, held) bytes: what the process has allocated
/// through the C library's `malloc` (SQLite's, libpq's and zstd's; the
/// service's own go to mimalloc, [`crate::allocator::committed_bytes`]) and what the
/// allocator holds from the operating system for it, freed chunks kept for
/// reuse included. Their difference growing while the first stays flat is
/// the allocator keeping memory, not the program holding more. glibc 2.33 or
/// later (`mallinfo2`, looked up when first asked, so that the binary still
/// starts on an older glibc, where this is `None`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn malloc_bytes() -> Option<(i64, i64)> {
    type MallInfo2 = unsafe extern "C" fn() -> libc::mallinfo2;
    static MALLINFO2: LazyLock<Option<MallInfo2>> = LazyLock::new(|| {
        // SAFETY: a lookup by a NUL-terminated name in the loaded objects;
        // a symbol found under this name is glibc's `mallinfo2`, whose
        // signature is `MallInfo2`.
        let found = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"mallinfo2".as_ptr()) };
        (!found.is_null()).then(|| unsafe { std::mem::transmute::<*mut libc::c_void, MallInfo2>(found) })
    });
    // SAFETY: `mallinfo2` takes no arguments and returns a plain struct of
    // counters; glibc takes each arena's lock while it sums them.
    let info = unsafe { (*MALLINFO2)?() };
    let wide = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    Some((wide(info.uordblks + info.hblkhd), wide(info.arena + info.hblkhd)))
}

/// Not glibc: not known.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn malloc_bytes() -> Option<(i64, i64)> {
    None
}

/// A hand was committed (not a repeat) in `took`.
pub fn hand_committed(took: Duration) {
    METRICS.hands_committed.inc();
    METRICS.commit_duration.observe(took.as_secs_f64());
}

/// One answered request.
pub fn request_answered(method: &str, route: &str, status: u16, took: Duration) {
    METRICS.http_requests.with_label_values(&[method, route, &status.to_string()]).inc();
    METRICS.http_duration.with_label_values(&[method, route]).observe(took.as_secs_f64());
}
