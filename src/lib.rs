//! pitboss: table bookkeeping and settlement for Chinese poker.
//!
//! `engine` is the pure scoring core; `cli` is the command-line front;
//! `web` is the HTTP service around the engine.

pub mod cli;
pub mod db;
pub mod engine;
pub mod error;
pub mod money;
pub mod web;
