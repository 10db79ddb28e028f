//! House-way setter benchmarks: `house_set` on 1,000 pre-generated random
//! 13-card hands. Each iteration sets one hand (cycling through the 1,000),
//! so criterion's time per iteration is the time per hand; the batch bench
//! sets all 1,000 per iteration (throughput in hands per second).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use pitboss::engine::card::Card;
use pitboss::engine::preset;
use pitboss::engine::setter::{analyse, house_set, HouseWay};

const HANDS: usize = 1_000;

fn random_hands() -> Vec<[Card; 13]> {
    let mut rng = SmallRng::seed_from_u64(0x5e77e2);
    let mut deck: Vec<Card> = Card::deck().collect();
    (0..HANDS)
        .map(|_| {
            let (hand, _) = deck.partial_shuffle(&mut rng, 13);
            hand.try_into().unwrap()
        })
        .collect()
}

fn house_way(c: &mut Criterion) {
    let hands = random_hands();
    let mut group = c.benchmark_group("house_set");
    for name in ["hawaiian-gardens", "ofc"] {
        let rules = preset(name).unwrap();
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("{name}, per hand"), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % HANDS;
                house_set(black_box(&hands[i]), rules)
            })
        });
    }
    let way = HouseWay::new(preset("hawaiian-gardens").unwrap());
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(20);
    group.bench_function("hawaiian-gardens, 1,000 hands", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for hand in &hands {
                acc = acc.wrapping_add(way.set(black_box(hand)).strengths.middle.0 as u64);
            }
            black_box(acc)
        })
    });
    group.finish();
}

fn analysis(c: &mut Criterion) {
    let hands = random_hands();
    let mut group = c.benchmark_group("analyse");
    group.throughput(Throughput::Elements(1));
    for name in ["hawaiian-gardens", "malayan"] {
        let rules = preset(name).unwrap();
        group.bench_function(format!("{name}, setting and specials, per hand"), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % HANDS;
                analyse(black_box(&hands[i]), None, rules)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, house_way, analysis);
criterion_main!(benches);
