//! The engine's tests: evaluation against a reference over every hand, every
//! preset and option by hand-worked examples, every error kind, properties,
//! the house-way setter, the CLI contract and the scoring endpoint.

#[path = "../support/mod.rs"]
mod support;

mod analyse;
mod api_score;
mod cli;
mod docs;
mod errors;
mod eval_exhaustive;
mod presets;
mod properties;
mod setter;
