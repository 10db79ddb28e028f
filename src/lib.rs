//! pitboss: table bookkeeping and settlement for Chinese poker.
//!
//! `engine` is the pure scoring core; `cli` is the command-line front.

pub mod cli;
pub mod engine;
