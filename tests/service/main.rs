//! The service's tests through HTTP, on SQLite and (with
//! `PITBOSS_TEST_POSTGRES_URL`) PostgreSQL: table sessions and the ledger
//! audit, the money holes, the back office and its role matrix, the pit
//! board and tables opened and closed, reports, open-face table play, a model-based test of the books, hostile input,
//! pages without JavaScript, scans, outages, crashes, graceful shutdown, the
//! schema against both databases, and what operators expect (OpenAPI,
//! headers, metrics, logs, settings, migrations).

#[path = "../support/mod.rs"]
mod support;

mod admin_forms;
mod back_office;
mod board;
mod crash_recovery;
mod gaming_days;
mod hostile_http;
mod live_board;
mod model;
mod ofc_table;
mod ops;
mod pages;
mod players;
mod postgres_outage;
mod reports;
mod schema;
mod service;
mod service_scans;
mod shutdown;
mod slips;
mod statements;
