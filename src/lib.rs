//! pitboss: table bookkeeping and settlement for Chinese poker.
//!
//! A request walks down once: `web` parses it into `domain` types, `service`
//! decides and writes through `db`, `engine` scores; nothing walks back up.
//!
//! - `engine`: the pure scoring core (cards, evaluation, rulesets, scoring,
//!   settlement, the house-way setter); no I/O.
//! - `domain`: `Money`, ids, status enums, the stored result, the user and
//!   actor, the error with its code and place.
//! - `service`: one function per use case, its policy and audit row.
//! - `db`: the connection, migrations, the schema, plain queries.
//! - `web`: the HTTP shell (extractors, handlers, pages, error mapping).
//! - `cli`: `pitboss score` and `pitboss analyse`.
//! - `config`: every setting of the service, typed, from flags and the
//!   environment; `logging` and `metrics`: what operators read.

pub mod allocator;
pub mod cli;
pub mod config;
pub mod db;
pub mod domain;
pub mod engine;
pub mod logging;
pub mod metrics;
pub mod service;
pub mod web;
