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

/// Text typed by people (names, notes) as a CSV field: one a spreadsheet would
/// read as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`,
/// so it shows as text. Not for numbers.
pub fn csv_text(name: &str) -> String {
    match name.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{name}"),
        _ => name.to_string(),
    }
}
