//! Engine benchmarks (figures in the README):
//! - five-card evaluation over 10 million random hands, beside `pokers` on
//!   the same hands;
//! - three-card evaluation over 10 million random fronts;
//! - a full four-seat `hawaiian-gardens` showdown from parsed cards to the
//!   settlement sheet;
//! - `score --jsonl` on an in-memory batch of showdowns.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use pitboss::engine::card::Card;
use pitboss::engine::eval::{eval3, eval5};
use pitboss::engine::{score, Showdown};

const HANDS: usize = 10_000_000;

/// `count` hands of `N` distinct cards as deck indexes (4 * rank + suit, the
/// numbering both evaluators use).
fn random_hands<const N: usize>(count: usize) -> Vec<[u8; N]> {
    let mut rng = SmallRng::seed_from_u64(0x5eed);
    let mut deck: Vec<u8> = (0..52).collect();
    (0..count)
        .map(|_| {
            let (picked, _) = deck.partial_shuffle(&mut rng, N);
            picked.try_into().unwrap()
        })
        .collect()
}

fn five_card(c: &mut Criterion) {
    let indexes = random_hands::<5>(HANDS);
    let ours: Vec<[Card; 5]> = indexes.iter().map(|h| h.map(|i| Card::from_index(i).unwrap())).collect();
    let mut group = c.benchmark_group("eval5");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(20);
    group.bench_function("pitboss", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for hand in &ours {
                acc = acc.wrapping_add(eval5(hand).0 as u64);
            }
            black_box(acc)
        })
    });
    group.bench_function("pokers", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for h in &indexes {
                let hand = pokers::Hand::default()
                    + pokers::CARDS[h[0] as usize]
                    + pokers::CARDS[h[1] as usize]
                    + pokers::CARDS[h[2] as usize]
                    + pokers::CARDS[h[3] as usize]
                    + pokers::CARDS[h[4] as usize];
                acc = acc.wrapping_add(hand.evaluate() as u64);
            }
            black_box(acc)
        })
    });
    group.finish();
}

fn three_card(c: &mut Criterion) {
    let ours: Vec<[Card; 3]> =
        random_hands::<3>(HANDS).iter().map(|h| h.map(|i| Card::from_index(i).unwrap())).collect();
    let mut group = c.benchmark_group("eval3");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(20);
    group.bench_function("pitboss", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for hand in &ours {
                acc = acc.wrapping_add(eval3(hand).0 as u64);
            }
            black_box(acc)
        })
    });
    group.finish();
}

/// A four-seat hawaiian-gardens showdown with rake, a bonus, a foul and a
/// chip-bounded seat.
pub const SHOWDOWN: &str = r#"{"ruleset":"hawaiian-gardens","unit":"5","dealer":2,
 "rake":{"per_seat":"0.50","jackpot":"0.10"},
 "seats":[
  {"seat":1,"stack":"200","front":"Qh Qd 7c","middle":"Js Jh Jd 2s 2h","back":"5s 5h 5d 5c Ad"},
  {"seat":2,"stack":"12","front":"2c 3d 4h","middle":"6c 7d 8h 9s Tc","back":"Ac Kc Qc Jc 9c"},
  {"seat":3,"stack":"150","front":"As Ks 3s","middle":"Kh Kd 8d 8c 3h","back":"Th Td Ts 4d 4c"},
  {"seat":4,"stack":"90","front":"6h 6d 6s","middle":"7h 7s 9h 9d 2d","back":"8s Qs 4s Ah 3c"}]}"#;

fn showdown(c: &mut Criterion) {
    let parsed = Showdown::from_json(SHOWDOWN).expect("valid showdown");
    score(&parsed).expect("scores");
    let mut group = c.benchmark_group("showdown");
    group.throughput(Throughput::Elements(1));
    group.bench_function("hawaiian-gardens 4 seats, parsed to settlement", |b| {
        b.iter(|| score(black_box(&parsed)).unwrap())
    });
    group.bench_function("hawaiian-gardens 4 seats, JSON to settlement", |b| {
        b.iter(|| pitboss::engine::score_json(black_box(SHOWDOWN)).unwrap())
    });
    group.finish();
}

fn jsonl(c: &mut Criterion) {
    let line = SHOWDOWN.replace('\n', "");
    let batch = format!("{line}\n").repeat(10_000);
    let mut group = c.benchmark_group("jsonl");
    group.throughput(Throughput::Elements(10_000));
    group.sample_size(20);
    group.bench_function("score --jsonl, 10k showdowns in memory", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(batch.len() * 4);
            pitboss::cli::score_lines(batch.as_bytes(), &mut out).unwrap();
            black_box(out.len())
        })
    });
    group.finish();
}

criterion_group!(benches, five_card, three_card, showdown, jsonl);
criterion_main!(benches);
