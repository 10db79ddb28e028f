//! Every five-card hand (2,598,960) and every three-card hand (22,100) is
//! evaluated and checked against a slow, independent reference ranking.

use std::collections::HashMap;

use pitboss::engine::card::Card;
use pitboss::engine::eval::{eval3, eval5, Category};

/// Reference: (category, significant ranks) packed so that integer order is
/// poker order. Written from RULES §2 without the engine's tables.
fn reference5(cards: &[Card; 5]) -> u32 {
    let mut counts = [0u8; 13];
    for c in cards {
        counts[c.rank() as usize] += 1;
    }
    let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
    // ranks ordered by (count desc, rank desc)
    let mut groups: Vec<(u8, u8)> =
        (0..13u8).filter(|&r| counts[r as usize] > 0).map(|r| (counts[r as usize], r)).collect();
    groups.sort_by(|a, b| b.cmp(a));
    let distinct: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let straight_top = if distinct.len() == 5 {
        let mut d = distinct.clone();
        d.sort_unstable();
        if d[4] - d[0] == 4 {
            Some(d[4])
        } else if d == [0, 1, 2, 3, 12] {
            Some(3)
        } else {
            None
        }
    } else {
        None
    };
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let (category, ranks): (u32, Vec<u8>) = match (straight_top, flush, shape.as_slice()) {
        (Some(top), true, _) => (8, vec![top]),
        (_, _, [4, 1]) => (7, distinct),
        (_, _, [3, 2]) => (6, distinct),
        (None, true, _) => (5, distinct),
        (Some(top), false, _) => (4, vec![top]),
        (_, _, [3, 1, 1]) => (3, distinct),
        (_, _, [2, 2, 1]) => (2, distinct),
        (_, _, [2, 1, 1, 1]) => (1, distinct),
        _ => (0, distinct),
    };
    let mut key = category;
    for i in 0..5 {
        key = key * 16 + ranks.get(i).map_or(0, |&r| r as u32 + 1);
    }
    key
}

fn reference3(cards: &[Card; 3]) -> u32 {
    let mut r: Vec<u32> = cards.iter().map(|c| c.rank() as u32).collect();
    r.sort_unstable_by(|a, b| b.cmp(a));
    if r[0] == r[2] {
        (3 << 12) | r[0] << 8
    } else if r[0] == r[1] {
        (1 << 12) | r[0] << 8 | r[2] << 4
    } else if r[1] == r[2] {
        (1 << 12) | r[1] << 8 | r[0] << 4
    } else {
        r[0] << 8 | r[1] << 4 | r[2]
    }
}

/// Checks that `engine` is a strictly order-preserving function of `reference`.
fn assert_same_order(pairs: &HashMap<u32, u16>) {
    let mut sorted: Vec<(u32, u16)> = pairs.iter().map(|(&r, &e)| (r, e)).collect();
    sorted.sort_unstable();
    for w in sorted.windows(2) {
        assert!(w[0].1 < w[1].1, "reference order {:x} < {:x} but engine {} >= {}", w[0].0, w[1].0, w[0].1, w[1].1);
    }
}

#[test]
fn all_five_card_hands() {
    let deck: Vec<Card> = Card::deck().collect();
    let mut per_category = [0u32; 9];
    let mut seen: HashMap<u32, u16> = HashMap::new();
    let mut total = 0u32;
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for d in c + 1..52 {
                    for e in d + 1..52 {
                        let hand = [deck[a], deck[b], deck[c], deck[d], deck[e]];
                        let s = eval5(&hand);
                        per_category[s.category() as usize] += 1;
                        let r = reference5(&hand);
                        let prev = *seen.entry(r).or_insert(s.0);
                        assert_eq!(prev, s.0, "{hand:?}: equal reference strength, different engine strength");
                        // the reference category agrees with the engine's
                        assert_eq!(r >> 20, s.category() as u32, "{hand:?}");
                        total += 1;
                    }
                }
            }
        }
    }
    assert_eq!(total, 2_598_960);
    assert_eq!(seen.len(), 7462, "distinct five-card strengths");
    assert_eq!(
        per_category,
        [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40],
        "hands per category, high card to straight flush"
    );
    assert_same_order(&seen);
    // distinct strengths per category
    let mut distinct = [0u32; 9];
    for &s in seen.values() {
        distinct[(s >> 12) as usize] += 1;
    }
    assert_eq!(distinct, [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]);
}

#[test]
fn all_three_card_hands() {
    let deck: Vec<Card> = Card::deck().collect();
    let mut per_category = [0u32; 9];
    let mut seen: HashMap<u32, u16> = HashMap::new();
    let mut total = 0;
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                let hand = [deck[a], deck[b], deck[c]];
                let s = eval3(&hand);
                // any order of the same cards gives the same strength
                assert_eq!(eval3(&[hand[2], hand[0], hand[1]]), s);
                per_category[s.category() as usize] += 1;
                let prev = *seen.entry(reference3(&hand)).or_insert(s.0);
                assert_eq!(prev, s.0, "{hand:?}");
                total += 1;
            }
        }
    }
    assert_eq!(total, 22_100);
    assert_eq!(per_category[Category::HighCard as usize], 18_304);
    assert_eq!(per_category[Category::Pair as usize], 3_744);
    assert_eq!(per_category[Category::Trips as usize], 52);
    assert_eq!(per_category.iter().sum::<u32>(), 22_100, "no other category on three cards");
    assert_eq!(seen.len(), 455, "distinct three-card strengths");
    assert_same_order(&seen);
}
