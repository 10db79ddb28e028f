//! The HTTP shell around the service: extractors (who is asking, bodies),
//! thin handlers (the JSON API in `routes`, the pages), one home for their
//! helpers, and the one place errors become answers (`error`).

pub mod account;
pub mod admin;
pub mod auth;
pub mod bodies;
pub mod charts;
pub mod dealer;
pub mod error;
pub mod error_page;
pub mod extract;
pub mod floor;
pub mod gaming_days;
pub mod headers;
pub mod helpers;
pub mod live;
pub mod observe;
pub mod openapi;
pub mod pages;
pub mod players;
pub mod reports;
pub mod routes;
pub mod sessions_file;
pub mod startup;
pub mod state;

pub use startup::{run, start, Service};
