//! Paying an approved jackpot hit by its pool's shares (RULES §9): by
//! default the loser 50%, the winner 25% and the other seats dealt in 25%
//! shared equally; with no other seats their share goes to the loser. Cents
//! that do not divide evenly go to the loser. Amounts are whole cents.

/// A pool's shares, in percent; they add up to 100.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shares {
    pub loser: u32,
    pub winner: u32,
    pub others: u32,
}

impl Shares {
    pub const DEFAULT: Shares = Shares { loser: 50, winner: 25, others: 25 };

    /// Shares that add up to 100, or what is wrong with them.
    pub fn new(loser: u32, winner: u32, others: u32) -> Result<Shares, String> {
        let sum = u64::from(loser) + u64::from(winner) + u64::from(others);
        if sum != 100 {
            return Err(format!("the shares add up to {sum}%, not 100%"));
        }
        Ok(Shares { loser, winner, others })
    }
}

/// How a hit of `amount` cents is paid: (loser, winner, each other seat).
/// The parts always add up to `amount`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Payout {
    pub loser: i64,
    pub winner: i64,
    pub others: Vec<i64>,
}

pub fn split(amount: i64, shares: Shares, other_seats: usize) -> Payout {
    let part = |pct: u32| amount * i64::from(pct) / 100;
    let winner = part(shares.winner);
    let others = if other_seats == 0 {
        Vec::new()
    } else {
        let each = part(shares.others) / other_seats as i64;
        vec![each; other_seats]
    };
    let loser = amount - winner - others.iter().sum::<i64>();
    Payout { loser, winner, others }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_shares_four_seats() {
        // 1000.01 with two other seats: winner 250.00, others 125.00 each,
        // the loser 500.01 (the odd cent).
        let p = split(100_001, Shares::DEFAULT, 2);
        assert_eq!(p, Payout { loser: 50_001, winner: 25_000, others: vec![12_500, 12_500] });
    }

    #[test]
    fn uneven_cents_go_to_the_loser() {
        // 100.00 with three others: 25.00 / 3 = 8.33 each, 0.01 left over.
        let p = split(10_000, Shares::DEFAULT, 3);
        assert_eq!(p.winner, 2_500);
        assert_eq!(p.others, vec![833, 833, 833]);
        assert_eq!(p.loser, 5_001);
    }

    #[test]
    fn heads_up_the_others_share_goes_to_the_loser() {
        let p = split(10_000, Shares::DEFAULT, 0);
        assert_eq!(p, Payout { loser: 7_500, winner: 2_500, others: vec![] });
    }

    #[test]
    fn parts_always_add_up() {
        for amount in [0, 1, 99, 101, 12_345, 9_999_999] {
            for others in 0..6 {
                for shares in [
                    Shares::DEFAULT,
                    Shares { loser: 40, winner: 40, others: 20 },
                    Shares { loser: 100, winner: 0, others: 0 },
                ] {
                    let p = split(amount, shares, others);
                    assert_eq!(p.loser + p.winner + p.others.iter().sum::<i64>(), amount);
                    assert!(p.loser >= 0 && p.winner >= 0 && p.others.iter().all(|&o| o >= 0));
                }
            }
        }
    }

    #[test]
    fn shares_must_add_up_to_100() {
        assert!(Shares::new(50, 25, 20).is_err());
        // No overflow: shares that wrap around a u32 to 100 are refused.
        assert!(Shares::new(u32::MAX, u32::MAX, 102).is_err());
        assert_eq!(Shares::new(60, 30, 10), Ok(Shares { loser: 60, winner: 30, others: 10 }));
    }
}
