//! The two-pass, chip-bounded settlement (RULES §8).

use rust_decimal::Decimal;
use serde::Serialize;

use super::showdown::Showdown;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pass {
    Special,
    Main,
}

impl Pass {
    pub fn name(self) -> &'static str {
        match self {
            Pass::Special => "special",
            Pass::Main => "main",
        }
    }
}

/// One payment between two seats: `owed` before the chip bound, `paid` after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Transaction {
    pub pass: Pass,
    pub payer: u32,
    pub payee: u32,
    pub owed: Decimal,
    pub paid: Decimal,
}

impl Transaction {
    /// The chip bound cut this payment.
    pub fn is_capped(&self) -> bool {
        self.paid < self.owed
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    pub transactions: Vec<Transaction>,
    /// Stacks after rake and settlement, by seat index.
    pub stacks: Vec<Decimal>,
}

/// Settles `units[k] = [special, main]` for `pairs[k] = (earlier, later)` seat
/// indexes, given in settlement order; positive units are owed by the later
/// seat to the earlier one.
pub fn settle(showdown: &Showdown, pairs: &[(usize, usize)], units: &[[i64; 2]]) -> Settlement {
    let rake = showdown.rake_per_seat;
    let mut stacks: Vec<Decimal> = showdown.seats.iter().map(|s| s.stack - rake).collect();
    let mut exposure = stacks.clone();
    let mut transactions = Vec::new();
    for (pass_index, pass) in [Pass::Special, Pass::Main].into_iter().enumerate() {
        for (&(p, q), u) in pairs.iter().zip(units) {
            let owed_units = u[pass_index];
            if owed_units == 0 {
                continue;
            }
            let (payer, payee) = if owed_units > 0 { (q, p) } else { (p, q) };
            let owed = Decimal::from(owed_units.unsigned_abs()) * showdown.unit_for(p, q);
            let paid = owed.min(exposure[payer]).min(exposure[payee]);
            exposure[payer] -= paid;
            exposure[payee] -= paid;
            stacks[payer] -= paid;
            stacks[payee] += paid;
            transactions.push(Transaction {
                pass,
                payer: showdown.seats[payer].number,
                payee: showdown.seats[payee].number,
                owed,
                paid,
            });
        }
    }
    Settlement {
        transactions,
        stacks,
    }
}
