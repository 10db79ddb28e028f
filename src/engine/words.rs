//! Hands described in words, for fouls and the dealer screen.

use super::card::Rank;
use super::eval::{Category, Strength3, Strength5};
use super::rows::RowStrengths;
use super::ruleset::Row;

const SINGULAR: [&str; 13] =
    ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];
const PLURAL: [&str; 13] = [
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings",
    "aces",
];

fn one(r: Rank) -> &'static str {
    SINGULAR[r as usize]
}

fn many(r: Rank) -> &'static str {
    PLURAL[r as usize]
}

fn describe(category: Category, ranks: &[Rank]) -> String {
    match category {
        Category::HighCard => format!("{} high", one(ranks[0])),
        Category::Pair => format!("pair of {}", many(ranks[0])),
        Category::TwoPair => format!("two pair, {} and {}", many(ranks[0]), many(ranks[1])),
        Category::Trips => format!("three {}", many(ranks[0])),
        Category::Straight => format!("{}-high straight", one(ranks[0])),
        Category::Flush => format!("{}-high flush", one(ranks[0])),
        Category::FullHouse => format!("full house, {} over {}", many(ranks[0]), many(ranks[1])),
        Category::Quads => format!("four {}", many(ranks[0])),
        Category::StraightFlush if ranks[0] == 12 => "royal flush".to_string(),
        Category::StraightFlush => format!("{}-high straight flush", one(ranks[0])),
    }
}

/// A five-card hand in words: "two pair, kings and fives".
pub fn describe5(s: Strength5) -> String {
    describe(s.category(), &s.ranks().to_vec())
}

/// A front in words: "pair of queens".
pub fn describe3(s: Strength3) -> String {
    describe(s.category(), &s.ranks())
}

fn describe_row(rows: &RowStrengths, row: Row) -> String {
    match row {
        Row::Front => describe3(rows.front),
        Row::Middle => describe5(rows.middle),
        Row::Back => describe5(rows.back),
    }
}

/// The kickers that decide between two rows of the same description.
fn kickers(rows: &RowStrengths, row: Row, against_front: bool) -> String {
    let (category, ranks) = match row {
        Row::Front => (rows.front.category(), rows.front.ranks()),
        // against the front, only as many of the middle's ranks count as the front has (RULES §2)
        Row::Middle if against_front => (rows.middle.category(), rows.middle.front_view().ranks()),
        Row::Middle => (rows.middle.category(), rows.middle.ranks().to_vec()),
        Row::Back => (rows.back.category(), rows.back.ranks().to_vec()),
    };
    let skip = match category {
        Category::Pair | Category::HighCard => 1,
        _ => ranks.len(),
    };
    let names: Vec<&str> = ranks.iter().skip(skip).map(|&r| one(r)).collect();
    match names.len() {
        0 => String::new(),
        1 => format!(", {} kicker", names[0]),
        _ => format!(", {} kickers", names.join(" and ")),
    }
}

/// "middle pair of jacks is below front pair of queens"; when both rows read
/// the same, the kickers that decide are named too.
pub fn describe_foul(rows: &RowStrengths, lower: Row, upper: Row) -> String {
    let (mut low, mut high) = (describe_row(rows, lower), describe_row(rows, upper));
    if low == high {
        let against_front = upper == Row::Front;
        low.push_str(&kickers(rows, lower, against_front));
        high.push_str(&kickers(rows, upper, against_front));
    }
    format!("{} {} is below {} {}", lower.name(), low, upper.name(), high)
}
