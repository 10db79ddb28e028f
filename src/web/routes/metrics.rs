//! `GET /metrics`: the service's metrics in Prometheus' text format.

use crate::web::error::ErrorBody;
use actix_web::{http::header, web, HttpRequest, HttpResponse};
use subtle::ConstantTimeEq;

use crate::domain::AppError;
use crate::metrics::{self, METRICS};
use crate::service;
use crate::web::auth::is_local;
use crate::web::extract::with_db;
use crate::web::state::AppState;

/// Who may read the metrics besides this machine (`METRICS_TOKEN`).
#[derive(Clone, Debug, Default)]
pub struct MetricsAccess {
    pub token: Option<String>,
}

impl MetricsAccess {
    /// From this machine (a loopback peer, not through a proxy), or with
    /// `Authorization: Bearer <METRICS_TOKEN>` from anywhere.
    fn check(&self, req: &HttpRequest) -> Result<(), AppError> {
        let sent = req.headers().get(header::AUTHORIZATION).map(|v| v.to_str().unwrap_or(""));
        match (&self.token, sent) {
            (Some(token), Some(sent)) => {
                let sent = sent.strip_prefix("Bearer ").unwrap_or("").trim();
                if bool::from(token.as_bytes().ct_eq(sent.as_bytes())) {
                    Ok(())
                } else {
                    Err(AppError::unauthorized("bad_metrics_token", "this is not the metrics token (METRICS_TOKEN)"))
                }
            }
            _ if is_local(req) => Ok(()),
            _ => Err(AppError::forbidden(
                "metrics_not_public",
                "the metrics answer this machine only, or a scraper that sends the metrics token (METRICS_TOKEN)",
            )),
        }
    }
}

/// `GET /metrics`: counters and histograms since start, and the books'
/// figures (pool balances, open hands) and the connection pool read now.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses(
        (status = 200, description = "Prometheus text format", content_type = "text/plain; version=0.0.4", body = String),
        (status = 401, description = "Codes: `bad_metrics_token`", body = ErrorBody),
        (status = 403, description = "Codes: `metrics_not_public`", body = ErrorBody),
    ),
    security(("metrics_token" = [])),
)]
pub async fn metrics(
    state: web::Data<AppState>,
    access: web::Data<MetricsAccess>,
    req: HttpRequest,
) -> Result<HttpResponse, AppError> {
    access.check(&req)?;
    let (connections, idle) = state.db.pool_state();
    METRICS.db_connections.with_label_values(&["idle"]).set(i64::from(idle));
    METRICS.db_connections.with_label_values(&["busy"]).set(i64::from(connections.saturating_sub(idle)));
    METRICS.sqlite_heap.set(state.db.sqlite_heap_bytes().unwrap_or(0));
    if let Some((in_use, held)) = metrics::malloc_bytes() {
        METRICS.malloc.with_label_values(&["in_use"]).set(in_use);
        METRICS.malloc.with_label_values(&["held"]).set(held);
    }
    METRICS.mimalloc_committed.set(crate::allocator::committed_bytes());
    // The database's figures; when it cannot answer, the rest still can.
    match with_db(&state, service::jackpots::books_figures).await {
        Ok(figures) => {
            METRICS.database_up.set(1);
            METRICS.open_hands.set(figures.open_hands);
            METRICS.pool_balance.reset();
            for pool in figures.pools {
                let balance = pool.balance.cents() as f64 / 100.0;
                METRICS.pool_balance.with_label_values(&[&pool.id.to_string(), &pool.name]).set(balance);
            }
        }
        Err(e) => {
            METRICS.database_up.set(0);
            log::warn!("metrics: the database did not answer: {e}");
        }
    }
    Ok(HttpResponse::Ok().content_type(metrics::CONTENT_TYPE).body(METRICS.render()))
}
