//! Every request at the edge, for the operators: its id in every log line
//! (`X-Request-Id`, made by `actix-request-identifier`), one access line, its
//! count and latency by route in the metrics, and, while the service drains
//! before it stops, a 503 instead of an answer.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use actix_request_identifier::RequestId;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage, HttpRequest, ResponseError};

use crate::domain::AppError;
use crate::logging::{self, RequestContext};
use crate::metrics::{self, METRICS};

/// Whether the service is draining, and how many requests are in flight.
#[derive(Debug, Default)]
pub struct Lifecycle {
    draining: AtomicBool,
    in_flight: AtomicUsize,
}

impl Lifecycle {
    /// From now on new requests are answered 503 `shutting_down`.
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::SeqCst);
        METRICS.draining.set(1);
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// Requests being served (not counting the ones refused while draining).
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
    }

    /// Waits until no request is in flight, or `timeout` passed; answers
    /// whether it got there.
    pub async fn drained(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.in_flight() > 0 {
            if Instant::now() >= deadline {
                return false;
            }
            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
        }
        true
    }
}

/// Counts a request in flight for as long as it lives.
struct InFlight(web::Data<Lifecycle>);

impl InFlight {
    fn enter(lifecycle: web::Data<Lifecycle>) -> InFlight {
        lifecycle.in_flight.fetch_add(1, Ordering::SeqCst);
        METRICS.http_in_flight.inc();
        InFlight(lifecycle)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
        METRICS.http_in_flight.dec();
    }
}

/// A request id as it goes into a log line: an incoming one (kept behind a
/// trusted proxy) may hold anything a header can; only a short token of
/// letters, digits and `-_.:` is written as it is.
fn loggable(id: &RequestId) -> String {
    let text = id.header_value().to_str().unwrap_or("");
    let clean = !text.is_empty()
        && text.len() <= 128
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'));
    if clean {
        text.to_string()
    } else {
        format!("unprintable:{}", text.len())
    }
}

/// The table a request is about, from its matched route (`/tables/{id}/…`).
fn table_of(req: &HttpRequest) -> Option<i64> {
    let pattern = req.match_pattern()?;
    if !pattern.contains("/tables/{id}") {
        return None;
    }
    req.match_info().get("id")?.parse().ok()
}

/// Who is asking and which table, once the identity is known (called by the
/// `Identity` extractor): the rest of the request's log lines name them.
pub fn note_request(req: &HttpRequest, username: &str) {
    logging::note_user(username);
    if let Some(table) = table_of(req) {
        logging::note_table(table);
    }
}

/// The middleware: runs the request as its own log context.
pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let request_id = req.extensions().get::<RequestId>().map(loggable).unwrap_or_default();
    let context = RequestContext { request_id, ..RequestContext::default() };
    logging::scope(context, serve(req, next)).await
}

async fn serve(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let started = Instant::now();
    let method = req.method().to_string();
    let path = req.path().to_string();
    let client = client_ip(req.request());
    let lifecycle = req.app_data::<web::Data<Lifecycle>>().cloned();
    if lifecycle.as_ref().is_some_and(|l| l.is_draining()) {
        let mut response = AppError::shutting_down().error_response();
        response
            .headers_mut()
            .insert(actix_web::http::header::RETRY_AFTER, actix_web::http::header::HeaderValue::from_static("5"));
        response.head_mut().set_connection_type(actix_web::http::ConnectionType::Close);
        log::info!(target: "pitboss::access", "{client} \"{method} {path}\" 503 refused: shutting down");
        metrics::request_answered(&method, "(draining)", 503, started.elapsed());
        return Ok(req.into_response(response).map_into_right_body());
    }
    let _in_flight = lifecycle.map(InFlight::enter);
    let result = next.call(req).await;
    let took = started.elapsed();
    let (status, route) = match &result {
        Ok(res) => {
            if let Some(table) = table_of(res.request()) {
                logging::note_table(table);
            }
            (res.status(), res.request().match_pattern().unwrap_or_else(|| "(unmatched)".to_string()))
        }
        Err(e) => (e.as_response_error().status_code(), "(unmatched)".to_string()),
    };
    metrics::request_answered(&method, &route, status.as_u16(), took);
    log::info!(
        target: "pitboss::access",
        "{client} \"{method} {path}\" {} {:.1}ms",
        status.as_u16(),
        took.as_secs_f64() * 1000.0
    );
    result.map(ServiceResponse::map_into_left_body)
}

/// The client's address: the TCP peer, or with `TRUST_PROXY=true` (a
/// reverse proxy in front that appends it) the last `X-Forwarded-For` entry. It is recorded in the audit trail and limits sign-in
/// attempts per address.
pub fn client_ip(req: &HttpRequest) -> String {
    let trust_proxy = req.app_data::<web::Data<super::state::AppState>>().is_some_and(|s| s.trust_proxy);
    if trust_proxy {
        // The right-most entry is the one our proxy added; anything to its
        // left came from the client and proves nothing.
        let forwarded = req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok());
        if let Some(last) = forwarded.and_then(|v| v.rsplit(',').next()).map(str::trim).filter(|v| !v.is_empty()) {
            return last.to_string();
        }
    }
    req.peer_addr().map(|a| a.ip().to_string()).unwrap_or_else(|| "unknown".to_string())
}
