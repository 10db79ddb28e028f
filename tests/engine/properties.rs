//! Property tests for the scoring engine, against RULES.md and CONTRACT.md.
//!
//! Random showdowns are dealt from one shuffled deck (2-4 seats, 13 distinct
//! cards each) under every preset, with random stacks (zero exposure, small,
//! large), rake and jackpot part, surrenders (where the preset has them),
//! `best` claims (where the cards make a special), loose `cards`, aces-bet
//! opt-outs, fantasyland flags, pineapple discards, dealers, units and pair
//! units, and a random choice of the preset's table options (issue 14;
//! `single-winner` always gets its `winner_units`). Rows are split at random (mostly fouled) or set well (never fouled,
//! sometimes with the strongest front); some deals build dragons, six pairs,
//! one-colour/one-suit hands, three flushes/straights, or a bad-beat pair.
//! `coverage_report` (ignored) prints how often each feature is reached.
//!
//! Properties:
//!  1. listing the seats in another order changes pairs only in sign and order;
//!  2. money is conserved (sum of nets = -rake x seats; per-seat transaction sums);
//!  3. the chip bound (RULES §8): |net + rake| <= stack - rake, stack_end >= 0,
//!     0 <= paid <= owed, and the transactions replay §8 exactly;
//!  4. card notation (case, `10`/`T`, suit symbols, separators) changes nothing;
//!  5. moving the dealer changes only the settlement order;
//!  6. evaluation: eval5/eval3 invariances, agreement with a slow reference
//!     ranking, and front-against-middle against a reference written from §2;
//!  7. no panic on arbitrary strings / JSON-ish values / mutated showdowns
//!     (including money at and past the engine's limits);
//!  8. scoring is deterministic, both entry points agree, errors change
//!     nothing; every error CONTRACT.md lists is refused;
//!  9. (extra) fouls, aces, royalties for every preset, and whole pair outcomes
//!     and bad-beat triggers for `hawaiian-gardens` and `simple`, against
//!     references written from RULES.md.
//!
//! `PROPTEST_CASES=n` overrides the number of cases of every property.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use proptest::test_runner::Config;
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

use pitboss::engine::eval::front_beats_middle;
use pitboss::engine::options::TableOptions;
use pitboss::engine::ruleset::{OptionKind, Structure, Surrender};
use pitboss::engine::special::{qualifies, SetRows};
use pitboss::engine::{
    eval3, eval5, parse_cards, score, score_json, Card, Pass, ScoreResult, Showdown, ShowdownError, ShowdownInput,
    PRESETS,
};

// ---------------------------------------------------------------------------
// Configuration

/// `cases` per property; `PROPTEST_CASES` in the environment overrides it
/// (for a long soak run).
fn cfg(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    Config {
        cases,
        // Never write proptest-regressions files next to this test.
        failure_persistence: None,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------
// Random deals

const UNITS: [&str; 10] = ["1", "0.25", "2", "5", "0.10", "1.5", "0.005", "0.000001", "250000", "0"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StackMode {
    /// Zero exposure, small, and large stacks mixed.
    Mixed,
    /// Stacks so large the chip bound never bites.
    Huge,
}

#[derive(Clone, Debug)]
struct SeatDeal {
    number: u32,
    /// Card indexes (0..52): front 0..3, middle 3..8, back 8..13.
    cards: [u8; 13],
    stack_cents: u64,
    surrender: bool,
    claim: bool,
    /// Give `cards` (13 loose cards) instead of rows.
    loose: bool,
    aces_bet_off: bool,
    in_fantasyland: bool,
    discards: Vec<u8>,
}

impl SeatDeal {
    fn front(&self) -> &[u8] {
        &self.cards[..3]
    }
    fn middle(&self) -> &[u8] {
        &self.cards[3..8]
    }
    fn back(&self) -> &[u8] {
        &self.cards[8..]
    }
}

#[derive(Clone, Debug)]
struct Deal {
    preset: usize,
    unit: &'static str,
    /// Index into `seats`.
    dealer: usize,
    rake_cents: u64,
    jackpot_cents: u64,
    pair_units: Vec<(u32, u32, &'static str)>,
    /// Write `ruleset` and `dealer` even where they are the defaults.
    explicit: bool,
    /// The table options given (`None`: no `options` field).
    options: Option<Value>,
    seats: Vec<SeatDeal>,
}

#[derive(Clone, Debug)]
struct SeatRaw {
    stack_kind: u8,
    small_cents: u64,
    large_units: u64,
    surrender: bool,
    want_claim: bool,
    loose: bool,
    aces_off: bool,
    fantasyland: bool,
    n_discards: usize,
    /// 0-2: set well (best back, then best middle); 3-4: set with the
    /// strongest front that does not foul; otherwise rows at random.
    arrange: u8,
}

fn seat_raw() -> impl Strategy<Value = SeatRaw> {
    (
        0u8..4,
        0u64..=2000,
        100u64..=100_000,
        prop::bool::weighted(0.2),
        prop::bool::weighted(0.85),
        any::<bool>(),
        prop::bool::weighted(0.2),
        any::<bool>(),
        0usize..=3,
        0u8..10,
    )
        .prop_map(
            |(
                stack_kind,
                small_cents,
                large_units,
                surrender,
                want_claim,
                loose,
                aces_off,
                fantasyland,
                n_discards,
                arrange,
            )| SeatRaw {
                stack_kind,
                small_cents,
                large_units,
                surrender,
                want_claim,
                loose,
                aces_off,
                fantasyland,
                n_discards,
                arrange,
            },
        )
}

fn card(i: u8) -> Card {
    Card::from_index(i).expect("card index below 52")
}

fn cards13(c: &[u8; 13]) -> [Card; 13] {
    c.map(card)
}

/// A hand of 13 that makes a special (most presets have some of them), taken
/// from the shuffled deck so its row split stays random; `None`: deal plainly.
fn special_hand(mode: u8, deck: &[u8]) -> Option<Vec<u8>> {
    let mut chosen: BTreeSet<u8> = BTreeSet::new();
    match mode {
        // dragon: the first card of each rank
        0 => {
            let mut seen = [false; 13];
            for &c in deck {
                if !seen[(c / 4) as usize] {
                    seen[(c / 4) as usize] = true;
                    chosen.insert(c);
                }
            }
        }
        // six pairs and an odd card
        1 => {
            let mut pending: [Option<u8>; 13] = [None; 13];
            let mut pairs = 0;
            for &c in deck {
                if pairs == 6 {
                    break;
                }
                let r = (c / 4) as usize;
                match pending[r].take() {
                    Some(other) => {
                        chosen.insert(other);
                        chosen.insert(c);
                        pairs += 1;
                    }
                    None => pending[r] = Some(c),
                }
            }
            let odd = *deck.iter().find(|c| !chosen.contains(c))?;
            chosen.insert(odd);
        }
        // all one colour
        2 => {
            let red = card(deck[0]).is_red();
            chosen.extend(deck.iter().filter(|&&c| card(c).is_red() == red).take(13));
        }
        // twelve of one colour and one of the other
        3 => {
            let red = card(deck[0]).is_red();
            chosen.extend(deck.iter().filter(|&&c| card(c).is_red() == red).take(12));
            chosen.extend(deck.iter().filter(|&&c| card(c).is_red() != red).take(1));
        }
        // one suit
        4 => {
            let suit = deck[0] % 4;
            chosen.extend(deck.iter().filter(|&&c| c % 4 == suit));
        }
        // three flushes: rows of one suit each (kept in row order below)
        5 => {
            let suits = [deck[0] % 4, deck[1] % 4, deck[2] % 4];
            let mut hand = Vec::new();
            for (k, len) in [3usize, 5, 5].into_iter().enumerate() {
                let row: Vec<u8> =
                    deck.iter().copied().filter(|&c| c % 4 == suits[k] && !hand.contains(&c)).take(len).collect();
                hand.extend(row);
            }
            return (hand.len() == 13).then_some(hand);
        }
        // three straights: a three-card straight and two five-card straights
        6 => {
            let tops = [1 + deck[0] % 12, 3 + deck[1] % 10, 3 + deck[2] % 10];
            let mut hand: Vec<u8> = Vec::new();
            for (k, len) in [3u8, 5, 5].into_iter().enumerate() {
                for j in 0..len {
                    // below the deuce comes the ace (A 2 3, A 2 3 4 5)
                    let rank = if j > tops[k] { 12 } else { tops[k] - j };
                    let c = deck.iter().copied().find(|&c| c / 4 == rank && !hand.contains(&c))?;
                    hand.push(c);
                }
            }
            return Some(hand);
        }
        _ => return None,
    }
    assert_eq!(chosen.len(), 13);
    Some(deck.iter().copied().filter(|c| chosen.contains(c)).collect())
}

/// Two hands for a bad beat (RULES §5.1): the first has a straight flush
/// back, trips in the middle and a pair in front, and the second tries to
/// beat it in every row. Rows in order front, middle, back.
fn bad_beat_hands(deck: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut pool: Vec<u8> = deck.to_vec();
    let mut take = |rank: u8, suit: Option<u8>| -> Option<u8> {
        let i = pool.iter().position(|&c| c / 4 == rank && suit.is_none_or(|s| c % 4 == s))?;
        Some(pool.remove(i))
    };
    let s1 = deck[0] % 4;
    let s2 = if deck[1] % 4 == s1 { (s1 + 1) % 4 } else { deck[1] % 4 };
    let t0 = 3 + deck[2] % 8; // 5-high to queen-high
    let t1 = t0 + 1 + deck[3] % (12 - t0);
    let a = deck[4] % 11; // trips ranks a < b
    let b = a + 1 + deck[5] % (12 - a);
    let c = deck[6] % 11; // pair ranks c < d
    let d = c + 1 + deck[7] % (12 - c);
    let mut sf =
        |t: u8, s: u8| -> Option<Vec<u8>> { (0..5u8).map(|j| take(if j > t { 12 } else { t - j }, Some(s))).collect() };
    let back0 = sf(t0, s1)?;
    let back1 = sf(t1, s2)?;
    let mut middle0: Vec<u8> = (0..3).map(|_| take(a, None)).collect::<Option<_>>()?;
    let mut middle1: Vec<u8> = (0..3).map(|_| take(b, None)).collect::<Option<_>>()?;
    let mut front0: Vec<u8> = (0..2).map(|_| take(c, None)).collect::<Option<_>>()?;
    let mut front1: Vec<u8> = (0..2).map(|_| take(d, None)).collect::<Option<_>>()?;
    middle0.extend(pool.drain(..2));
    middle1.extend(pool.drain(..2));
    front0.extend(pool.drain(..1));
    front1.extend(pool.drain(..1));
    let h0 = [front0, middle0, back0].concat();
    let h1 = [front1, middle1, back1].concat();
    Some((h0, h1))
}

/// Every way to choose `k` of `n` positions.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(0, n, k, &mut Vec::new(), &mut out);
    out
}

fn split(cards: &[u8], pick: &[usize]) -> (Vec<u8>, Vec<u8>) {
    let chosen: Vec<u8> = pick.iter().map(|&i| cards[i]).collect();
    let rest: Vec<u8> = (0..cards.len()).filter(|i| !pick.contains(i)).map(|i| cards[i]).collect();
    (chosen, rest)
}

/// A setting that never fouls: the best back, then (`strong_front`) the
/// strongest front that does not beat the middle, or the best middle.
fn arrange(cards: &[u8; 13], strong_front: bool) -> [u8; 13] {
    use std::sync::OnceLock;
    static C13_5: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    static C8_5: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    static C8_3: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    let best = C13_5
        .get_or_init(|| combinations(13, 5))
        .iter()
        .max_by_key(|p| eval5(&[p[0], p[1], p[2], p[3], p[4]].map(|i| card(cards[i]))))
        .unwrap();
    let (back, rest) = split(cards, best);
    let (front, middle) = if strong_front {
        C8_3.get_or_init(|| combinations(8, 3))
            .iter()
            .map(|p| split(&rest, p))
            .filter(|(f, m)| {
                eval5(&arr5(m)) <= eval5(&arr5(&back)) && !front_beats_middle(eval3(&arr3(f)), eval5(&arr5(m)))
            })
            .max_by_key(|(f, _)| eval3(&arr3(f)))
            .unwrap()
    } else {
        let (m, f) = C8_5
            .get_or_init(|| combinations(8, 5))
            .iter()
            .map(|p| split(&rest, p))
            .max_by_key(|(m, _)| eval5(&arr5(m)))
            .unwrap();
        (f, m)
    };
    [front, middle, back].concat().try_into().unwrap()
}

type DealTuple = (
    usize,
    usize,
    Vec<u8>,
    Vec<u32>,
    u8,
    Vec<SeatRaw>,
    usize,
    u64,
    u64,
    usize,
    Vec<(usize, usize, usize)>,
    (bool, u32),
);

/// A random choice of the preset's seed-004 options (bit `i` of `bits` sets
/// its `i`-th option); `single-winner` always gets its `winner_units`. The
/// open-face options and the presets checked against references
/// (`hawaiian-gardens`, `simple`) get none.
fn random_options(rules: &pitboss::engine::Ruleset, bits: u32) -> Option<Value> {
    let mut map = Map::new();
    for (i, kind) in rules.options.iter().enumerate() {
        let on = bits & (1 << i) != 0;
        let value = match kind {
            OptionKind::WinnerUnits => json!(1 + bits % 4),
            _ if ["hawaiian-gardens", "simple"].contains(&rules.name) || rules.fantasyland.is_some() => continue,
            OptionKind::SweepBonus if on => json!(if bits & (1 << 20) != 0 { 3 } else { 1 }),
            OptionKind::NoPictures if on => json!(1 + (bits >> 21) % 20),
            OptionKind::AceOfSpadesDeals => continue,
            _ if on => json!(true),
            _ => continue,
        };
        map.insert(kind.name().to_string(), value);
    }
    (!map.is_empty() || bits & (1 << 30) != 0).then_some(Value::Object(map))
}

fn build_deal(mode: StackMode, t: DealTuple) -> Deal {
    let (preset, n, mut deck, numbers, special_mode, raws, dealer, rake, jp_pct, unit, pus, (explicit, bits)) = t;
    let rules = &PRESETS[preset];
    let options = random_options(rules, bits);
    let table = TableOptions::from_json(options.as_ref().unwrap_or(&Value::Null), rules).unwrap();
    let specials = table.specials(rules);
    // Pineapple: 17 cards a seat, so at most 3 from one deck (seed 002).
    let n = if rules.discards { n.min(3) } else { n };
    let mut hands: Vec<Vec<u8>> = Vec::new();
    let mut fixed = 0;
    if special_mode >= 14 {
        if let Some((h0, h1)) = bad_beat_hands(&deck) {
            deck.retain(|c| !h0.contains(c) && !h1.contains(c));
            hands.push(h0);
            hands.push(h1);
            fixed = 2;
        }
    } else if let Some(h) = special_hand(special_mode, &deck) {
        deck.retain(|c| !h.contains(c));
        hands.push(h);
        fixed = usize::from(special_mode >= 5);
    }
    while hands.len() < n {
        hands.push(deck.drain(..13).collect());
    }
    let jackpot = rake * jp_pct / 100;
    let mut seats = Vec::with_capacity(n);
    for (i, h) in hands.into_iter().enumerate() {
        let r = &raws[i];
        let mut cards: [u8; 13] = h.try_into().unwrap();
        if i >= fixed && r.arrange < 5 {
            cards = arrange(&cards, r.arrange >= 3);
        }
        let all = cards13(&cards);
        let claimable_loose = specials.iter().any(|(k, _)| !k.needs_rows() && qualifies(*k, &all, None));
        let rows = SetRows {
            front: &[all[0], all[1], all[2]],
            middle: &[all[3], all[4], all[5], all[6], all[7]],
            back: &[all[8], all[9], all[10], all[11], all[12]],
            front_strength: eval3(&[all[0], all[1], all[2]]),
            middle_strength: eval5(&[all[3], all[4], all[5], all[6], all[7]]),
            back_strength: eval5(&[all[8], all[9], all[10], all[11], all[12]]),
        };
        let claimable = specials.iter().any(|(k, _)| qualifies(*k, &all, Some(&rows)));
        let claim = r.want_claim && claimable;
        let surrender = !claim && r.surrender && table.surrender(rules) != Surrender::NotAllowed;
        let loose = r.loose && ((claim && claimable_loose) || surrender);
        let stack_cents = match mode {
            StackMode::Huge => rake + 99_990_000_000_000, // just under 1e12 units
            StackMode::Mixed => match r.stack_kind {
                0 => rake,
                1 => rake + r.small_cents,
                _ => rake + r.large_units * 100,
            },
        };
        let discards = if rules.discards {
            let k = r.n_discards.min(deck.len());
            deck.drain(..k).collect()
        } else {
            Vec::new()
        };
        seats.push(SeatDeal {
            number: numbers[i],
            cards,
            stack_cents,
            surrender,
            claim,
            loose,
            aces_bet_off: rules.aces_bet && r.aces_off,
            in_fantasyland: rules.fantasyland.is_some() && r.fantasyland,
            discards,
        });
    }
    let mut pair_units: Vec<(u32, u32, &'static str)> = Vec::new();
    let mut used = BTreeSet::new();
    for (a, b, u) in pus {
        let (a, b) = (a % n, b % n);
        if a == b || !used.insert((a.min(b), a.max(b))) {
            continue;
        }
        pair_units.push((seats[a].number, seats[b].number, UNITS[u]));
    }
    Deal {
        preset,
        unit: UNITS[unit],
        dealer: dealer % n,
        rake_cents: rake,
        jackpot_cents: jackpot,
        pair_units,
        explicit,
        options,
        seats,
    }
}

fn deal_strategy(mode: StackMode) -> impl Strategy<Value = Deal> {
    deal_strategy_in(mode, (0..PRESETS.len()).collect())
}

/// Deals under one of the presets whose indexes are given.
fn deal_strategy_in(mode: StackMode, presets: Vec<usize>) -> impl Strategy<Value = Deal> {
    (
        prop::sample::select(presets),
        2usize..=4,
        Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(),
        Just((1u32..=9).collect::<Vec<u32>>()).prop_shuffle(),
        0u8..17,
        prop::collection::vec(seat_raw(), 4),
        0usize..4,
        prop_oneof![Just(0u64), 0u64..=300],
        0u64..=100,
        0usize..UNITS.len(),
        prop::collection::vec((0usize..4, 0usize..4, 0usize..UNITS.len()), 0..=2),
        (any::<bool>(), any::<u32>()),
    )
        .prop_map(move |t| build_deal(mode, t))
}

fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

fn dec(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn cents(c: u64) -> Decimal {
    Decimal::new(c as i64, 2)
}

// ---------------------------------------------------------------------------
// Writing a deal as JSON, in any notation

const SEPARATORS: [&str; 7] = [" ", ",", ", ", "   ", "\t", " , ", "\n"];
const SUIT_SYMBOLS: [char; 4] = ['♠', '♥', '♦', '♣'];

/// How cards are written: per-card variants and separators, cycled.
#[derive(Clone, Debug)]
struct Notation {
    variants: Vec<u8>,
    seps: Vec<usize>,
    pad: bool,
}

fn notation_strategy() -> impl Strategy<Value = Notation> {
    (prop::collection::vec(any::<u8>(), 1..24), prop::collection::vec(0..SEPARATORS.len(), 1..24), any::<bool>())
        .prop_map(|(variants, seps, pad)| Notation { variants, seps, pad })
}

fn write_card(c: u8, v: u8) -> String {
    let c = card(c);
    let canonical = c.to_string();
    let mut chars = canonical.chars();
    let rank = chars.next().unwrap();
    let suit = chars.next().unwrap();
    let rank_text = if rank == 'T' && v & 1 == 1 {
        "10".to_string()
    } else if rank.is_ascii_alphabetic() && v & 2 == 2 {
        rank.to_ascii_lowercase().to_string()
    } else {
        rank.to_string()
    };
    let suit_text = match (v >> 2) & 3 {
        1 => suit.to_ascii_uppercase(),
        2 => SUIT_SYMBOLS[(c.index() % 4) as usize],
        _ => suit,
    };
    format!("{rank_text}{suit_text}")
}

fn cards_text(cards: &[u8], notation: Option<&Notation>, salt: usize) -> String {
    match notation {
        None => cards.iter().map(|&c| card(c).to_string()).collect::<Vec<_>>().join(" "),
        Some(n) => {
            let mut s = String::new();
            if n.pad {
                s.push(' ');
            }
            for (i, &c) in cards.iter().enumerate() {
                if i > 0 {
                    s.push_str(SEPARATORS[n.seps[(salt + i) % n.seps.len()]]);
                }
                s.push_str(&write_card(c, n.variants[(salt * 7 + i) % n.variants.len()]));
            }
            if n.pad {
                s.push_str(" \t");
            }
            s
        }
    }
}

impl Deal {
    fn rules(&self) -> &'static pitboss::engine::Ruleset {
        &PRESETS[self.preset]
    }

    fn identity(&self) -> Vec<usize> {
        (0..self.seats.len()).collect()
    }

    fn dealer_number(&self) -> u32 {
        self.seats[self.dealer].number
    }

    /// The showdown as listed by `order` (indexes into `seats`), with the
    /// dealer given as `dealer` (or left to the default where allowed).
    fn json_with(&self, order: &[usize], dealer: Option<u32>, notation: Option<&Notation>) -> Value {
        let mut top = Map::new();
        if self.preset != 0 || self.explicit {
            top.insert("ruleset".into(), json!(self.rules().name));
        }
        if self.unit != "1" || self.explicit {
            top.insert("unit".into(), json!(self.unit));
        }
        if let Some(d) = dealer {
            top.insert("dealer".into(), json!(d));
        }
        if self.rake_cents > 0 || self.explicit {
            top.insert(
                "rake".into(),
                json!({"per_seat": money(self.rake_cents), "jackpot": money(self.jackpot_cents)}),
            );
        }
        if !self.pair_units.is_empty() {
            let list: Vec<Value> =
                self.pair_units.iter().map(|&(a, b, u)| json!({"seats": [a, b], "unit": u})).collect();
            top.insert("pair_units".into(), Value::Array(list));
        }
        let seats: Vec<Value> = order
            .iter()
            .map(|&i| {
                let s = &self.seats[i];
                let salt = s.number as usize * 3;
                let mut o = Map::new();
                o.insert("seat".into(), json!(s.number));
                o.insert("stack".into(), json!(money(s.stack_cents)));
                if s.loose {
                    o.insert("cards".into(), json!(cards_text(&s.cards, notation, salt)));
                } else {
                    o.insert("front".into(), json!(cards_text(s.front(), notation, salt)));
                    o.insert("middle".into(), json!(cards_text(s.middle(), notation, salt + 1)));
                    o.insert("back".into(), json!(cards_text(s.back(), notation, salt + 2)));
                }
                if s.surrender {
                    o.insert("surrender".into(), json!(true));
                }
                if s.claim {
                    o.insert("claim".into(), json!("best"));
                }
                if s.aces_bet_off {
                    o.insert("aces_bet".into(), json!(false));
                }
                if s.in_fantasyland {
                    o.insert("in_fantasyland".into(), json!(true));
                }
                if !s.discards.is_empty() {
                    o.insert("discards".into(), json!(cards_text(&s.discards, notation, salt + 5)));
                }
                Value::Object(o)
            })
            .collect();
        top.insert("seats".into(), Value::Array(seats));
        if let Some(options) = &self.options {
            top.insert("options".into(), options.clone());
        }
        Value::Object(top)
    }

    /// The showdown in its own order and notation.
    fn json(&self) -> Value {
        let dealer = (self.explicit || self.dealer != 0).then(|| self.dealer_number());
        self.json_with(&self.identity(), dealer, None)
    }

    fn unit_for(&self, a: u32, b: u32) -> Decimal {
        self.pair_units
            .iter()
            .find(|&&(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a))
            .map_or(dec(self.unit), |p| dec(p.2))
    }

    fn seat(&self, number: u32) -> &SeatDeal {
        self.seats.iter().find(|s| s.number == number).unwrap()
    }
}

fn score_ok(v: &Value) -> Result<ScoreResult, TestCaseError> {
    let text = v.to_string();
    match score_json(&text) {
        Ok(r) => Ok(r),
        Err(e) => Err(TestCaseError::fail(format!("a valid showdown was refused: {e}\ninput: {text}"))),
    }
}

// ---------------------------------------------------------------------------
// Views of a result

/// Units by unordered pair: what the higher-numbered seat owes the lower one.
fn pair_map(r: &ScoreResult) -> BTreeMap<(u32, u32), (i64, i64)> {
    r.pairs
        .iter()
        .map(|p| {
            let [e, l] = p.seats;
            if e < l {
                ((e, l), (p.special_units, p.main_units))
            } else {
                ((l, e), (-p.special_units, -p.main_units))
            }
        })
        .collect()
}

type SeatFacts = (bool, bool, Option<&'static str>, u8, i64, bool, Decimal, Decimal, Option<String>);

/// Everything about a seat that does not depend on settlement order.
fn seat_facts(r: &ScoreResult) -> BTreeMap<u32, SeatFacts> {
    r.seats
        .iter()
        .map(|s| {
            (
                s.seat,
                (
                    s.fouled,
                    s.surrendered,
                    s.special,
                    s.aces,
                    s.royalties,
                    s.fantasyland_next,
                    s.stack_start,
                    s.rake,
                    s.foul_reason.clone(),
                ),
            )
        })
        .collect()
}

fn nets(r: &ScoreResult) -> BTreeMap<u32, Decimal> {
    r.seats.iter().map(|s| (s.seat, s.net)).collect()
}

fn triggers(r: &ScoreResult) -> BTreeSet<(String, u32, u32)> {
    r.jackpot_triggers.iter().map(|t| (t.kind.to_string(), t.loser, t.winner)).collect()
}

fn capped(r: &ScoreResult) -> bool {
    r.transactions.iter().any(|t| t.paid < t.owed)
}

/// Property 2 on one result.
fn check_conservation(deal: &Deal, r: &ScoreResult, input: &Value) -> Result<(), TestCaseError> {
    let n = r.seats.len();
    let rake = cents(deal.rake_cents);
    let total_net: Decimal = r.seats.iter().map(|s| s.net).sum();
    prop_assert_eq!(total_net, -rake * Decimal::from(n as u32), "sum of nets is not -rake x seats\ninput: {}", input);
    let total_change: Decimal = r.seats.iter().map(|s| s.stack_end - s.stack_start).sum();
    prop_assert_eq!(total_change + rake * Decimal::from(n as u32), Decimal::ZERO);
    for s in &r.seats {
        prop_assert_eq!(s.net, s.stack_end - s.stack_start, "net != stack_end - stack_start");
        prop_assert_eq!(s.rake, rake);
        let received: Decimal = r.transactions.iter().filter(|t| t.payee == s.seat).map(|t| t.paid).sum();
        let paid: Decimal = r.transactions.iter().filter(|t| t.payer == s.seat).map(|t| t.paid).sum();
        prop_assert_eq!(
            received - paid,
            s.net + rake,
            "seat {}: transactions do not add up to its net + rake\ninput: {}",
            s.seat,
            input
        );
    }
    prop_assert_eq!(r.jackpot_contribution, cents(deal.jackpot_cents) * Decimal::from(n as u32));
    Ok(())
}

/// Pairs in settlement order for seats listed as `order`, dealer first.
fn expected_pair_order(numbers: &[u32], dealer: u32) -> Vec<[u32; 2]> {
    let n = numbers.len();
    let d = numbers.iter().position(|&x| x == dealer).unwrap();
    let order: Vec<u32> = (0..n).map(|k| numbers[(d + k) % n]).collect();
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            out.push([order[a], order[b]]);
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Slow reference evaluation, written from RULES §2

/// (category as in the engine's ladder, ranks in order of significance).
fn ref5(cards: &[u8]) -> (u8, Vec<u8>) {
    assert_eq!(cards.len(), 5);
    let mut counts = [0u8; 13];
    for &c in cards {
        counts[(c / 4) as usize] += 1;
    }
    let flush = cards.iter().all(|&c| c % 4 == cards[0] % 4);
    let mut groups: Vec<(u8, u8)> =
        (0..13u8).filter(|&r| counts[r as usize] > 0).map(|r| (counts[r as usize], r)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let mut desc: Vec<u8> = cards.iter().map(|&c| c / 4).collect();
    desc.sort_unstable_by(|a, b| b.cmp(a));
    let straight = if groups.len() == 5 {
        if desc[0] - desc[4] == 4 {
            Some(desc[0])
        } else if desc == [12, 3, 2, 1, 0] {
            Some(3)
        } else {
            None
        }
    } else {
        None
    };
    let g: Vec<u8> = groups.iter().map(|x| x.1).collect();
    match (straight, flush, groups[0].0, groups.get(1).map_or(0, |x| x.0)) {
        (Some(top), true, _, _) => (8, vec![top]),
        (_, _, 4, _) => (7, g),
        (_, _, 3, 2) => (6, g),
        (_, true, _, _) => (5, desc),
        (Some(top), false, _, _) => (4, vec![top]),
        (_, _, 3, _) => (3, g),
        (_, _, 2, 2) => (2, g),
        (_, _, 2, _) => (1, g),
        _ => (0, desc),
    }
}

/// Three-card front: only trips (3), pair (1) and high card (0).
fn ref3(cards: &[u8]) -> (u8, Vec<u8>) {
    assert_eq!(cards.len(), 3);
    let mut r: Vec<u8> = cards.iter().map(|&c| c / 4).collect();
    r.sort_unstable_by(|a, b| b.cmp(a));
    if r[0] == r[2] {
        (3, vec![r[0]])
    } else if r[0] == r[1] {
        (1, vec![r[0], r[2]])
    } else if r[1] == r[2] {
        (1, vec![r[1], r[0]])
    } else {
        (0, r)
    }
}

/// RULES §2, front against middle: category first; in the same category only
/// as many ranks as the front has.
fn ref_front_beats_middle(front: &[u8], middle: &[u8]) -> bool {
    let (fc, fr) = ref3(front);
    let (mc, mr) = ref5(middle);
    if fc != mc {
        return fc > mc;
    }
    match fc {
        3 => fr[0] > mr[0],
        // pair rank, then the front's kicker against the middle's highest kicker
        1 => (fr[0], fr[1]) > (mr[0], mr[1]),
        // three ranks against the middle's three highest
        _ => fr[..3] > mr[..3],
    }
}

fn ref_fouled(s: &SeatDeal) -> bool {
    ref5(s.back()) < ref5(s.middle()) || ref_front_beats_middle(s.front(), s.middle())
}

fn arr5(c: &[u8]) -> [Card; 5] {
    [card(c[0]), card(c[1]), card(c[2]), card(c[3]), card(c[4])]
}

fn arr3(c: &[u8]) -> [Card; 3] {
    [card(c[0]), card(c[1]), card(c[2])]
}

/// Five distinct cards, often from a narrow window of ranks and suits so
/// that every category shows up.
fn hand_strategy(k: usize) -> impl Strategy<Value = Vec<u8>> {
    (2u8..=13, 1u8..=4, 0u8..13, any::<bool>()).prop_flat_map(move |(width, suits, lo, narrow)| {
        let pool: Vec<u8> = if narrow && (width as usize) * (suits as usize) >= k {
            (0..52u8).filter(|c| (c / 4 + 13 - lo) % 13 < width && c % 4 < suits).collect()
        } else {
            (0..52).collect()
        };
        prop::sample::subsequence(pool, k).prop_shuffle()
    })
}

// ---------------------------------------------------------------------------
// Reference scoring for hawaiian-gardens and simple (RULES §3-§5)

/// Qualifying hawaiian-gardens specials, in table order, with values.
fn ref_hg_specials(s: &SeatDeal) -> Vec<(&'static str, i64)> {
    let all = &s.cards;
    let mut counts = [0u8; 13];
    for &c in all {
        counts[(c / 4) as usize] += 1;
    }
    let reds = all.iter().filter(|&&c| matches!(c % 4, 1 | 2)).count();
    let rows = !s.loose;
    let front_straight = {
        let mut r: Vec<u8> = s.front().iter().map(|c| c / 4).collect();
        r.sort_unstable();
        (r[0] + 1 == r[1] && r[1] + 1 == r[2]) || r == [0, 1, 12]
    };
    let front_suited = s.front().iter().all(|&c| c % 4 == s.front()[0] % 4);
    let (mc, bc) = (ref5(s.middle()).0, ref5(s.back()).0);
    let mut out = Vec::new();
    if rows && matches!(mc, 4 | 8) && matches!(bc, 4 | 8) && front_straight {
        out.push(("three-straights", 4));
    }
    if rows && matches!(mc, 5 | 8) && matches!(bc, 5 | 8) && front_suited {
        out.push(("three-flushes", 4));
    }
    if reds == 12 || reds == 1 {
        out.push(("twelve-one-color", 4));
    }
    if counts.iter().map(|&c| c / 2).sum::<u8>() == 6 {
        out.push(("six-pairs", 4));
    }
    if reds == 13 || reds == 0 {
        out.push(("all-one-color", 6));
    }
    if counts.iter().all(|&c| c == 1) {
        out.push(("dragon", 13));
    }
    if all.iter().all(|&c| c % 4 == all[0] % 4) {
        out.push(("one-suit", 39));
    }
    out
}

/// RULES §6 `best`: the highest value, and among equal values the later one.
fn ref_best(list: &[(&'static str, i64)]) -> Option<(&'static str, i64)> {
    let mut best: Option<(&'static str, i64)> = None;
    for &(k, v) in list {
        if best.is_none_or(|(_, bv)| v >= bv) {
            best = Some((k, v));
        }
    }
    best
}

#[derive(Clone, Debug)]
struct RefSeat {
    number: u32,
    fouled: bool,
    surrendered: bool,
    special: Option<(&'static str, i64)>,
    aces: usize,
    aces_bet: bool,
    rows: Option<[(u8, Vec<u8>); 3]>,
}

fn ref_seat(deal: &Deal, s: &SeatDeal) -> RefSeat {
    let rules = deal.rules();
    let special = if s.claim && rules.name == "hawaiian-gardens" { ref_best(&ref_hg_specials(s)) } else { None };
    let ofc_foul = s.surrender && rules.surrender == Surrender::DeclaredFoul;
    let fouled = ofc_foul || (!s.loose && !s.surrender && !s.claim && ref_fouled(s));
    RefSeat {
        number: s.number,
        fouled,
        surrendered: s.surrender,
        special,
        aces: s.cards.iter().filter(|&&c| c / 4 == 12).count(),
        aces_bet: rules.aces_bet && !s.aces_bet_off,
        rows: (!s.loose).then(|| [(ref3(s.front()).0, ref3(s.front()).1), ref5(s.middle()), ref5(s.back())]),
    }
}

/// Row results of p against q, or None when both are fouled.
fn ref_rows(p: &RefSeat, q: &RefSeat) -> Option<[i64; 3]> {
    match (p.fouled, q.fouled) {
        (true, true) => None,
        (true, false) => Some([-1; 3]),
        (false, true) => Some([1; 3]),
        _ => {
            let (a, b) = (p.rows.as_ref()?, q.rows.as_ref()?);
            Some([0, 1, 2].map(|i| a[i].cmp(&b[i]) as i64))
        }
    }
}

fn hg_normal(p: &RefSeat, q: &RefSeat) -> bool {
    p.special.is_none() && q.special.is_none() && !p.surrendered && !q.surrendered
}

const ACES_VALUES: [i64; 5] = [0, 1, 2, 6, 8];

/// Row category of a winning row, for the hawaiian-gardens bonus table.
fn hg_bonus(row: usize, cat: u8) -> i64 {
    match (row, cat) {
        (0, 3) => 3,
        (1, 6) => 2,
        (1, 7) => 8,
        (1, 8) => 10,
        (2, 7) => 4,
        (2, 8) => 5,
        _ => 0,
    }
}

/// Expected (special, main) units for each pair of `r`, and triggers.
/// Pair units (special, main) and bad-beat triggers (loser, winner).
type RefOutcome = (Vec<(i64, i64)>, Vec<(u32, u32)>);

fn ref_hg(seats: &BTreeMap<u32, RefSeat>, r: &ScoreResult) -> RefOutcome {
    // Sweep of the table
    let table_sweep: BTreeMap<u32, bool> = seats
        .values()
        .map(|s| {
            let opps: Vec<&RefSeat> = seats.values().filter(|o| o.number != s.number && hg_normal(s, o)).collect();
            let swept = opps.iter().filter(|o| ref_rows(s, o) == Some([1; 3])).count();
            (s.number, opps.len() >= 2 && swept == opps.len())
        })
        .collect();
    let mut out = Vec::new();
    let mut trig = Vec::new();
    for pr in &r.pairs {
        let (p, q) = (&seats[&pr.seats[0]], &seats[&pr.seats[1]]);
        let mut special = 0;
        let mut main = 0;
        if p.special.is_some() || q.special.is_some() {
            special = p.special.map_or(0, |x| x.1) - q.special.map_or(0, |x| x.1);
        } else if p.surrendered || q.surrendered {
            main = match (p.surrendered, q.surrendered) {
                (true, false) => -3,
                (false, true) => 3,
                _ => 0,
            };
        } else if let Some(rows) = ref_rows(p, q) {
            let wp = rows.iter().filter(|&&x| x == 1).count();
            let wq = rows.iter().filter(|&&x| x == -1).count();
            main += if wp == 3 {
                if table_sweep[&p.number] {
                    9
                } else {
                    6
                }
            } else if wq == 3 {
                if table_sweep[&q.number] {
                    -9
                } else {
                    -6
                }
            } else {
                (wp as i64 - wq as i64).signum()
            };
            for (row, &res) in rows.iter().enumerate() {
                let winner = match res {
                    1 => p,
                    -1 => q,
                    _ => continue,
                };
                let cat = winner.rows.as_ref().map_or(0, |w| w[row].0);
                main += res * hg_bonus(row, cat);
            }
            let bad_beat =
                |s: &RefSeat| !s.fouled && s.rows.as_ref().is_some_and(|w| w[2].0 == 8 && w[1].0 >= 3 && w[0].0 >= 1);
            if rows == [-1; 3] && bad_beat(p) {
                trig.push((p.number, q.number));
            }
            if rows == [1; 3] && bad_beat(q) {
                trig.push((q.number, p.number));
            }
        }
        if p.aces_bet && q.aces_bet {
            main += ACES_VALUES[p.aces] - ACES_VALUES[q.aces];
        }
        out.push((special, main));
    }
    (out, trig)
}

fn ref_simple(seats: &BTreeMap<u32, RefSeat>, r: &ScoreResult) -> Vec<(i64, i64)> {
    r.pairs
        .iter()
        .map(|pr| {
            let (p, q) = (&seats[&pr.seats[0]], &seats[&pr.seats[1]]);
            let main = match (p.surrendered, q.surrendered) {
                (true, false) => -1,
                (false, true) => 1,
                (true, true) => 0,
                _ => ref_rows(p, q).map_or(0, |rows| rows.iter().sum()),
            };
            (0, main)
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Junk input for the no-panic properties

const PRESET_NAMES: [&str; 14] = [
    "hawaiian-gardens",
    "simple",
    "typical",
    "ofc",
    "ofc-pineapple",
    "two-four",
    "sweep-bonus",
    "irrespective",
    "singapore",
    "vietnamese",
    "malayan",
    "banker",
    "pool",
    "single-winner",
];

fn junk_money() -> impl Strategy<Value = Value> {
    prop_oneof![
        "-?[0-9]{0,30}(\\.[0-9]{0,30})?".prop_map(Value::from),
        "-?[0-9]{1,4}(\\.[0-9]{1,4})?[eE][-+]?[0-9]{1,12}".prop_map(Value::from),
        " ?[0-9.,eE+-]{0,12} ?".prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (0u64..1000).prop_map(Value::from),
        Just(json!("79228162514264337593543950335")),
        Just(json!("79228162514264337593543950")),
        Just(json!("0.0000000000000000000000000001")),
        Just(json!("-0")),
        Just(json!(1e28)),
        Just(Value::Null),
        Just(json!(true)),
        Just(json!([])),
    ]
}

fn junk_card_text() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        "(10|[2-9TJQKAtjqka1]|[0-9]{1,3})[shdcSHDC♠♥♦♣♤♡♢♧xX]",
        "[\\PC]{0,4}",
        (0u8..52).prop_map(|c| card(c).to_string()),
    ];
    prop_oneof![
        prop::collection::vec((token, prop::sample::select(SEPARATORS.to_vec())), 0..16)
            .prop_map(|v| { v.into_iter().map(|(t, s)| format!("{t}{s}")).collect::<String>() }),
        "[0-9AKQJTakqjt ,shdcSHDC♠♥♦♣\\t]{0,60}",
        "\\PC{0,40}",
        any::<String>(),
    ]
}

fn junk_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        junk_money(),
        junk_card_text().prop_map(Value::from),
        prop::sample::select(PRESET_NAMES.to_vec()).prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        (-3i64..12).prop_map(Value::from),
        prop::sample::select(vec!["best", "dragon", "six-pairs", "one-suit", "three-flushes", "x"])
            .prop_map(Value::from),
    ]
}

fn junk_value() -> impl Strategy<Value = Value> {
    junk_leaf().prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,10}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

const TOP_KEYS: [&str; 7] = ["ruleset", "unit", "dealer", "rake", "pair_units", "seats", "bogus"];
const SEAT_KEYS: [&str; 12] = [
    "seat",
    "stack",
    "front",
    "middle",
    "back",
    "cards",
    "surrender",
    "claim",
    "aces_bet",
    "in_fantasyland",
    "discards",
    "zzz",
];

fn seat_junk() -> impl Strategy<Value = Value> {
    (
        prop_oneof![(0u32..10).prop_map(Value::from), junk_leaf()],
        prop::option::of(junk_money()),
        prop::option::of(junk_card_text()),
        prop::option::of(junk_card_text()),
        prop::option::of(junk_card_text()),
        prop::option::of(junk_card_text()),
        prop::option::of(junk_leaf()),
        prop::option::of(junk_leaf()),
        prop::option::of(any::<bool>()),
        prop::option::of(any::<bool>()),
        prop::option::of(junk_card_text()),
    )
        .prop_map(|(seat, stack, front, middle, back, cards, surrender, claim, aces, fl, discards)| {
            let mut o = Map::new();
            o.insert("seat".into(), seat);
            let mut put = |k: &str, v: Option<Value>| {
                if let Some(v) = v {
                    o.insert(k.into(), v);
                }
            };
            put("stack", stack);
            put("front", front.map(Value::from));
            put("middle", middle.map(Value::from));
            put("back", back.map(Value::from));
            put("cards", cards.map(Value::from));
            put("surrender", surrender);
            put("claim", claim);
            put("aces_bet", aces.map(Value::from));
            put("in_fantasyland", fl.map(Value::from));
            put("discards", discards.map(Value::from));
            Value::Object(o)
        })
}

fn showdown_junk() -> impl Strategy<Value = Value> {
    (
        prop::option::of(prop_oneof![prop::sample::select(PRESET_NAMES.to_vec()).prop_map(Value::from), junk_leaf()]),
        prop::option::of(junk_money()),
        prop::option::of(prop_oneof![(0u32..10).prop_map(Value::from), junk_leaf()]),
        prop::option::of(prop_oneof![
            (prop::option::of(junk_money()), prop::option::of(junk_money())).prop_map(|(p, j)| {
                let mut o = Map::new();
                if let Some(p) = p {
                    o.insert("per_seat".into(), p);
                }
                if let Some(j) = j {
                    o.insert("jackpot".into(), j);
                }
                Value::Object(o)
            }),
            junk_value()
        ]),
        prop::option::of(prop_oneof![
            prop::collection::vec(
                ((0u32..10), (0u32..10), junk_money()).prop_map(|(a, b, u)| json!({"seats": [a, b], "unit": u})),
                0..4
            )
            .prop_map(Value::Array),
            junk_value()
        ]),
        prop::collection::vec(seat_junk(), 0..6),
    )
        .prop_map(|(ruleset, unit, dealer, rake, pair_units, seats)| {
            let mut o = Map::new();
            let mut put = |k: &str, v: Option<Value>| {
                if let Some(v) = v {
                    o.insert(k.into(), v);
                }
            };
            put("ruleset", ruleset);
            put("unit", unit);
            put("dealer", dealer);
            put("rake", rake);
            put("pair_units", pair_units);
            o.insert("seats".into(), Value::Array(seats));
            Value::Object(o)
        })
}

#[derive(Clone, Debug)]
enum Mutation {
    SetTop(usize, Value),
    RemoveTop(usize),
    SetSeat(usize, usize, Value),
    RemoveSeat(usize, usize),
    DuplicateSeat(usize),
    DropSeat(usize),
    /// Move one card text token into another seat's row (duplicate card).
    CopyRow(usize, usize, usize),
    /// An extreme amount of money somewhere (unit, rake, jackpot, a stack,
    /// every stack, a pair unit).
    Money(usize, usize, Value),
}

/// Amounts at and around the engine's limits, and past them.
fn extreme_money() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(vec![
            "1000000000000",
            "999999999999.999999",
            "1000000000000.000001",
            "1000000000001",
            "0.000001",
            "0.0000001",
            "0.1000000",
            "1e12",
            "1E-6",
            "-0.000000",
            "79228162514264337593543950335",
            "7922816251426433759354395033.5",
            "0.0000000000000000000000000001",
        ])
        .prop_map(Value::from),
        Just(json!(1e12)),
        Just(json!(1e-6)),
        Just(json!(999999999999.99)),
        (0u64..=1_000_000_000_000u64, 0u32..=6)
            .prop_map(|(m, sc)| { Value::from(Decimal::from_i128_with_scale(m as i128, sc).to_string()) }),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => (0..TOP_KEYS.len(), junk_value()).prop_map(|(k, v)| Mutation::SetTop(k, v)),
        1 => (0..TOP_KEYS.len()).prop_map(Mutation::RemoveTop),
        1 => (0usize..4, 0..SEAT_KEYS.len(), junk_value())
            .prop_map(|(s, k, v)| Mutation::SetSeat(s, k, v)),
        1 => (0usize..4, 2usize..3, junk_money()).prop_map(|(s, _, v)| Mutation::SetSeat(s, 1, v)),
        1 => (0usize..4, 0..SEAT_KEYS.len()).prop_map(|(s, k)| Mutation::RemoveSeat(s, k)),
        1 => (0usize..4).prop_map(Mutation::DuplicateSeat),
        1 => (0usize..4).prop_map(Mutation::DropSeat),
        1 => (0usize..4, 0usize..4, 2usize..5).prop_map(|(a, b, k)| Mutation::CopyRow(a, b, k)),
        1 => (0usize..2, junk_money()).prop_map(|(k, v)| Mutation::SetTop(k, v)),
        3 => (0usize..6, 0usize..4, extreme_money()).prop_map(|(t, i, v)| Mutation::Money(t, i, v)),
    ]
}

fn apply(v: &mut Value, m: &Mutation) {
    let top = v.as_object_mut().unwrap();
    let nseats = top.get("seats").and_then(|s| s.as_array()).map_or(0, |s| s.len());
    match m {
        Mutation::Money(target, i, val) => {
            let rake = |top: &mut Map<String, Value>, key: &str| {
                let r = top.entry("rake").or_insert_with(|| json!({}));
                if !r.is_object() {
                    *r = json!({});
                }
                r.as_object_mut().unwrap().insert(key.into(), val.clone());
            };
            match target {
                0 => {
                    top.insert("unit".into(), val.clone());
                }
                1 => rake(top, "per_seat"),
                2 => rake(top, "jackpot"),
                3 | 4 if nseats > 0 => {
                    let arr = top.get_mut("seats").unwrap().as_array_mut().unwrap();
                    for (k, seat) in arr.iter_mut().enumerate() {
                        if *target == 4 || k == i % nseats {
                            if let Some(o) = seat.as_object_mut() {
                                o.insert("stack".into(), val.clone());
                            }
                        }
                    }
                }
                5 if nseats >= 2 => {
                    let seat_no = |k: usize| top["seats"][k].get("seat").cloned().unwrap_or(json!(1));
                    let (a, b) = (seat_no(i % nseats), seat_no((i + 1) % nseats));
                    top.insert("pair_units".into(), json!([{"seats": [a, b], "unit": val.clone()}]));
                }
                _ => {}
            }
        }
        Mutation::SetTop(k, val) => {
            top.insert(TOP_KEYS[*k].into(), val.clone());
        }
        Mutation::RemoveTop(k) => {
            top.remove(TOP_KEYS[*k]);
        }
        _ if nseats == 0 => {}
        Mutation::SetSeat(s, k, val) => {
            if let Some(o) = top["seats"][s % nseats].as_object_mut() {
                o.insert(SEAT_KEYS[*k].into(), val.clone());
            }
        }
        Mutation::RemoveSeat(s, k) => {
            if let Some(o) = top["seats"][s % nseats].as_object_mut() {
                o.remove(SEAT_KEYS[*k]);
            }
        }
        Mutation::DuplicateSeat(s) => {
            let arr = top.get_mut("seats").unwrap().as_array_mut().unwrap();
            let copy = arr[s % nseats].clone();
            arr.push(copy);
        }
        Mutation::DropSeat(s) => {
            let arr = top.get_mut("seats").unwrap().as_array_mut().unwrap();
            arr.remove(s % nseats);
        }
        Mutation::CopyRow(a, b, k) => {
            let arr = top.get_mut("seats").unwrap().as_array_mut().unwrap();
            let key = SEAT_KEYS[*k];
            if let Some(text) = arr[a % nseats].get(key).cloned() {
                if let Some(o) = arr[b % nseats].as_object_mut() {
                    o.insert(key.into(), text);
                }
            }
        }
    }
}

thread_local! {
    /// Set while a panic is expected to be caught, to keep the log readable.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, catching a panic as `Err(message)` without printing it.
fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    r.map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// Scores text, turning a panic into a test failure naming the input.
fn score_no_panic(text: &str) -> Result<Result<ScoreResult, ShowdownError>, TestCaseError> {
    catch(|| score_json(text))
        .map_err(|msg| TestCaseError::fail(format!("score_json panicked ({msg}) on input: {text}")))
}

/// What scoring does with a text: a result, an error, or a panic (message).
fn outcome(text: &str) -> Result<Result<ScoreResult, ShowdownError>, String> {
    catch(|| score_json(text))
}

fn outcome_via_input(text: &str) -> Result<Result<ScoreResult, ShowdownError>, String> {
    catch(|| via_input(text))
}

// ---------------------------------------------------------------------------
// 1. Seat listing order

proptest! {
    #![proptest_config(cfg(400))]

    #[test]
    fn p1_listing_order_changes_only_sign_and_order(
        deal in deal_strategy(StackMode::Mixed),
        perm in Just(vec![0usize, 1, 2, 3]).prop_shuffle(),
    ) {
        let n = deal.seats.len();
        let order: Vec<usize> = perm.into_iter().filter(|&i| i < n).collect();
        let dealer = Some(deal.dealer_number());
        let va = deal.json_with(&deal.identity(), dealer, None);
        let vb = deal.json_with(&order, dealer, None);
        let a = score_ok(&va)?;
        let b = score_ok(&vb)?;
        let listed: Vec<u32> = b.seats.iter().map(|s| s.seat).collect();
        let given: Vec<u32> = order.iter().map(|&i| deal.seats[i].number).collect();
        prop_assert_eq!(listed, given, "result seats not in the input's order");
        prop_assert_eq!(pair_map(&a), pair_map(&b), "pairs differ\nA: {}\nB: {}", va, vb);
        prop_assert_eq!(seat_facts(&a), seat_facts(&b), "seat facts differ\nA: {}\nB: {}", va, vb);
        prop_assert_eq!(triggers(&a), triggers(&b), "jackpot triggers differ\nA: {}\nB: {}", va, vb);
        prop_assert_eq!(a.jackpot_contribution, b.jackpot_contribution);
        if !capped(&a) && !capped(&b) {
            prop_assert_eq!(nets(&a), nets(&b), "uncapped nets differ\nA: {}\nB: {}", va, vb);
        }
        check_conservation(&deal, &b, &vb)?;
    }
}

// ---------------------------------------------------------------------------
// 2. Conservation of money

proptest! {
    #![proptest_config(cfg(600))]

    #[test]
    fn p2_money_is_conserved(deal in deal_strategy(StackMode::Mixed)) {
        let v = deal.json();
        let r = score_ok(&v)?;
        check_conservation(&deal, &r, &v)?;
        // CONTRACT: result seats in the input's order
        let listed: Vec<u32> = r.seats.iter().map(|s| s.seat).collect();
        let given: Vec<u32> = deal.seats.iter().map(|s| s.number).collect();
        prop_assert_eq!(listed, given);
    }
}

// ---------------------------------------------------------------------------
// 3. The chip bound, and the exact settlement of RULES §8

proptest! {
    #![proptest_config(cfg(600))]

    #[test]
    fn p3_chip_bound(deal in deal_strategy(StackMode::Mixed)) {
        let v = deal.json();
        let r = score_ok(&v)?;
        let rake = cents(deal.rake_cents);
        for s in &r.seats {
            let exposure = s.stack_start - rake;
            prop_assert!((s.net + rake).abs() <= exposure,
                "seat {} moved {} with exposure {}\ninput: {}", s.seat, s.net + rake, exposure, v);
            prop_assert!(s.stack_end >= Decimal::ZERO, "seat {} ends below zero\ninput: {}", s.seat, v);
        }
        for t in &r.transactions {
            prop_assert!(Decimal::ZERO <= t.paid && t.paid <= t.owed, "bad transaction {:?}\ninput: {}", t, v);
            prop_assert!(t.owed > Decimal::ZERO, "transaction with nothing owed {:?}", t);
            prop_assert!(t.payer != t.payee);
        }

        // Replay §8 from the reported pairs (already in settlement order).
        let mut exposure: BTreeMap<u32, Decimal> =
            r.seats.iter().map(|s| (s.seat, s.stack_start - rake)).collect();
        let mut stacks = exposure.clone();
        let mut expected = Vec::new();
        for (pass, idx) in [(Pass::Special, 0), (Pass::Main, 1)] {
            for p in &r.pairs {
                let u = [p.special_units, p.main_units][idx];
                if u == 0 {
                    continue;
                }
                let [e, l] = p.seats;
                let (payer, payee) = if u > 0 { (l, e) } else { (e, l) };
                let owed = Decimal::from(u.unsigned_abs()) * deal.unit_for(e, l);
                if owed.is_zero() {
                    // CONTRACT: transactions list pairs with a nonzero owed amount
                    continue;
                }
                let paid = owed.min(exposure[&payer]).min(exposure[&payee]);
                *exposure.get_mut(&payer).unwrap() -= paid;
                *exposure.get_mut(&payee).unwrap() -= paid;
                *stacks.get_mut(&payer).unwrap() -= paid;
                *stacks.get_mut(&payee).unwrap() += paid;
                expected.push((pass, payer, payee, owed, paid));
            }
        }
        let got: Vec<_> = r.transactions.iter().map(|t| (t.pass, t.payer, t.payee, t.owed, t.paid)).collect();
        prop_assert_eq!(got, expected, "transactions differ from RULES §8\ninput: {}", v);
        for s in &r.seats {
            prop_assert_eq!(s.stack_end, stacks[&s.seat], "seat {} stack_end\ninput: {}", s.seat, v);
        }
    }
}

// ---------------------------------------------------------------------------
// 4. Card notation

proptest! {
    #![proptest_config(cfg(400))]

    #[test]
    fn p4_notation_changes_nothing(deal in deal_strategy(StackMode::Mixed), notation in notation_strategy()) {
        let dealer = (deal.explicit || deal.dealer != 0).then(|| deal.dealer_number());
        let plain = deal.json_with(&deal.identity(), dealer, None);
        let styled = deal.json_with(&deal.identity(), dealer, Some(&notation));
        let a = score_ok(&plain)?;
        let b = score_ok(&styled)?;
        let ja = serde_json::to_string(&a).unwrap();
        let jb = serde_json::to_string(&b).unwrap();
        prop_assert_eq!(ja, jb, "notation changed the result\nplain: {}\nstyled: {}", plain, styled);
    }

    #[test]
    fn p4_parse_cards_notation(cards in prop::sample::subsequence((0u8..52).collect::<Vec<_>>(), 0..=13).prop_shuffle(),
                               notation in notation_strategy()) {
        let text = cards_text(&cards, Some(&notation), 0);
        let parsed = parse_cards(&text);
        prop_assert!(parsed.is_ok(), "{:?} did not parse: {:?}", text, parsed);
        let want: Vec<Card> = cards.iter().map(|&c| card(c)).collect();
        prop_assert_eq!(parsed.unwrap(), want, "{:?}", text);
    }
}

// ---------------------------------------------------------------------------
// 5. Moving the dealer

proptest! {
    #![proptest_config(cfg(400))]

    #[test]
    fn p5_dealer_changes_only_order_large_stacks(deal in deal_strategy(StackMode::Huge), new_dealer in 0usize..4) {
        let n = deal.seats.len();
        let numbers: Vec<u32> = deal.seats.iter().map(|s| s.number).collect();
        let d1 = deal.dealer_number();
        let d2 = numbers[new_dealer % n];
        let va = deal.json_with(&deal.identity(), Some(d1), None);
        let vb = deal.json_with(&deal.identity(), Some(d2), None);
        let a = score_ok(&va)?;
        let b = score_ok(&vb)?;
        prop_assert!(!capped(&a) && !capped(&b), "huge stacks were capped\n{}", va);
        let pa: Vec<[u32; 2]> = a.pairs.iter().map(|p| p.seats).collect();
        let pb: Vec<[u32; 2]> = b.pairs.iter().map(|p| p.seats).collect();
        prop_assert_eq!(pa, expected_pair_order(&numbers, d1), "pairs not in settlement order\n{}", va);
        prop_assert_eq!(pb, expected_pair_order(&numbers, d2), "pairs not in settlement order\n{}", vb);
        check_conservation(&deal, &a, &va)?;
        check_conservation(&deal, &b, &vb)?;
        if deal.rules().structure == Structure::AllPairs {
            // (In the bank presets the dealer is the bank, so moving it changes the game.)
            prop_assert_eq!(pair_map(&a), pair_map(&b), "pairs differ\nA: {}\nB: {}", va, vb);
            prop_assert_eq!(nets(&a), nets(&b), "nets differ\nA: {}\nB: {}", va, vb);
            prop_assert_eq!(seat_facts(&a), seat_facts(&b));
            prop_assert_eq!(triggers(&a), triggers(&b));
        }
    }

    #[test]
    fn p5_dealer_changes_only_order_any_stacks(deal in deal_strategy(StackMode::Mixed), new_dealer in 0usize..4) {
        let n = deal.seats.len();
        let numbers: Vec<u32> = deal.seats.iter().map(|s| s.number).collect();
        let d2 = numbers[new_dealer % n];
        let va = deal.json();
        let vb = deal.json_with(&deal.identity(), Some(d2), None);
        let a = score_ok(&va)?;
        let b = score_ok(&vb)?;
        let set = |r: &ScoreResult| r.pairs.iter().map(|p| (p.seats[0].min(p.seats[1]), p.seats[0].max(p.seats[1]))).collect::<BTreeSet<_>>();
        prop_assert_eq!(set(&a), set(&b));
        prop_assert_eq!(a.pairs.len(), n * (n - 1) / 2);
        let pb: Vec<[u32; 2]> = b.pairs.iter().map(|p| p.seats).collect();
        prop_assert_eq!(pb, expected_pair_order(&numbers, d2), "pairs not in settlement order\n{}", vb);
        if deal.rules().structure == Structure::AllPairs {
            prop_assert_eq!(pair_map(&a), pair_map(&b), "pairs differ\nA: {}\nB: {}", va, vb);
        }
        check_conservation(&deal, &a, &va)?;
        check_conservation(&deal, &b, &vb)?;
    }
}

// ---------------------------------------------------------------------------
// 6. Evaluation

fn relabel(c: u8, suits: &[u8]) -> u8 {
    (c / 4) * 4 + suits[(c % 4) as usize]
}

proptest! {
    #![proptest_config(cfg(2000))]

    #[test]
    fn p6_eval5_invariances(hand in hand_strategy(5),
                            perm in Just(vec![0usize, 1, 2, 3, 4]).prop_shuffle(),
                            suits in Just(vec![0u8, 1, 2, 3]).prop_shuffle()) {
        let s = eval5(&arr5(&hand));
        let permuted: Vec<u8> = perm.iter().map(|&i| hand[i]).collect();
        prop_assert_eq!(eval5(&arr5(&permuted)), s, "order changed eval5: {:?}", hand);
        let relabelled: Vec<u8> = hand.iter().map(|&c| relabel(c, &suits)).collect();
        prop_assert_eq!(eval5(&arr5(&relabelled)), s, "suits changed eval5: {:?}", hand);
    }

    #[test]
    fn p6_eval3_invariances(hand in hand_strategy(3),
                            perm in Just(vec![0usize, 1, 2]).prop_shuffle(),
                            suits in Just(vec![0u8, 1, 2, 3]).prop_shuffle()) {
        let s = eval3(&arr3(&hand));
        let permuted: Vec<u8> = perm.iter().map(|&i| hand[i]).collect();
        prop_assert_eq!(eval3(&arr3(&permuted)), s);
        let relabelled: Vec<u8> = hand.iter().map(|&c| relabel(c, &suits)).collect();
        prop_assert_eq!(eval3(&arr3(&relabelled)), s);
    }

    #[test]
    fn p6_eval5_matches_reference(a in hand_strategy(5), b in hand_strategy(5)) {
        let (sa, sb) = (eval5(&arr5(&a)), eval5(&arr5(&b)));
        let (ra, rb) = (ref5(&a), ref5(&b));
        let names = |h: &[u8]| h.iter().map(|&c| card(c).to_string()).collect::<Vec<_>>().join(" ");
        prop_assert_eq!(sa.category() as u8, ra.0, "category of {}", names(&a));
        prop_assert_eq!(sa.ranks().to_vec(), ra.1.clone(), "ranks of {}", names(&a));
        prop_assert_eq!(sa.cmp(&sb), ra.cmp(&rb), "{} vs {}", names(&a), names(&b));
        prop_assert_eq!(sa.is_royal_flush(), ra.0 == 8 && ra.1[0] == 12);
    }

    #[test]
    fn p6_eval3_matches_reference(a in hand_strategy(3), b in hand_strategy(3)) {
        let (sa, sb) = (eval3(&arr3(&a)), eval3(&arr3(&b)));
        let (ra, rb) = (ref3(&a), ref3(&b));
        prop_assert_eq!(sa.category() as u8, ra.0);
        prop_assert_eq!(sa.ranks(), ra.1.clone());
        prop_assert_eq!(sa.cmp(&sb), ra.cmp(&rb), "{:?} vs {:?}", a, b);
    }

    #[test]
    fn p6_front_against_middle_matches_reference(front in hand_strategy(3), middle in hand_strategy(5)) {
        let engine = front_beats_middle(eval3(&arr3(&front)), eval5(&arr5(&middle)));
        let reference = ref_front_beats_middle(&front, &middle);
        let names = |h: &[u8]| h.iter().map(|&c| card(c).to_string()).collect::<Vec<_>>().join(" ");
        prop_assert_eq!(engine, reference, "front {} vs middle {}", names(&front), names(&middle));
    }

    #[test]
    fn p6_front_from_the_middle_never_beats_it(middle in hand_strategy(5), pick in prop::sample::subsequence(vec![0usize, 1, 2, 3, 4], 3)) {
        // Three of the middle's own cards can never be stronger than the middle.
        let front: Vec<u8> = pick.iter().map(|&i| middle[i]).collect();
        prop_assert!(!front_beats_middle(eval3(&arr3(&front)), eval5(&arr5(&middle))),
            "front {:?} taken from middle {:?} beats it", front, middle);
    }
}

// ---------------------------------------------------------------------------
// 7. No panic

proptest! {
    #![proptest_config(cfg(1000))]

    #[test]
    fn p7_arbitrary_text_never_panics(text in prop_oneof![any::<String>(), "\\PC{0,200}", "[\\[\\]{}\":,0-9a-z ]{0,120}"]) {
        let _ = score_no_panic(&text)?;
        prop_assert!(catch(|| parse_cards(&text)).is_ok(), "parse_cards panicked on {:?}", text);
    }

    #[test]
    fn p7_parse_cards_never_panics(text in junk_card_text()) {
        prop_assert!(catch(|| parse_cards(&text)).is_ok(), "parse_cards panicked on {:?}", text);
    }

    #[test]
    fn p7_jsonish_showdowns_never_panic(v in showdown_junk()) {
        let _ = score_no_panic(&v.to_string())?;
    }

    #[test]
    fn p7_mutated_showdowns_never_panic(deal in deal_strategy(StackMode::Mixed), muts in prop::collection::vec(mutation(), 1..4)) {
        let mut v = deal.json();
        for m in &muts {
            apply(&mut v, m);
        }
        let _ = score_no_panic(&v.to_string())?;
    }
}

// ---------------------------------------------------------------------------
// 8. Determinism

fn via_input(text: &str) -> Result<ScoreResult, ShowdownError> {
    let input = ShowdownInput::from_json(text)?;
    score(&Showdown::from_input(&input)?)
}

proptest! {
    #![proptest_config(cfg(400))]

    #[test]
    fn p8_deterministic_and_errors_change_nothing(deal in deal_strategy(StackMode::Mixed),
                                                  muts in prop::collection::vec(mutation(), 1..3),
                                                  dup in (0usize..4, 0usize..4, 0usize..13, 0usize..13)) {
        let text = deal.json().to_string();
        let first = score_json(&text);
        prop_assert!(first.is_ok(), "{:?}\n{}", first, text);

        // A broken variant: a card of one seat copied into another seat.
        let n = deal.seats.len();
        let mut broken = deal.clone();
        let (a, b) = (dup.0 % n, (dup.0 + 1 + dup.1 % (n - 1)) % n);
        let c = broken.seats[a].cards[dup.2];
        broken.seats[b].cards[dup.3] = c;
        let broken_text = broken.json().to_string();
        let e1 = score_json(&broken_text);
        prop_assert!(matches!(e1, Err(ShowdownError::DuplicateCard { .. })),
            "a duplicated card was not refused: {:?}\n{}", e1, broken_text);

        // A stack below the rake is refused.
        let mut poor = deal.clone();
        poor.rake_cents = poor.rake_cents.max(1);
        poor.jackpot_cents = poor.jackpot_cents.min(poor.rake_cents);
        poor.seats[a].stack_cents = poor.rake_cents - 1;
        for s in poor.seats.iter_mut().filter(|s| s.number != deal.seats[a].number) {
            s.stack_cents = s.stack_cents.max(poor.rake_cents);
        }
        let poor_text = poor.json().to_string();
        let e2 = score_json(&poor_text);
        prop_assert!(matches!(e2, Err(ShowdownError::StackBelowRake { .. })), "{:?}\n{}", e2, poor_text);

        // Random mutations, scored twice. (A panic counts as an outcome here;
        // that scoring never panics is property 7.)
        let mut mutated = deal.json();
        for m in &muts {
            apply(&mut mutated, m);
        }
        let mutated_text = mutated.to_string();
        let m1 = outcome(&mutated_text);

        let second = score_json(&text);
        prop_assert_eq!(&first, &second);
        prop_assert_eq!(serde_json::to_string(first.as_ref().unwrap()).unwrap(),
                        serde_json::to_string(second.as_ref().unwrap()).unwrap());
        prop_assert_eq!(&first, &via_input(&text), "the two entry points disagree\n{}", text);
        prop_assert_eq!(&e1, &score_json(&broken_text));
        prop_assert_eq!(&e2, &score_json(&poor_text));
        prop_assert_eq!(&m1, &outcome(&mutated_text), "{}", mutated_text);
        prop_assert_eq!(&m1, &outcome_via_input(&mutated_text), "{}", mutated_text);
        if let Ok(Err(e)) = &m1 {
            prop_assert!(!e.to_string().is_empty());
        }
    }
}

/// A valid deal broken in one of the ways CONTRACT.md lists as an error.
fn corrupt(deal: &Deal, kind: usize, pick: usize) -> (Value, &'static str) {
    let mut v = deal.json();
    let n = deal.seats.len();
    let i = pick % n;
    let j = (i + 1) % n;
    let top = v.as_object_mut().unwrap();
    let seats = top.get_mut("seats").unwrap().as_array_mut().unwrap();
    let what = match kind {
        0 => {
            let other = seats[j]["seat"].clone();
            seats[i]["seat"] = other;
            "a repeated seat number"
        }
        1 => {
            top.insert("dealer".into(), json!(10));
            "a dealer that is not a seat"
        }
        2 => {
            seats.truncate(1);
            "fewer than 2 seats"
        }
        3 => {
            let mut extra: Vec<Value> = seats.clone();
            for (k, e) in extra.iter_mut().enumerate() {
                e["seat"] = json!(20 + k);
            }
            seats.extend(extra);
            seats.truncate(5);
            "more than 4 seats"
        }
        4 => {
            top.insert(
                "rake".into(),
                json!({"per_seat": money(deal.rake_cents), "jackpot": money(deal.rake_cents + 1)}),
            );
            "a jackpot part larger than the rake"
        }
        5 => {
            top.insert("pair_units".into(), json!([{"seats": [deal.seats[i].number, 10], "unit": "2"}]));
            "pair_units naming an unknown seat"
        }
        6 => {
            let (a, b) = (deal.seats[i].number, deal.seats[j].number);
            top.insert("pair_units".into(), json!([{"seats": [a, b], "unit": "2"}, {"seats": [b, a], "unit": "3"}]));
            "pair_units naming a repeated pair"
        }
        7 => {
            seats[i]["stack"] = json!("-1");
            "a negative stack"
        }
        8 => {
            seats[i]["stack"] = json!("12,50");
            "a malformed stack"
        }
        9 => {
            seats[i].as_object_mut().unwrap().remove("stack");
            "a missing stack"
        }
        10 => {
            let o = seats[i].as_object_mut().unwrap();
            let key = if o.contains_key("cards") { "cards" } else { "front" };
            let text = o[key].as_str().unwrap().to_string();
            let shorter = text.rsplit_once(' ').map_or(String::new(), |(a, _)| a.to_string());
            o.insert(key.into(), json!(shorter));
            "a row with the wrong number of cards"
        }
        11 => {
            top.insert("ruleset".into(), json!("Hawaiian-Gardens"));
            "an unknown preset"
        }
        12 => {
            let o = seats[i].as_object_mut().unwrap();
            if o.contains_key("cards") {
                o.insert("front".into(), json!("2c 3c 4c"));
            } else {
                o.insert("cards".into(), json!(cards_text(&deal.seats[i].cards, None, 0)));
            }
            "a seat giving both rows and cards"
        }
        13 => {
            let o = seats[i].as_object_mut().unwrap();
            for k in ["front", "middle", "back", "claim", "surrender"] {
                o.remove(k);
            }
            o.insert("cards".into(), json!(cards_text(&deal.seats[i].cards, None, 0)));
            "loose cards without surrender or claim"
        }
        14 => {
            let o = seats[i].as_object_mut().unwrap();
            o.insert("claim".into(), json!("best"));
            o.insert("surrender".into(), json!(true));
            "a claim and a surrender together"
        }
        15 if !deal.rules().discards => {
            seats[i]["discards"] = json!("");
            "discards outside ofc-pineapple"
        }
        16 => {
            seats[i]["claim"] = json!("royal-dragon");
            "a claim of a special no preset has"
        }
        _ => {
            let o = seats[i].as_object_mut().unwrap();
            let key = if o.contains_key("cards") { "cards" } else { "back" };
            let text = o[key].as_str().unwrap().to_string();
            let bad = text.replacen(|c: char| "shdc".contains(c), "x", 1);
            o.insert(key.into(), json!(bad));
            "card text that is not a card"
        }
    };
    (v, what)
}

proptest! {
    #![proptest_config(cfg(400))]

    #[test]
    fn p8_contract_errors_are_refused(deal in deal_strategy(StackMode::Mixed), kind in 0usize..18, pick in 0usize..4) {
        let (v, what) = corrupt(&deal, kind, pick);
        let text = v.to_string();
        let r = score_json(&text);
        prop_assert!(r.is_err(), "{} was scored: {}", what, text);
        let msg = r.as_ref().unwrap_err().to_string();
        prop_assert!(!msg.is_empty());
        prop_assert_eq!(&r, &score_json(&text));
        prop_assert_eq!(&r, &via_input(&text));
    }
}

// ---------------------------------------------------------------------------
// 9. Reference scoring (extra)

proptest! {
    #![proptest_config(cfg(800))]

    #[test]
    fn p9_fouls_match_reference(deal in deal_strategy(StackMode::Mixed)) {
        let v = deal.json();
        let r = score_ok(&v)?;
        for s in &r.seats {
            let want = ref_seat(&deal, deal.seat(s.seat));
            prop_assert_eq!(s.fouled, want.fouled, "seat {} fouled\ninput: {}", s.seat, v);
            prop_assert_eq!(s.surrendered, want.surrendered);
            prop_assert_eq!(s.aces as usize, want.aces);
            prop_assert_eq!(s.fouled, s.foul_reason.is_some());
            if deal.rules().fantasyland.is_none() {
                prop_assert_eq!(s.royalties, 0, "royalties outside ofc\n{}", v);
                prop_assert!(!s.fantasyland_next);
            }
            if deal.seat(s.seat).claim {
                prop_assert!(s.special.is_some(), "seat {} claimed but got no special\n{}", s.seat, v);
            } else {
                prop_assert!(s.special.is_none());
            }
        }
    }

    #[test]
    fn p9_hawaiian_gardens_and_simple_match_reference(
        deal in deal_strategy_in(StackMode::Mixed, vec![0, 1]),
    ) {
        let simple = deal.rules().name == "simple";
        prop_assert!(simple || deal.rules().name == "hawaiian-gardens");
        let v = deal.json();
        let r = score_ok(&v)?;
        let seats: BTreeMap<u32, RefSeat> =
            deal.seats.iter().map(|s| (s.number, ref_seat(&deal, s))).collect();
        for s in &r.seats {
            prop_assert_eq!(s.special, seats[&s.seat].special.map(|x| x.0), "seat {} special\n{}", s.seat, v);
        }
        let got: Vec<(i64, i64)> = r.pairs.iter().map(|p| (p.special_units, p.main_units)).collect();
        if simple {
            prop_assert_eq!(got, ref_simple(&seats, &r), "simple pairs differ from RULES §5.2\ninput: {}", v);
            prop_assert!(r.jackpot_triggers.is_empty());
        } else {
            let (want, trig) = ref_hg(&seats, &r);
            prop_assert_eq!(got, want, "hawaiian-gardens pairs differ from RULES §5.1\ninput: {}", v);
            let got_trig: Vec<(u32, u32)> = r.jackpot_triggers.iter().map(|t| (t.loser, t.winner)).collect();
            prop_assert_eq!(got_trig, trig, "bad-beat triggers\ninput: {}", v);
        }
    }
}

/// How often the deal generator reaches each feature (run with
/// `cargo test --test properties coverage_report -- --ignored --nocapture`).
#[test]
#[ignore]
fn coverage_report() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::default();
    let strat = deal_strategy(StackMode::Mixed);
    let mut c: BTreeMap<&str, usize> = BTreeMap::new();
    let n = 3000;
    for _ in 0..n {
        let d = strat.new_tree(&mut runner).unwrap().current();
        let r = score_json(&d.json().to_string()).unwrap();
        *c.entry("capped").or_default() += capped(&r) as usize;
        *c.entry("any fouled").or_default() += r.seats.iter().any(|s| s.fouled) as usize;
        *c.entry("any surrender").or_default() += r.seats.iter().any(|s| s.surrendered) as usize;
        *c.entry("any special").or_default() += r.seats.iter().any(|s| s.special.is_some()) as usize;
        *c.entry("special tx").or_default() += r.transactions.iter().any(|t| t.pass == Pass::Special) as usize;
        *c.entry("triggers").or_default() += (!r.jackpot_triggers.is_empty()) as usize;
        *c.entry("loose").or_default() += d.seats.iter().any(|s| s.loose) as usize;
        *c.entry("pair_units").or_default() += (!d.pair_units.is_empty()) as usize;
        *c.entry("discards").or_default() += d.seats.iter().any(|s| !s.discards.is_empty()) as usize;
        *c.entry("fantasyland_next").or_default() += r.seats.iter().any(|s| s.fantasyland_next) as usize;
        *c.entry("royalties").or_default() += r.seats.iter().any(|s| s.royalties != 0) as usize;
        *c.entry("hg 9").or_default() += r.pairs.iter().any(|p| d.preset == 0 && p.main_units.abs() >= 9) as usize;
        *c.entry("zero exposure").or_default() += d.seats.iter().any(|s| s.stack_cents == d.rake_cents) as usize;
        *c.entry("paid 0").or_default() += r.transactions.iter().any(|t| t.paid.is_zero()) as usize;
        for s in &r.seats {
            if let Some(k) = s.special {
                *c.entry(k).or_default() += 1;
            }
        }
    }
    eprintln!("of {n}: {c:#?}");
}

// ---------------------------------------------------------------------------
// Open-face table play (issue 8): bust-out settlement and carried exposure

/// 2 to 4 seats (loose surrendered cards; only settlement is exercised) with
/// the given stacks, and optionally tournament rules or carried exposures,
/// under the current revision of `ofc`.
fn table_play_showdown(stacks: &[u64], tournament: bool, exposures: &[Option<u64>]) -> Showdown {
    table_play_showdown_at(stacks, tournament, exposures, None)
}

fn table_play_showdown_at(
    stacks: &[u64],
    tournament: bool,
    exposures: &[Option<u64>],
    revision: Option<u32>,
) -> Showdown {
    let suits = ['s', 'h', 'd', 'c'];
    let seats: Vec<Value> = stacks
        .iter()
        .enumerate()
        .map(|(i, &stack)| {
            let cards: Vec<String> = "23456789TJQKA".chars().map(|r| format!("{r}{}", suits[i])).collect();
            let mut s = json!({"seat": i + 1, "stack": money(stack), "cards": cards.join(" "), "surrender": true});
            if let Some(Some(e)) = exposures.get(i) {
                s["exposure"] = json!(money((*e).min(stack)));
            }
            s
        })
        .collect();
    let mut v = json!({"ruleset": "ofc", "unit": "0.25", "seats": seats});
    if tournament {
        v["options"] = json!({"tournament": true});
    }
    if let Some(r) = revision {
        v["ruleset_revision"] = json!(r);
    }
    Showdown::from_json(&v.to_string()).unwrap()
}

fn all_pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect()
}

proptest! {
    #![proptest_config(cfg(300))]

    /// Bust-out (tournament), `ofc` revision 1 (the stack bounds only what a
    /// seat pays): no stack goes below zero, money sums to zero, nothing is
    /// paid beyond what is owed, an out seat takes part in no later payment,
    /// and a seat is out exactly when it could not pay in full or reached
    /// zero.
    #[test]
    fn bust_out_never_goes_negative_and_sums_to_zero(
        stacks in prop::collection::vec(0u64..4000, 2..=4),
        units in prop::collection::vec(-30i64..=30, 6),
    ) {
        let sd = table_play_showdown_at(&stacks, true, &[], Some(1));
        let pairs = all_pairs(stacks.len());
        let u: Vec<[i64; 2]> = pairs.iter().enumerate().map(|(k, _)| [0, units[k]]).collect();
        let s = pitboss::engine::settlement::settle(&sd, &pairs, &u);
        prop_assert_eq!(s.nets.iter().copied().sum::<Decimal>(), Decimal::ZERO);
        prop_assert!(s.stacks.iter().all(|x| !x.is_sign_negative() || x.is_zero()), "{:?}", s.stacks);
        let mut out = vec![false; stacks.len()];
        for (i, &st) in stacks.iter().enumerate() {
            out[i] = st == 0;
        }
        let mut stack: Vec<Decimal> = stacks.iter().map(|&c| cents(c)).collect();
        for t in &s.transactions {
            let (payer, payee) = (t.payer as usize - 1, t.payee as usize - 1);
            prop_assert!(t.paid <= t.owed && !t.paid.is_sign_negative());
            if out[payer] || out[payee] {
                prop_assert_eq!(t.paid, Decimal::ZERO, "an out seat's transaction happened");
                continue;
            }
            prop_assert_eq!(t.paid, t.owed.min(stack[payer]));
            stack[payer] -= t.paid;
            stack[payee] += t.paid;
            if t.paid < t.owed || stack[payer].is_zero() {
                out[payer] = true;
            }
        }
        prop_assert_eq!(&s.out, &out);
        prop_assert_eq!(&s.stacks, &stack);
    }

    /// A carried exposure bounds what a seat wins or loses in the whole
    /// settlement; money sums to zero.
    #[test]
    fn carried_exposure_bounds_every_seat(
        stacks in prop::collection::vec(1u64..4000, 2..=4),
        exposures in prop::collection::vec(prop::option::of(0u64..2000), 4),
        units in prop::collection::vec(-30i64..=30, 6),
    ) {
        let sd = table_play_showdown(&stacks, false, &exposures);
        let pairs = all_pairs(stacks.len());
        let u: Vec<[i64; 2]> = pairs.iter().enumerate().map(|(k, _)| [0, units[k]]).collect();
        let s = pitboss::engine::settlement::settle(&sd, &pairs, &u);
        prop_assert_eq!(s.nets.iter().copied().sum::<Decimal>(), Decimal::ZERO);
        for (i, &stack) in stacks.iter().enumerate() {
            let bound = cents(exposures[i].map_or(stack, |e| e.min(stack)));
            let moved: Decimal = s
                .transactions
                .iter()
                .filter(|t| t.payer as usize == i + 1 || t.payee as usize == i + 1)
                .map(|t| t.paid)
                .sum();
            prop_assert!(moved <= bound, "seat {} moved {} over its exposure {}", i + 1, moved, bound);
            prop_assert_eq!(s.exposures[i], bound - moved);
            prop_assert!(!s.stacks[i].is_sign_negative() || s.stacks[i].is_zero());
        }
    }

    /// Bust-out (tournament) from `ofc` revision 2, seed 001: "Players can
    /// only win or lose the chips they had at the beginning of the actual
    /// game". Each payment is the least of what is owed and what payer and
    /// payee may still win or lose; what a seat moves never exceeds its
    /// points; a seat is out exactly when its points reach zero, and an
    /// out seat takes part in no later payment; money sums to zero.
    #[test]
    fn bust_out_bounds_winnings_too(
        stacks in prop::collection::vec(0u64..4000, 2..=4),
        units in prop::collection::vec(-30i64..=30, 6),
    ) {
        let sd = table_play_showdown(&stacks, true, &[]);
        let pairs = all_pairs(stacks.len());
        let u: Vec<[i64; 2]> = pairs.iter().enumerate().map(|(k, _)| [0, units[k]]).collect();
        let s = pitboss::engine::settlement::settle(&sd, &pairs, &u);
        prop_assert_eq!(s.nets.iter().copied().sum::<Decimal>(), Decimal::ZERO);
        let mut left: Vec<Decimal> = stacks.iter().map(|&c| cents(c)).collect();
        let mut stack = left.clone();
        let mut out: Vec<bool> = stacks.iter().map(|&c| c == 0).collect();
        for t in &s.transactions {
            let (payer, payee) = (t.payer as usize - 1, t.payee as usize - 1);
            let want = if out[payer] || out[payee] { Decimal::ZERO } else { t.owed.min(left[payer]).min(left[payee]) };
            prop_assert_eq!(t.paid, want);
            left[payer] -= t.paid;
            left[payee] -= t.paid;
            stack[payer] -= t.paid;
            stack[payee] += t.paid;
            if stack[payer].is_zero() {
                out[payer] = true;
            }
        }
        prop_assert_eq!(&s.out, &out);
        prop_assert_eq!(&s.stacks, &stack);
        for (i, &st) in stacks.iter().enumerate() {
            let moved: Decimal = s
                .transactions
                .iter()
                .filter(|t| t.payer as usize == i + 1 || t.payee as usize == i + 1)
                .map(|t| t.paid)
                .sum();
            prop_assert!(moved <= cents(st), "seat {} moved {} over its points {}", i + 1, moved, cents(st));
        }
    }
}
