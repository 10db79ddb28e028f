//! The pure engine: cards, evaluation, rulesets, scoring and settlement.
//! No I/O, no web or database types; the service and the CLI call into it.

pub mod card;
pub mod eval;
pub mod jackpot;
pub mod money;
pub mod options;
#[cfg(test)]
mod options_examples;
pub mod rows;
pub mod ruleset;
pub mod scoring;
pub mod setter;
pub mod settlement;
pub mod showdown;
pub mod special;
pub mod words;

pub use card::{parse_cards, Card, CardError, CardSet, Suit};
pub use eval::{eval3, eval5, Category, Strength3, Strength5};
pub use ruleset::{current_revision, preset, preset_at, Row, Ruleset, PRESETS};
pub use scoring::{score, ScoreResult};
pub use settlement::{Pass, Transaction};
pub use showdown::{Showdown, ShowdownError, ShowdownInput};

/// Parses and scores one showdown given as JSON text.
pub fn score_json(text: &str) -> Result<ScoreResult, ShowdownError> {
    score(&Showdown::from_json(text)?)
}
