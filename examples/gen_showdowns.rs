//! Prints random, valid showdowns, one JSON object per line, for load tests
//! of `pitboss score --jsonl`.
//!
//! `cargo run --release --example gen_showdowns -- COUNT [SEED]`

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::io::{BufWriter, Write};

use pitboss::engine::card::{display_cards, Card};

const PRESETS: [&str; 4] = ["hawaiian-gardens", "hawaiian-gardens", "typical", "ofc"];

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deck: Vec<Card> = Card::deck().collect();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for _ in 0..count {
        deck.shuffle(&mut rng);
        let seats: Vec<serde_json::Value> = (0..4)
            .map(|i| {
                let hand = &deck[i * 13..i * 13 + 13];
                serde_json::json!({
                    "seat": i + 1,
                    "stack": format!("{}.00", rng.random_range(5..300)),
                    "front": display_cards(&hand[..3]),
                    "middle": display_cards(&hand[3..8]),
                    "back": display_cards(&hand[8..]),
                })
            })
            .collect();
        let showdown = serde_json::json!({
            "ruleset": PRESETS[rng.random_range(0..PRESETS.len())],
            "unit": "1",
            "dealer": rng.random_range(1..=4),
            "rake": {"per_seat": "0.50", "jackpot": "0.10"},
            "seats": seats,
        });
        writeln!(out, "{showdown}").unwrap();
    }
}
