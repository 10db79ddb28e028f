//! A committed hand's settlement sheet as stored (CONTRACT.md "Result"),
//! read back typed: what the service needs of it (exposure carried into a
//! fantasyland hand, the sheet page, the CSV) without walking untyped JSON.
//! The stored JSON itself stays verbatim (the API answers it as written).

use serde::Deserialize;

use super::money::Money;

#[derive(Clone, Debug, Deserialize)]
pub struct StoredResult {
    pub ruleset: String,
    pub seats: Vec<StoredSeat>,
    #[serde(default)]
    pub pairs: Vec<StoredPair>,
    #[serde(default)]
    pub transactions: Vec<StoredTransaction>,
    #[serde(default)]
    pub jackpot_triggers: Vec<StoredTrigger>,
    pub jackpot_contribution: Money,
}

#[derive(Clone, Debug, Deserialize)]
pub struct StoredSeat {
    pub seat: u32,
    pub fouled: bool,
    pub surrendered: bool,
    pub special: Option<String>,
    #[serde(default)]
    pub aces: u8,
    #[serde(default)]
    pub royalties: i64,
    #[serde(default)]
    pub fantasyland_next: bool,
    pub stack_start: Money,
    pub rake: Money,
    pub stack_end: Money,
    pub net: Money,
    #[serde(default)]
    pub foul_reason: Option<String>,
    #[serde(default)]
    pub exposure_end: Option<Money>,
    #[serde(default)]
    pub fantasyland_cards: Option<u32>,
    #[serde(default)]
    pub moon: Option<bool>,
    #[serde(default)]
    pub out: Option<bool>,
    #[serde(default)]
    pub penalties: Option<Vec<String>>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct StoredPair {
    pub seats: [u32; 2],
    pub special_units: i64,
    pub main_units: i64,
}

#[derive(Clone, Debug, Deserialize)]
pub struct StoredTransaction {
    /// `special` or `main`.
    pub pass: String,
    pub payer: u32,
    pub payee: u32,
    pub owed: Money,
    pub paid: Money,
}

impl StoredTransaction {
    /// The chip bound cut it short.
    pub fn capped(&self) -> bool {
        self.paid != self.owed
    }
}

#[derive(Clone, Debug, Deserialize)]
pub struct StoredTrigger {
    pub kind: String,
    pub loser: u32,
    pub winner: u32,
}

impl StoredResult {
    pub fn from_json(text: &str) -> Result<StoredResult, super::error::AppError> {
        serde_json::from_str(text)
            .map_err(|e| super::error::AppError::internal(format!("a stored result does not read back: {e}")))
    }

    pub fn seat(&self, seat: u32) -> Option<&StoredSeat> {
        self.seats.iter().find(|s| s.seat == seat)
    }

    /// What each seat paid and was paid in this hand (the chip bound's use of
    /// its exposure), by seat.
    pub fn moved(&self, seat: u32) -> Money {
        self.transactions.iter().filter(|t| t.payer == seat || t.payee == seat).map(|t| t.paid).sum()
    }
}
