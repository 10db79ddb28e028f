//! The HTTP shell around the engine: thin handlers, one JSON error shape.

pub mod charts;
pub mod error;
pub mod pages;
pub mod reports;
pub mod routes;
pub mod startup;

pub use startup::{run, Settings};
