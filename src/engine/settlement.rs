//! The two-pass, chip-bounded settlement (RULES §8).
//!
//! Amounts are exact: every amount of the showdown is brought to the finest
//! scale it uses (at most `MAX_MONEY_SCALE` places, validated at the edge) and
//! settled as integers of that scale, then returned as decimals.

use rust_decimal::Decimal;
use serde::Serialize;

use super::showdown::Showdown;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pass {
    Special,
    Main,
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    pub transactions: Vec<Transaction>,
    /// Stacks after rake and settlement, by seat index.
    pub stacks: Vec<Decimal>,
    /// Stack changes (rake included), by seat index.
    pub nets: Vec<Decimal>,
    /// What each seat may still win or lose after the settlement, by seat
    /// index (RULES §8; under tournament rules the stack).
    pub exposures: Vec<Decimal>,
    /// Under tournament rules: the seat is out of the game.
    pub out: Vec<bool>,
}

/// Money as an integer count of `10^-scale`.
#[derive(Clone, Copy)]
struct Exact {
    scale: u32,
}

impl Exact {
    fn of(&self, d: Decimal) -> i128 {
        d.mantissa() * 10i128.pow(self.scale - d.scale())
    }

    fn money(&self, v: i128) -> Decimal {
        Decimal::from_i128_with_scale(v, self.scale)
    }
}

/// Settles `units[k] = [special, main]` for `pairs[k] = (earlier, later)` seat
/// indexes, given in settlement order; positive units are owed by the later
/// seat to the earlier one.
pub fn settle(showdown: &Showdown, pairs: &[(usize, usize)], units: &[[i64; 2]]) -> Settlement {
    let scale = showdown
        .seats
        .iter()
        .map(|s| s.stack.scale())
        .chain(showdown.seats.iter().filter_map(|s| s.exposure.map(|e| e.scale())))
        .chain([showdown.rake_per_seat.scale(), showdown.unit.scale()])
        .chain(showdown.pair_units.iter().map(|p| p.2.scale()))
        .max()
        .unwrap_or(0);
    let exact = Exact { scale };
    let n = showdown.seats.len();
    let rake = exact.of(showdown.rake_per_seat);
    let mut stacks: Vec<i128> = showdown.seats.iter().map(|s| exact.of(s.stack) - rake).collect();
    let tournament = showdown.tournament();
    // Revision 1 of the open-face presets: under tournament rules the stack
    // bounds only what a seat pays. From revision 2 (seed 001: "Players can
    // only win or lose the chips they had at the beginning of the actual
    // game") it bounds what a seat wins too.
    let bust_out_pays_only = tournament && !showdown.ruleset.tournament_bounds_winnings;
    // RULES §8: stack less rake, or the exposure carried from the previous
    // hand (a fantasyland hand extends it); under tournament rules the
    // points the seat has.
    let mut exposure: Vec<i128> = showdown
        .seats
        .iter()
        .zip(&stacks)
        .map(|(s, &st)| if tournament { st } else { s.exposure.map_or(st, |e| exact.of(e).min(st)) })
        .collect();
    let mut out: Vec<bool> = stacks.iter().map(|&st| tournament && st <= 0).collect();
    let mut transactions = Vec::with_capacity(2 * pairs.len());
    for (pass_index, pass) in [Pass::Special, Pass::Main].into_iter().enumerate() {
        for (&(p, q), u) in pairs.iter().zip(units) {
            let owed_units = u[pass_index];
            if owed_units == 0 {
                continue;
            }
            let (payer, payee) = if owed_units > 0 { (q, p) } else { (p, q) };
            let owed = owed_units.unsigned_abs() as i128 * exact.of(showdown.unit_for(p, q));
            if owed == 0 {
                continue; // a unit of 0: nothing is owed, no transaction (RULES §8)
            }
            let paid = if bust_out_pays_only {
                // Bust-out: an out seat's later transactions do not happen;
                // a payer who cannot pay in full pays what it has and is out,
                // as is one whose points reach zero.
                if out[payer] || out[payee] {
                    0
                } else {
                    let paid = owed.min(stacks[payer]);
                    if paid < owed || stacks[payer] - paid <= 0 {
                        out[payer] = true;
                    }
                    paid
                }
            } else if tournament {
                // Seed 001: a seat wins or loses at most the points it had;
                // one whose points reach zero is out, and an out seat takes
                // no further part.
                let paid =
                    if out[payer] || out[payee] { 0 } else { owed.min(exposure[payer]).min(exposure[payee]).max(0) };
                exposure[payer] -= paid;
                exposure[payee] -= paid;
                if stacks[payer] - paid <= 0 {
                    out[payer] = true;
                }
                paid
            } else {
                let paid = owed.min(exposure[payer]).min(exposure[payee]);
                exposure[payer] -= paid;
                exposure[payee] -= paid;
                paid
            };
            stacks[payer] -= paid;
            stacks[payee] += paid;
            transactions.push(Transaction {
                pass,
                payer: showdown.seats[payer].number,
                payee: showdown.seats[payee].number,
                owed: exact.money(owed),
                paid: exact.money(paid),
            });
        }
    }
    if tournament {
        exposure.clone_from(&stacks);
    }
    let starts = showdown.seats.iter().map(|s| exact.of(s.stack));
    Settlement {
        transactions,
        stacks: stacks.iter().map(|&v| exact.money(v)).collect(),
        nets: stacks.iter().zip(starts).map(|(&end, start)| exact.money(end - start)).collect(),
        exposures: exposure[..n].iter().map(|&v| exact.money(v.max(0))).collect(),
        out,
    }
}
