//! The HTTP shell around the engine: thin handlers, one JSON error shape.

pub mod account;
pub mod auth;
pub mod charts;
pub mod error;
pub mod floor;
pub mod pages;
pub mod reports;
pub mod routes;
pub mod startup;

pub use startup::{run, Settings};
