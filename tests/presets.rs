//! Every rule of every preset (RULES.md §5, the data in
//! `src/engine/ruleset.rs`), each with concrete cards and exact numbers,
//! through the public API `pitboss::engine::score_json`.
//!
//! Units in a pair are read as "what seat `b` owes seat `a`" (see `main_units`),
//! whichever way round the pair is listed.

use std::str::FromStr;

use pitboss::engine::{score_json, ShowdownError};
use rust_decimal::Decimal;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

const HG: &str = "hawaiian-gardens";

/// A setting: front (3 cards), middle (5), back (5).
#[derive(Clone, Copy, Debug)]
struct Hand {
    front: &'static str,
    middle: &'static str,
    back: &'static str,
}

const fn hand(front: &'static str, middle: &'static str, back: &'static str) -> Hand {
    Hand { front, middle, back }
}

/// A seat's 13 cards, set in rows or loose.
#[derive(Clone, Copy, Debug)]
enum Cards {
    Set(Hand),
    Loose(&'static str),
}
use Cards::{Loose, Set};

impl Cards {
    fn text(self) -> String {
        match self {
            Set(h) => format!("{} {} {}", h.front, h.middle, h.back),
            Loose(c) => c.to_string(),
        }
    }
}

/// A seat setting three rows, with a stack nobody exhausts.
fn rows(number: u32, front: &str, middle: &str, back: &str) -> Value {
    json!({"seat": number, "stack": "1000", "front": front, "middle": middle, "back": back})
}

fn seat(number: u32, h: Hand) -> Value {
    rows(number, h.front, h.middle, h.back)
}

/// A seat giving 13 loose cards.
fn loose(number: u32, cards: &str) -> Value {
    json!({"seat": number, "stack": "1000", "cards": cards})
}

fn seat_with_cards(number: u32, cards: Cards) -> Value {
    match cards {
        Set(h) => seat(number, h),
        Loose(c) => loose(number, c),
    }
}

/// The seat with one more field (`surrender`, `claim`, `stack`, ...).
fn with(mut seat: Value, key: &str, value: impl Into<Value>) -> Value {
    seat[key] = value.into();
    seat
}

fn surrendering(seat: Value) -> Value {
    with(seat, "surrender", true)
}

fn claiming(seat: Value, claim: &str) -> Value {
    with(seat, "claim", claim)
}

/// An ordinary seat made of the lowest 13 cards (deck order 2s 2h 2d 2c 3s ...)
/// that `taken` does not hold, set in that order: the first three in front,
/// the next five in the middle, the last five in the back. Used where only
/// the other seat's hand matters (specials, royalties); it may be fouled.
fn filler(number: u32, taken: &str) -> Value {
    let taken: Vec<&str> = taken.split_whitespace().collect();
    let cards: Vec<String> = "23456789TJQKA"
        .chars()
        .flat_map(|r| "shdc".chars().map(move |s| format!("{r}{s}")))
        .filter(|c| !taken.contains(&c.as_str()))
        .take(13)
        .collect();
    rows(number, &cards[..3].join(" "), &cards[3..8].join(" "), &cards[8..].join(" "))
}

fn showdown(ruleset: &str, seats: Vec<Value>) -> Value {
    json!({"ruleset": ruleset, "seats": seats})
}

/// Scores a showdown that must be valid; the result as JSON.
fn score(showdown: &Value) -> Value {
    let result = score_json(&showdown.to_string()).unwrap_or_else(|e| panic!("should score: {e}\n{showdown}"));
    serde_json::to_value(result).expect("a result serializes")
}

fn play(ruleset: &str, seats: Vec<Value>) -> Value {
    score(&showdown(ruleset, seats))
}

/// The error of a showdown that must be refused.
fn refused(ruleset: &str, seats: Vec<Value>) -> ShowdownError {
    match score_json(&showdown(ruleset, seats).to_string()) {
        Ok(_) => panic!("a {ruleset} showdown was scored but should be refused"),
        Err(e) => e,
    }
}

/// (special, main) units seat `b` owes seat `a` (negative: `a` owes `b`).
fn units(result: &Value, a: u32, b: u32) -> (i64, i64) {
    for p in result["pairs"].as_array().expect("pairs") {
        let seats = (p["seats"][0].as_u64().unwrap(), p["seats"][1].as_u64().unwrap());
        let s = p["special_units"].as_i64().unwrap();
        let m = p["main_units"].as_i64().unwrap();
        if seats == (a as u64, b as u64) {
            return (s, m);
        }
        if seats == (b as u64, a as u64) {
            return (-s, -m);
        }
    }
    panic!("no pair of seats {a} and {b} in {result}")
}

fn main_units(result: &Value, a: u32, b: u32) -> i64 {
    units(result, a, b).1
}

fn special_units(result: &Value, a: u32, b: u32) -> i64 {
    units(result, a, b).0
}

/// The pairs as listed, with their (special, main) units.
fn pairs(result: &Value) -> Vec<([u32; 2], i64, i64)> {
    result["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                [p["seats"][0].as_u64().unwrap() as u32, p["seats"][1].as_u64().unwrap() as u32],
                p["special_units"].as_i64().unwrap(),
                p["main_units"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn seat_result(result: &Value, number: u32) -> &Value {
    result["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == number)
        .unwrap_or_else(|| panic!("no seat {number} in {result}"))
}

fn dec(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

/// Money in the output: a decimal string, any scale.
fn money(v: &Value) -> Decimal {
    dec(v.as_str().unwrap_or_else(|| panic!("money {v} is not a string")))
}

type Tx = (String, u32, u32, Decimal, Decimal);

fn tx(pass: &str, payer: u32, payee: u32, owed: &str, paid: &str) -> Tx {
    (pass.to_string(), payer, payee, dec(owed), dec(paid))
}

fn transactions(result: &Value) -> Vec<Tx> {
    result["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["pass"].as_str().unwrap().to_string(),
                t["payer"].as_u64().unwrap() as u32,
                t["payee"].as_u64().unwrap() as u32,
                money(&t["owed"]),
                money(&t["paid"]),
            )
        })
        .collect()
}

/// Seat 1 holds `cards` and claims `claim`; seat 2 is a filler. Returns the
/// special credited to seat 1 and the special units seat 2 pays it.
fn claimed(ruleset: &str, cards: Cards, claim: &str) -> (String, i64) {
    let r = play(ruleset, vec![claiming(seat_with_cards(1, cards), claim), filler(2, &cards.text())]);
    let special = seat_result(&r, 1)["special"]
        .as_str()
        .unwrap_or_else(|| panic!("seat 1 is credited no special: {r}"))
        .to_string();
    (special, special_units(&r, 1, 2))
}

/// The special is detected both when claimed by name and by `best`, and paid
/// `value` by an ordinary hand.
fn assert_special(ruleset: &str, cards: Cards, name: &str, value: i64) {
    assert_eq!(claimed(ruleset, cards, name), (name.to_string(), value), "{ruleset}: claim {name} on {}", cards.text());
    assert_eq!(claimed(ruleset, cards, "best"), (name.to_string(), value), "{ruleset}: claim best on {}", cards.text());
}

/// Royalties reported for seat 1 holding `h` (against a filler) in `ruleset`.
fn royalties_of(ruleset: &str, h: Hand) -> i64 {
    let r = play(ruleset, vec![seat(1, h), filler(2, &Set(h).text())]);
    assert_eq!(seat_result(&r, 1)["fouled"], false, "{h:?} must not foul");
    seat_result(&r, 1)["royalties"].as_i64().unwrap()
}

/// `fantasyland_next` of seat 1 holding `h` (against a filler).
fn fantasyland_next(ruleset: &str, h: Hand, in_fantasyland: bool) -> bool {
    let r = play(ruleset, vec![with(seat(1, h), "in_fantasyland", in_fantasyland), filler(2, &Set(h).text())]);
    seat_result(&r, 1)["fantasyland_next"].as_bool().unwrap()
}

// ---------------------------------------------------------------------------
// Hands
// ---------------------------------------------------------------------------

// Four hands from one deck (no two share a card), no bonus hands except the
// four aces. STRONG > MIDDLING > WEAK in every row; ACES loses front and
// middle to each of them and wins every back with four aces.

/// Kings / three queens / nine-high heart flush.
const STRONG: Hand = hand("Ks Kh 2c", "Qs Qh Qd 3c 4d", "9h 8h 6h 5h 3h");
/// Jack high / pair of sevens / tens and nines.
const WEAK: Hand = hand("Jd Tc 8c", "7s 7d 2d 4c 5c", "9s 9d Td Th 2s");
/// Jacks / eights and sevens / three sixes.
const MIDDLING: Hand = hand("Js Jh 4s", "8s 8d 7h 7c 3s", "6s 6d 6c Kd Qc");
/// Nine high / pair of fives / four aces.
const ACES: Hand = hand("9c 4h 3d", "5s 5d Kc Jc Ts", "Ac Ad Ah As 2h");

/// Beats STRONG's back only (aces full), without a bonus hand; not with WEAK.
const ACES_FULL: Hand = hand("9c 4h 3d", "5s 5d Kc Jc Ts", "As Ah Ad 2h 2d");

// Hands that beat WEAK in every row, each with one kind of big hand.

/// Three kings in front, a queen-high straight, a seven-high flush.
const FRONT_TRIPS: Hand = hand("Ks Kh Kd", "Qs Jh Ts 9h 8s", "7h 6h 5h 3h 2h");
/// Jacks, a full house of eights in the middle, kings full in the back.
const MIDDLE_FULL_HOUSE: Hand = hand("Js Jh 2c", "8s 8h 8d 3c 3d", "Ks Kh Kd 6s 6h");
/// Four sixes in the middle under four kings in the back.
const MIDDLE_QUADS: Hand = hand("Js Jh 2c", "6s 6h 6d 6c 3c", "Ks Kh Kd Kc 3d");
/// Three queens in the middle, four sixes in the back.
const BACK_QUADS: Hand = hand("Ks Kh 2c", "Qs Qh Qd 3c 4d", "6s 6h 6d 6c 3h");
/// Three queens in the middle, an eight-high straight flush in the back.
const BACK_STRAIGHT_FLUSH: Hand = hand("Ks Kh 2c", "Qs Qh Qd 3c 4d", "8h 7h 6h 5h 4h");
/// A royal flush in the back; one ace.
const BACK_ROYAL: Hand = hand("Qh Qc 2c", "8s 8h 8d 3c 4d", "As Ks Qs Js Ts");

// Hands that beat WEAK_2 in every row.

/// King high / pair of sevens / nines and eights; no ace.
const WEAK_2: Hand = hand("Kd 9h 4c", "7s 7d 3s 4s 5h", "9s 9d 8s 8d 2s");
/// A six-high straight flush in the middle, a nine-high one in the back.
const MIDDLE_STRAIGHT_FLUSH: Hand = hand("Qs Qh 2c", "6d 5d 4d 3d 2d", "9c 8c 7c 6c 5c");
/// Royal flushes in the middle and the back (equal rows are no foul); two aces.
const TWO_ROYALS: Hand = hand("2c 2d 3c", "Ah Kh Qh Jh Th", "As Ks Qs Js Ts");

/// Wins front and middle; its four sixes in the back lose to
/// SF_WINNING_BACK's straight flush.
const QUADS_LOSING_BACK: Hand = hand("Ks Kh 2d", "Qs Qh Qd 3s 4d", "6s 6h 6d 6c 3h");
const SF_WINNING_BACK: Hand = hand("Jd Th 8h", "7s 7d 2s 4s 5h", "Jc Tc 9c 8c 7c");

/// Full houses in middle and back, beaten row by row by BIGGER_FULL_HOUSES.
const BIGGER_FULL_HOUSES: Hand = hand("Qs Qh 2d", "9s 9h 9d 4c 4d", "As Ah Ad 5s 5h");

// Pushes: the backs of PUSH_A and PUSH_B/PUSH_C are the same nine-high
// straight. PUSH_A wins the front against both; PUSH_B wins the middle,
// PUSH_C loses it.
const PUSH_A: Hand = hand("Ks Kh 2c", "7s 7h 3d 3s Js", "9c 8d 7c 6s 5h");
const PUSH_B: Hand = hand("Qs Qh 2d", "8s 8h 4c 4d Jh", "9d 8c 7d 6h 5s");
const PUSH_C: Hand = hand("Qs Qh 2d", "6d 6c 4c 4d Jh", "9d 8c 7d 6h 5s");
/// Loses every row to PUSH_A and PUSH_B.
const BELOW_PUSHES: Hand = hand("Jd 9s 4s", "6d 6c 2s 3h 5d", "Ts Th Td 4h 2h");

/// Three queens in front over a pair of sevens: fouled (its front would be
/// a bonus hand if it counted). Shares no card with MIDDLE_FULL_HOUSE.
const FOULED: Hand = hand("Qs Qd Qc", "7s 7d 2d 4c 5c", "9s 9d Td Th 2s");
/// Aces in front over kings: fouled, two aces. Shares no card with FOULED.
const FOULED_ACES: Hand = hand("As Ah 2c", "Ks Kd 3c 6c 5d", "9h 8h 7h 6h 4h");
/// Three aces in front over a pair of fives: fouled. Shares no card with
/// STRONG or MIDDLING; if it counted, its front and back would be the best.
const FOULED_TRIP_ACES: Hand = hand("Ah Ad Ac", "5s 5d Kc Jc Ts", "Td Th Tc 9s 9d");

// The bad beat: BAD_BEAT loses every row to both others.

/// Deuces / three threes / nine-high straight flush.
const BAD_BEAT: Hand = hand("2c 2d 3c", "3s 3h 3d 4c 5c", "9h 8h 7h 6h 5h");
/// Queens / three kings / jack-high straight flush.
const BEATS_BAD_BEAT: Hand = hand("Qs Qh 4s", "Ks Kh Kd 2s 4d", "Js Ts 9s 8s 7s");
/// Sevens / three sixes / queen-high straight flush.
const ALSO_BEATS_BAD_BEAT: Hand = hand("7d 7c 5s", "6s 6d 6c 2h 4h", "Qd Jd Td 9d 8d");

// Special hands.

const THREE_STRAIGHTS: Hand = hand("2s 3h 4c", "4s 5d 6s 7h 8c", "8d 9c Th Jd Qh");
const THREE_FLUSHES: Hand = hand("2c 5c 9c", "2s 4s 7s Ts Qs", "3h 6h 8h Jh Kh");
const TWELVE_ONE_COLOR: &str = "2h 3h 4h 5h 6h 7h 8d 9d Td Jd Qd Kd 2s";
/// Twelve black cards and one red; shares no card with SIX_PAIRS.
const TWELVE_BLACK: &str = "3s 4s 5s 7s 8s 9s Ts Js Qs Ks 9c Tc 8d";
const SIX_PAIRS: &str = "2h 2s 3c 3h 4c 4d 5c 5d 6h 6s 7c 7h 8c";
/// Shares no card with THREE_FLUSHES.
const SIX_PAIRS_2: &str = "2h 2d 3s 3d 4h 4d 5s 5h 6s 6d 7h 7d 8s";
const ALL_ONE_COLOR: &str = "2h 3h 4h 5h 6h 7h 8h 9d Td Jd Qd Kd 2d";
const DRAGON: &str = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jc Qs Kd Ac";
const DRAGON_2: &str = "2d 3h 4s 5c 6d 7h 8s 9c Td Jd Qh Kh Ad";
const DRAGON_NO_HEARTS: &str = "2c 3d 4s 5s 6c 7d 8s 9s Tc Jc Qs Kd Ac";
const ONE_SUIT: &str = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah";
/// Five pairs and three deuces.
const FIVE_PAIRS_TRIPLE: &str = "2c 2d 2h 4s 4c 6d 6h 8s 8c Td Ts Qd Qc";
/// Three straights with twelve red cards and the king of clubs.
const THREE_STRAIGHTS_TWELVE_RED: Hand = hand("2h 3d 4h", "5h 6d 7h 8d 9h", "9d Th Jd Qh Kc");
/// Six red pairs and a black eight.
const SIX_RED_PAIRS: &str = "2h 2d 3h 3d 4h 4d 5h 5d 6h 6d 7h 7d 8s";

// ---------------------------------------------------------------------------
// The result sheet (CONTRACT.md)
// ---------------------------------------------------------------------------

#[test]
fn a_showdown_without_a_preset_is_scored_under_hawaiian_gardens() {
    let r = score(&json!({"seats": [seat(1, STRONG), seat(2, WEAK)]}));
    assert_eq!(r["ruleset"], HG);
    assert_eq!(main_units(&r, 1, 2), 6);
}

#[test]
fn the_result_sheet_has_every_contract_field() {
    let r = score(&json!({
        "ruleset": HG,
        "seats": [
            with(seat(7, STRONG), "stack", "40"),
            with(seat(3, WEAK), "stack", "40.00"),
        ],
    }));
    assert_eq!(r["ruleset"], HG);
    let seats = r["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[0]["seat"], 7, "seats in the input's order");
    assert_eq!(seats[1]["seat"], 3);
    for (s, start, end) in [(&seats[0], "40", "46"), (&seats[1], "40", "34")] {
        assert_eq!(s["fouled"], false);
        assert_eq!(s["surrendered"], false);
        assert_eq!(s["special"], Value::Null);
        assert_eq!(s["aces"], 0);
        assert_eq!(s["royalties"], 0);
        assert_eq!(s["fantasyland_next"], false);
        assert_eq!(money(&s["stack_start"]), dec(start));
        assert_eq!(money(&s["rake"]), dec("0"));
        assert_eq!(money(&s["stack_end"]), dec(end));
        assert_eq!(money(&s["net"]), dec(end) - dec(start));
    }
    assert_eq!(pairs(&r), vec![([7, 3], 0, 6)]);
    assert_eq!(transactions(&r), vec![tx("main", 3, 7, "6", "6")]);
    assert_eq!(r["jackpot_triggers"], json!([]));
    assert_eq!(money(&r["jackpot_contribution"]), dec("0"));
}

// ---------------------------------------------------------------------------
// Cards (RULES §1)
// ---------------------------------------------------------------------------

#[test]
fn every_card_notation_scores_the_same() {
    let plain = play(HG, vec![seat(1, STRONG), seat(2, WEAK)]);
    let written_otherwise = play(
        HG,
        vec![
            rows(1, "k♠ K♥ 2C", "qs,QH,q♦ 3♣ 4d", "9♥, 8h,6H 5♥\t3h"),
            rows(2, "jd 10c 8♣", "7S 7♦ 2d 4c 5c", "9s 9d 10D T♥ 2♠"),
        ],
    );
    assert_eq!(plain, written_otherwise);
}

// ---------------------------------------------------------------------------
// Fouls (RULES §2, §3), judged the same in every preset
// ---------------------------------------------------------------------------

fn fouled(h: Hand) -> bool {
    let r = play(HG, vec![seat(1, h), filler(2, &Set(h).text())]);
    seat_result(&r, 1)["fouled"].as_bool().unwrap()
}

#[test]
fn a_front_equal_to_the_middle_in_the_compared_ranks_is_no_foul() {
    // Queens with a seven in both; the middle's lower kickers are not compared.
    assert!(!fouled(hand("Qh Qd 7c", "Qs Qc 7d 3c 2s", "As Ks Js 9s 8s")));
}

#[test]
fn a_front_kicker_above_the_middles_highest_kicker_is_a_foul() {
    assert!(fouled(hand("Qh Qd 8c", "Qs Qc 7d 3c 2s", "As Ks Js 9s 8s")));
}

#[test]
fn a_high_card_front_is_compared_with_the_middles_three_highest_ranks() {
    assert!(fouled(hand("Ah Kd Qc", "As Kc Jd Tc 8s", "2h 2d 3s 3h 4c")));
    assert!(!fouled(hand("Ah Kd Qc", "As Kc Qd 3c 2s", "5h 5d 6s 6h 7c")));
}

#[test]
fn a_back_weaker_than_the_middle_is_a_foul_and_equal_is_not() {
    assert!(fouled(hand("2h 3d 4c", "9s 9h 9d 5c 5s", "Ks Kh Kd 7c 6s")));
    assert!(!fouled(TWO_ROYALS));
}

#[test]
fn a_wheel_is_the_lowest_straight_and_there_is_no_wrap_around() {
    // Back A-2-3-4-5 is below middle 2-3-4-5-6: foul.
    assert!(fouled(hand("9h 8d 7c", "2s 3h 4d 5c 6s", "Ah 2d 3c 4s 5h")));
    // Back Q-K-A-2-3 is no straight, so it is below a middle pair of fours.
    assert!(fouled(hand("9h 8d 7c", "4s 4h 6d Tc Js", "Qh Kd Ac 2s 3h")));
}

#[test]
fn five_card_categories_rank_in_order() {
    // (lower, higher, a front below both): the higher in the back is no foul,
    // in the middle it is.
    for (lower, higher, front) in [
        ("Kc Jd 9h 7s 4c", "2s 2h 5d 8c Tc", "2d 3s 4s"),
        ("2s 2h 5d 8c Tc", "3s 3h 6d 6c Qd", "2d 3d 4s"),
        ("3s 3h 6d 6c Qd", "4s 4h 4d 9c Jh", "2s 3d 4c"),
        ("4s 4h 4d 9c Jh", "5s 6s 7d 8h 9d", "2s 3s 4c"),
        ("5s 6s 7d 8h 9d", "Ac Qc 8c 3c 2c", "2s 3s 4s"),
        ("Ac Qc 8c 3c 2c", "Ts Th Td 7s 7h", "2s 3s 4s"),
        ("Ts Th Td 7s 7h", "Js Jh Jd Jc 2d", "2s 3s 4s"),
        ("Js Jh Jd Jc 2d", "9s 8s 7s 6s 5s", "2s 3s 4s"),
    ] {
        assert!(!fouled(hand(front, lower, higher)), "{higher} over {lower}");
        assert!(fouled(hand(front, higher, lower)), "{lower} over {higher}");
    }
}

#[test]
fn five_card_ties_are_broken_by_ranks_in_order_of_significance() {
    let front = "Th 6s 2h";
    for (why, lower, higher) in [
        ("pair: the kickers in order", "9d 9c Ah 7h 4d", "9s 9h Ad 7c 5s"),
        ("two pair: the kicker", "Ks Kc 7s 7c 3d", "Kh Kd 7h 7d 5c"),
        ("two pair: the higher pair first", "Qh Qd Jh Jd 6c", "Ks Kc 3s 3d 5h"),
        ("full house: the trips first", "4s 4h 4d Ac As", "5s 5h 5d 6c 6h"),
        ("flush: all five ranks in order", "Ad Kd 9d 7d 2d", "As Ks 9s 8s 3s"),
        ("four of a kind: the rank first", "7s 7h 7d 7c As", "8s 8h 8d 8c 5h"),
        ("straight flush: the wheel is lowest", "5c 4c 3c 2c Ac", "6d 5d 4d 3d 2d"),
    ] {
        assert!(!fouled(hand(front, lower, higher)), "{why}");
        assert!(fouled(hand(front, higher, lower)), "{why}");
    }
    // Suits never break ties.
    assert!(!fouled(hand(front, "Ks Qs 9h 7h 5c", "Kd Qd 9c 7c 5h")));
    assert!(!fouled(hand(front, "Kd Qd 9c 7c 5h", "Ks Qs 9h 7h 5c")));
}

#[test]
fn a_three_card_straight_or_flush_front_is_plain_high_card() {
    // 4-3-2 of hearts loses the front to 5-3-2; seat 1 wins middle and back.
    let r = play(
        "simple",
        vec![
            rows(1, "2h 3h 4h", "Ks Kh 7c 7d 8s", "As Ah Ad 9c 9d"),
            rows(2, "5c 3d 2s", "Qs Qh 6c 6d 8h", "Kd Kc Qd Qc Js"),
        ],
    );
    assert_eq!(main_units(&r, 1, 2), 2 - 1);
}

// ---------------------------------------------------------------------------
// hawaiian-gardens (RULES §5.1)
// ---------------------------------------------------------------------------

#[test]
fn hg_a_sweep_pays_6() {
    let r = play(HG, vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 6);
}

#[test]
fn hg_winning_more_rows_pays_1() {
    // Two rows to one, an aces full back beating the flush (no bonus).
    let r = play(HG, vec![with(seat(1, STRONG), "aces_bet", false), seat(2, ACES_FULL)]);
    assert_eq!(main_units(&r, 1, 2), 1);
    // Two rows to none, the third a push.
    let r = play(HG, vec![seat(1, PUSH_A), seat(2, PUSH_C)]);
    assert_eq!(main_units(&r, 1, 2), 1);
}

#[test]
fn hg_equal_row_counts_pay_0() {
    // One row each, the back pushes.
    let r = play(HG, vec![seat(1, PUSH_A), seat(2, PUSH_B)]);
    assert_eq!(units(&r, 1, 2), (0, 0));
}

#[test]
fn hg_a_sweep_of_the_table_pays_9_from_each_opponent() {
    let r = play(HG, vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 1, 2), 9);
    assert_eq!(main_units(&r, 1, 3), 9);
    // MIDDLING sweeps WEAK but not the table.
    assert_eq!(main_units(&r, 3, 2), 6);
}

#[test]
fn hg_a_fouled_opponent_is_swept_too_for_the_sweep_of_the_table() {
    let r = play(HG, vec![seat(1, STRONG), seat(2, MIDDLING), with(seat(3, FOULED_TRIP_ACES), "aces_bet", false)]);
    assert_eq!(seat_result(&r, 3)["fouled"], true);
    assert_eq!(main_units(&r, 1, 2), 9);
    assert_eq!(main_units(&r, 1, 3), 9);
    assert_eq!(main_units(&r, 2, 3), 6);
}

#[test]
fn hg_no_sweep_of_the_table_with_only_one_normal_opponent() {
    // The third seat surrenders: STRONG's only normal outcome is with WEAK.
    let r = play(HG, vec![seat(1, STRONG), seat(2, WEAK), surrendering(seat(3, MIDDLING))]);
    assert_eq!(main_units(&r, 1, 2), 6);
    assert_eq!(main_units(&r, 1, 3), 3);
    assert_eq!(main_units(&r, 2, 3), 3);
    // The third seat claims a special: the same.
    let r = play(
        HG,
        vec![
            seat(1, STRONG),
            seat(2, WEAK),
            with(claiming(seat(3, THREE_STRAIGHTS_OTHER), "three-straights"), "aces_bet", false),
        ],
    );
    assert_eq!(main_units(&r, 1, 2), 6);
    assert_eq!(units(&r, 1, 3), (-4, 0));
}

#[test]
fn hg_a_sweep_of_the_table_ignores_a_surrendered_opponent() {
    let r = play(HG, vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING), surrendering(seat(4, ACES))]);
    assert_eq!(main_units(&r, 1, 2), 9);
    assert_eq!(main_units(&r, 1, 3), 9);
    // The surrender (3), less the aces bet (four aces: 8).
    assert_eq!(main_units(&r, 1, 4), 3 - 8);
}

/// Three straights sharing no card with STRONG or WEAK.
const THREE_STRAIGHTS_OTHER: Hand = hand("Ah 2h 3s", "3d 4h 5d 6d 7c", "8s 9c Ts Js Qc");

#[test]
fn hg_no_sweep_of_the_table_when_one_opponent_is_not_swept() {
    let r =
        play(HG, vec![with(seat(1, STRONG), "aces_bet", false), seat(2, WEAK), with(seat(3, ACES), "aces_bet", false)]);
    assert_eq!(main_units(&r, 1, 2), 6);
    // STRONG wins front and middle (1), ACES' back four of a kind pays 4.
    assert_eq!(main_units(&r, 1, 3), 1 - 4);
}

#[test]
fn hg_front_three_of_a_kind_bonus_is_3() {
    let r = play(HG, vec![seat(1, FRONT_TRIPS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 6 + 3);
}

#[test]
fn hg_middle_full_house_bonus_is_2() {
    let r = play(HG, vec![seat(1, MIDDLE_FULL_HOUSE), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 6 + 2);
}

#[test]
fn hg_middle_four_of_a_kind_bonus_is_8() {
    // The back must then be four of a kind as well (4).
    let r = play(HG, vec![seat(1, MIDDLE_QUADS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 6 + 8 + 4);
}

#[test]
fn hg_middle_straight_flush_bonus_is_10() {
    // The back must then be a straight flush as well (5).
    let r = play(HG, vec![seat(1, MIDDLE_STRAIGHT_FLUSH), seat(2, WEAK_2)]);
    assert_eq!(main_units(&r, 1, 2), 6 + 10 + 5);
}

#[test]
fn hg_back_four_of_a_kind_bonus_is_4() {
    let r = play(HG, vec![seat(1, BACK_QUADS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 6 + 4);
}

#[test]
fn hg_back_straight_flush_bonus_is_5() {
    let r = play(HG, vec![seat(1, BACK_STRAIGHT_FLUSH), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 6 + 5);
}

#[test]
fn hg_a_royal_flush_counts_as_a_straight_flush() {
    // Back royal 5, plus the aces bet: one ace (1) against none.
    let r = play(HG, vec![seat(1, BACK_ROYAL), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 6 + 5 + 1);
    // Middle royal 10, back royal 5, plus two aces (2) against none.
    let r = play(HG, vec![seat(1, TWO_ROYALS), seat(2, WEAK_2)]);
    assert_eq!(main_units(&r, 1, 2), 6 + 10 + 5 + 2);
}

#[test]
fn hg_bonuses_are_paid_only_on_rows_won() {
    // QUADS_LOSING_BACK wins front and middle (1); its four sixes lose the
    // back to a straight flush, which is paid its 5.
    let r = play(HG, vec![seat(1, QUADS_LOSING_BACK), seat(2, SF_WINNING_BACK)]);
    assert_eq!(main_units(&r, 1, 2), 1 - 5);
}

#[test]
fn hg_a_fouled_hand_loses_every_row_and_pays_the_winners_bonuses() {
    let r = play(HG, vec![seat(1, MIDDLE_FULL_HOUSE), seat(2, FOULED)]);
    assert_eq!(seat_result(&r, 2)["fouled"], true);
    assert_eq!(seat_result(&r, 1)["fouled"], false);
    // A sweep (6) and the middle full house (2); the fouled front trips pay nothing.
    assert_eq!(main_units(&r, 1, 2), 6 + 2);
}

#[test]
fn hg_two_fouled_hands_exchange_nothing_but_the_aces_bet() {
    let r = play(HG, vec![seat(1, FOULED_ACES), seat(2, FOULED)]);
    assert_eq!(seat_result(&r, 1)["fouled"], true);
    assert_eq!(seat_result(&r, 2)["fouled"], true);
    assert_eq!(seat_result(&r, 1)["aces"], 2);
    assert_eq!(main_units(&r, 1, 2), 2);
}

#[test]
fn hg_surrender_pays_3_and_two_surrenders_exchange_nothing() {
    let r = play(HG, vec![seat(1, STRONG), surrendering(seat(2, WEAK)), surrendering(loose(3, &Set(MIDDLING).text()))]);
    assert_eq!(main_units(&r, 1, 2), 3);
    assert_eq!(main_units(&r, 1, 3), 3);
    assert_eq!(main_units(&r, 2, 3), 0);
    assert_eq!(seat_result(&r, 2)["surrendered"], true);
    assert_eq!(seat_result(&r, 3)["surrendered"], true);
}

#[test]
fn hg_a_surrendered_seat_is_not_judged_for_a_foul() {
    let r = play(HG, vec![seat(1, MIDDLE_FULL_HOUSE), surrendering(seat(2, FOULED))]);
    assert_eq!(seat_result(&r, 2)["fouled"], false);
    assert_eq!(seat_result(&r, 2)["surrendered"], true);
    assert_eq!(main_units(&r, 1, 2), 3);
}

#[test]
fn hg_a_surrender_pays_a_fouled_opponent() {
    let r = play(HG, vec![surrendering(seat(1, MIDDLE_FULL_HOUSE)), seat(2, FOULED)]);
    assert_eq!(main_units(&r, 1, 2), -3);
}

#[test]
fn hg_special_three_straights_is_4() {
    assert_special(HG, Set(THREE_STRAIGHTS), "three-straights", 4);
}

#[test]
fn hg_three_straights_fronts_may_be_a_2_3_or_q_k_a() {
    let a23 = hand("Ah 2d 3c", "4s 5h 6d 7c 8s", "9h Td Jc Qs Kh");
    assert_eq!(claimed(HG, Set(a23), "three-straights"), ("three-straights".into(), 4));
    let qka = hand("Qh Kd Ac", "4s 5h 6d 7c 8s", "9h Td Jc Qs Kh");
    assert_eq!(claimed(HG, Set(qka), "three-straights"), ("three-straights".into(), 4));
}

#[test]
fn hg_three_straights_front_k_a_2_is_no_straight() {
    let k_a_2 = hand("Kh Ad 2c", "3s 4h 5d 6c 7s", "8h 9d Tc Js Qh");
    assert!(matches!(
        refused(HG, vec![claiming(seat(1, k_a_2), "three-straights"), filler(2, &Set(k_a_2).text())]),
        ShowdownError::ClaimNotMade { .. }
    ));
}

#[test]
fn hg_a_special_set_in_rows_is_never_a_foul() {
    // A dragon whose front (A-K-Q) is above its middle (seven high).
    let dragon = hand("Ac Kd Qs", "2c 3d 4h 5s 7d", "6c 8h 9s Tc Jc");
    assert!(fouled(dragon), "as an ordinary hand it fouls");
    let r = play(HG, vec![claiming(seat(1, dragon), "dragon"), filler(2, &Set(dragon).text())]);
    assert_eq!(seat_result(&r, 1)["fouled"], false);
    assert_eq!(seat_result(&r, 1)["special"], "dragon");
    assert_eq!(special_units(&r, 1, 2), 13);
}

#[test]
fn hg_special_three_flushes_is_4() {
    assert_special(HG, Set(THREE_FLUSHES), "three-flushes", 4);
}

#[test]
fn hg_three_flushes_may_set_the_stronger_flush_in_the_middle() {
    // Middle king-high flush over a queen-high back: a declared special is never a foul.
    let h = hand("2c 5c 9c", "3h 6h 8h Jh Kh", "2s 4s 7s Ts Qs");
    let r = play(HG, vec![claiming(seat(1, h), "three-flushes"), filler(2, &Set(h).text())]);
    assert_eq!(seat_result(&r, 1)["fouled"], false);
    assert_eq!(special_units(&r, 1, 2), 4);
}

#[test]
fn hg_special_twelve_one_color_is_4() {
    assert_special(HG, Loose(TWELVE_ONE_COLOR), "twelve-one-color", 4);
    assert_special(HG, Loose(TWELVE_BLACK), "twelve-one-color", 4);
}

#[test]
fn hg_special_six_pairs_is_4() {
    assert_special(HG, Loose(SIX_PAIRS), "six-pairs", 4);
}

#[test]
fn hg_six_pairs_counts_four_of_a_kind_as_two_pairs_and_trips_as_a_pair_and_the_odd_card() {
    let quads = "2c 2d 2h 2s 4c 4d 6h 6s 8c 8d Tc Td Kc";
    assert_eq!(claimed(HG, Loose(quads), "six-pairs"), ("six-pairs".into(), 4));
    assert_eq!(claimed(HG, Loose(FIVE_PAIRS_TRIPLE), "six-pairs"), ("six-pairs".into(), 4));
}

#[test]
fn hg_special_all_one_color_is_6() {
    assert_special(HG, Loose(ALL_ONE_COLOR), "all-one-color", 6);
}

#[test]
fn hg_special_dragon_is_13() {
    assert_special(HG, Loose(DRAGON), "dragon", 13);
}

#[test]
fn hg_special_one_suit_is_39_and_is_also_a_dragon() {
    assert_special(HG, Loose(ONE_SUIT), "one-suit", 39);
    assert_eq!(claimed(HG, Loose(ONE_SUIT), "dragon"), ("dragon".into(), 13));
    assert_eq!(claimed(HG, Loose(ONE_SUIT), "all-one-color"), ("all-one-color".into(), 6));
}

#[test]
fn hg_best_prefers_the_later_of_equal_values() {
    // three-straights (4) and twelve-one-color (4): the later is twelve-one-color.
    assert_eq!(claimed(HG, Set(THREE_STRAIGHTS_TWELVE_RED), "best"), ("twelve-one-color".into(), 4));
    assert_eq!(claimed(HG, Set(THREE_STRAIGHTS_TWELVE_RED), "three-straights"), ("three-straights".into(), 4));
    // twelve-one-color (4) and six-pairs (4): the later is six-pairs.
    assert_eq!(claimed(HG, Loose(SIX_RED_PAIRS), "best"), ("six-pairs".into(), 4));
    assert_eq!(claimed(HG, Loose(SIX_RED_PAIRS), "twelve-one-color"), ("twelve-one-color".into(), 4));
}

#[test]
fn hg_special_against_special_pays_the_difference() {
    let r = play(HG, vec![claiming(loose(1, DRAGON), "dragon"), claiming(loose(2, SIX_PAIRS), "six-pairs")]);
    assert_eq!(special_units(&r, 1, 2), 13 - 4);
    let r = play(HG, vec![claiming(loose(1, DRAGON_NO_HEARTS), "best"), claiming(loose(2, ONE_SUIT), "best")]);
    assert_eq!(special_units(&r, 2, 1), 39 - 13);
}

#[test]
fn hg_equal_specials_exchange_nothing() {
    let r = play(
        HG,
        vec![claiming(loose(1, SIX_PAIRS), "six-pairs"), claiming(loose(2, TWELVE_BLACK), "twelve-one-color")],
    );
    assert_eq!(special_units(&r, 1, 2), 0);
}

#[test]
fn hg_a_special_is_paid_by_every_opponent_and_takes_precedence_over_surrender() {
    let r = play(
        HG,
        vec![
            with(claiming(loose(1, DRAGON), "dragon"), "aces_bet", false),
            surrendering(seat(2, WEAK_2_FOR_DRAGON)),
            seat(3, OTHER_FOR_DRAGON),
        ],
    );
    assert_eq!(units(&r, 1, 2), (13, 0), "the surrender is not paid");
    assert_eq!(units(&r, 1, 3), (13, 0));
    assert_eq!(seat_result(&r, 1)["special"], "dragon");
}

/// Two ordinary hands sharing no card with DRAGON or each other; no aces.
const WEAK_2_FOR_DRAGON: Hand = hand("Js 9c 4s", "7s 7h 3s 5d 2h", "9h 9d 8s 8d 2s");
const OTHER_FOR_DRAGON: Hand = hand("Kh Ks 3c", "Qh Qd Qc 4c 5c", "Th Td Ts 6h 6d");

#[test]
fn hg_aces_bet_values_are_0_1_2_6_8() {
    // Every seat surrenders, so only the aces bet is exchanged.
    let two_aces = "As Ah 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs";
    let one_ace = "Ad 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh";
    let one_ace_2 = "Ac 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd";
    let no_ace = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ks";
    let r = play(
        HG,
        vec![
            surrendering(loose(1, two_aces)),
            surrendering(loose(2, one_ace)),
            surrendering(loose(3, one_ace_2)),
            surrendering(loose(4, no_ace)),
        ],
    );
    assert_eq!(main_units(&r, 1, 2), 2 - 1);
    assert_eq!(main_units(&r, 1, 3), 2 - 1);
    assert_eq!(main_units(&r, 1, 4), 2);
    assert_eq!(main_units(&r, 2, 3), 0);
    assert_eq!(main_units(&r, 2, 4), 1);
    assert_eq!(main_units(&r, 3, 4), 1);
    assert_eq!(seat_result(&r, 1)["aces"], 2);

    let three_aces = "As Ah Ad 2s 3s 4s 5s 6s 7s 8s 9s Ts Js";
    let r = play(
        HG,
        vec![
            surrendering(loose(1, three_aces)),
            surrendering(loose(2, "Ac 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh")),
            surrendering(loose(3, no_ace)),
        ],
    );
    assert_eq!(main_units(&r, 1, 2), 6 - 1);
    assert_eq!(main_units(&r, 1, 3), 6);

    let four_aces = "As Ah Ad Ac 2s 3s 4s 5s 6s 7s 8s 9s Ts";
    let r = play(HG, vec![surrendering(loose(1, four_aces)), surrendering(loose(2, no_ace))]);
    assert_eq!(main_units(&r, 1, 2), 8);
    assert_eq!(seat_result(&r, 1)["aces"], 4);
}

#[test]
fn hg_aces_bet_false_opts_a_seat_out() {
    let r = play(
        HG,
        vec![
            with(surrendering(loose(1, "As Ah 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs")), "aces_bet", false),
            surrendering(loose(2, "Ad 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh")),
            surrendering(loose(3, "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ks")),
        ],
    );
    assert_eq!(main_units(&r, 1, 2), 0);
    assert_eq!(main_units(&r, 1, 3), 0);
    assert_eq!(main_units(&r, 2, 3), 1);
    assert_eq!(seat_result(&r, 1)["aces"], 2, "aces are still reported");
}

#[test]
fn hg_aces_bet_is_added_to_a_special_outcome() {
    // The dragon holds one ace; the filler none.
    let r = play(HG, vec![claiming(loose(1, DRAGON), "dragon"), filler(2, DRAGON)]);
    assert_eq!(units(&r, 1, 2), (13, 1));
}

#[test]
fn hg_bad_beat_triggers_when_such_a_hand_loses_every_row() {
    let r = play(HG, vec![seat(1, BAD_BEAT), seat(2, BEATS_BAD_BEAT)]);
    assert_eq!(r["jackpot_triggers"], json!([{"kind": "bad-beat", "loser": 1, "winner": 2}]));
    // A sweep (6) and the winner's back straight flush (5).
    assert_eq!(main_units(&r, 2, 1), 6 + 5);
}

#[test]
fn hg_bad_beat_triggers_are_listed_in_settlement_order() {
    let seats = vec![seat(1, BEATS_BAD_BEAT), seat(2, BAD_BEAT), seat(3, ALSO_BEATS_BAD_BEAT)];
    let r = play(HG, seats.clone());
    assert_eq!(
        r["jackpot_triggers"],
        json!([
            {"kind": "bad-beat", "loser": 2, "winner": 1},
            {"kind": "bad-beat", "loser": 2, "winner": 3},
        ])
    );
    let r = score(&json!({"ruleset": HG, "dealer": 3, "seats": seats}));
    assert_eq!(
        r["jackpot_triggers"],
        json!([
            {"kind": "bad-beat", "loser": 2, "winner": 3},
            {"kind": "bad-beat", "loser": 2, "winner": 1},
        ])
    );
}

#[test]
fn hg_no_bad_beat_when_a_condition_is_missing() {
    let cases = [
        ("loses only two rows", BAD_BEAT, hand("Qs Jh 4s", "Ks Kh Kd 2s 4d", "Js Ts 9s 8s 7s")),
        ("front below a pair", hand("2c 5d 3c", "3s 3h 3d 4c 5c", "9h 8h 7h 6h 5h"), BEATS_BAD_BEAT),
        ("middle below three of a kind", hand("2c 2d 3c", "3s 3h 5d 5c 4c", "9h 8h 7h 6h 5h"), BEATS_BAD_BEAT),
        ("back not a straight flush", hand("2c 2d 3c", "3s 3h 3d 4c 5c", "9h 8h 7h 6h 4h"), BEATS_BAD_BEAT),
    ];
    for (why, loser, winner) in cases {
        let r = play(HG, vec![seat(1, loser), seat(2, winner)]);
        assert_eq!(r["jackpot_triggers"], json!([]), "{why}");
    }
    // Only hawaiian-gardens has the jackpot.
    let r = play("typical", vec![seat(1, BAD_BEAT), seat(2, BEATS_BAD_BEAT)]);
    assert_eq!(r["jackpot_triggers"], json!([]));
}

#[test]
fn hg_rake_comes_off_the_stack_and_its_jackpot_part_is_reported() {
    let r = score(&json!({
        "ruleset": HG,
        "rake": {"per_seat": "0.50", "jackpot": "0.10"},
        "seats": [
            with(seat(1, STRONG), "stack", "40"),
            with(seat(2, WEAK), "stack", "40"),
        ],
    }));
    let (s1, s2) = (seat_result(&r, 1), seat_result(&r, 2));
    assert_eq!(money(&s1["rake"]), dec("0.50"));
    assert_eq!(money(&s1["stack_end"]), dec("45.50"));
    assert_eq!(money(&s1["net"]), dec("5.50"));
    assert_eq!(money(&s2["stack_end"]), dec("33.50"));
    assert_eq!(money(&s2["net"]), dec("-6.50"));
    assert_eq!(money(&r["jackpot_contribution"]), dec("0.20"));
}

#[test]
fn hg_the_rake_reduces_what_a_seat_can_lose() {
    // Stack 5 less rake 1: exposure 4.
    let r = score(&json!({
        "ruleset": HG,
        "rake": {"per_seat": "1"},
        "seats": [seat(1, STRONG), with(seat(2, WEAK), "stack", "5")],
    }));
    assert_eq!(transactions(&r), vec![tx("main", 2, 1, "6", "4")]);
    assert_eq!(money(&seat_result(&r, 2)["stack_end"]), dec("0"));
    assert_eq!(money(&seat_result(&r, 1)["stack_end"]), dec("1003"));
    assert_eq!(money(&r["jackpot_contribution"]), dec("0"));
}

#[test]
fn hg_pair_units_set_a_pairs_own_stake() {
    let r = score(&json!({
        "ruleset": HG,
        "unit": "2",
        "pair_units": [{"seats": [3, 1], "unit": "10"}],
        "seats": [seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING)],
    }));
    assert_eq!(
        transactions(&r),
        vec![tx("main", 2, 1, "18", "18"), tx("main", 3, 1, "90", "90"), tx("main", 2, 3, "12", "12"),]
    );
}

/// STRONG, WEAK, MIDDLING, ACES as seats 1-4: the units of every pair,
/// as "what the second owes the first".
fn four_seat_units() -> Vec<((u32, u32), i64)> {
    vec![
        ((1, 2), 6),         // STRONG sweeps WEAK (no sweep of the table: it loses a back)
        ((1, 3), 6),         // STRONG sweeps MIDDLING
        ((1, 4), 1 - 4 - 8), // two rows to one, back quads 4, aces bet 8
        ((2, 3), -6),        // MIDDLING sweeps WEAK
        ((2, 4), 1 - 4 - 8),
        ((3, 4), 1 - 4 - 8),
    ]
}

#[test]
fn hg_pairs_are_listed_from_the_dealer_clockwise() {
    let seats = vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING), seat(4, ACES)];
    let r = play(HG, seats.clone());
    let listed: Vec<[u32; 2]> = pairs(&r).iter().map(|p| p.0).collect();
    assert_eq!(listed, vec![[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]]);
    for ((a, b), u) in four_seat_units() {
        assert_eq!(main_units(&r, a, b), u, "seats {a} and {b}");
    }

    let r = score(&json!({"ruleset": HG, "dealer": 3, "seats": seats}));
    assert_eq!(
        pairs(&r),
        vec![([3, 4], 0, -11), ([3, 1], 0, -6), ([3, 2], 0, 6), ([4, 1], 0, 11), ([4, 2], 0, 11), ([1, 2], 0, 6),]
    );
    assert_eq!(
        transactions(&r),
        vec![
            tx("main", 3, 4, "11", "11"),
            tx("main", 3, 1, "6", "6"),
            tx("main", 2, 3, "6", "6"),
            tx("main", 1, 4, "11", "11"),
            tx("main", 2, 4, "11", "11"),
            tx("main", 2, 1, "6", "6"),
        ]
    );
}

#[test]
fn hg_the_chip_bounded_settlement_example_of_rules_8() {
    // A (dealer, stack 8) = MIDDLING sweeps B = WEAK; C = STRONG sweeps A;
    // D = ACES would collect 11 from A (back quads 4, aces 8, less 1).
    let r = score(&json!({
        "ruleset": HG,
        "dealer": 1,
        "seats": [
            with(seat(1, MIDDLING), "stack", "8"),
            with(seat(2, WEAK), "stack", "100"),
            with(seat(3, STRONG), "stack", "100"),
            with(seat(4, ACES), "stack", "100"),
        ],
    }));
    assert_eq!(main_units(&r, 1, 2), 6);
    assert_eq!(main_units(&r, 3, 1), 6);
    assert_eq!(main_units(&r, 4, 1), 11);
    assert_eq!(
        transactions(&r),
        vec![
            tx("main", 2, 1, "6", "6"),
            tx("main", 1, 3, "6", "2"),
            tx("main", 1, 4, "11", "0"),
            tx("main", 2, 3, "6", "6"),
            tx("main", 2, 4, "11", "11"),
            tx("main", 3, 4, "11", "11"),
        ]
    );
    assert_eq!(money(&seat_result(&r, 1)["stack_end"]), dec("12"));
    assert_eq!(money(&seat_result(&r, 1)["net"]), dec("4"));
    assert_eq!(money(&seat_result(&r, 2)["stack_end"]), dec("77"));
    assert_eq!(money(&seat_result(&r, 3)["stack_end"]), dec("97"));
    assert_eq!(money(&seat_result(&r, 4)["stack_end"]), dec("122"));
}

#[test]
fn hg_a_winner_cannot_win_more_than_its_exposure() {
    // STRONG (stack 4) sweeps WEAK: owed 6, paid 4 (each chip is doubled or lost once).
    let r = score(&json!({
        "ruleset": HG,
        "seats": [with(seat(1, STRONG), "stack", "4"), seat(2, WEAK)],
    }));
    assert_eq!(transactions(&r), vec![tx("main", 2, 1, "6", "4")]);
    assert_eq!(money(&seat_result(&r, 1)["stack_end"]), dec("8"));
    assert_eq!(money(&seat_result(&r, 2)["stack_end"]), dec("996"));
}

#[test]
fn hg_what_a_seat_wins_uses_up_its_exposure_too() {
    // STRONG (stack 8) sweeps the table: 9 from each, but it can win only 8.
    let r = score(&json!({
        "ruleset": HG,
        "seats": [with(seat(1, STRONG), "stack", "8"), seat(2, WEAK), seat(3, MIDDLING)],
    }));
    assert_eq!(
        transactions(&r),
        vec![tx("main", 2, 1, "9", "8"), tx("main", 3, 1, "9", "0"), tx("main", 2, 3, "6", "6"),]
    );
    assert_eq!(money(&seat_result(&r, 1)["stack_end"]), dec("16"));
}

#[test]
fn hg_a_pair_with_a_unit_of_0_owes_no_money_and_has_no_transaction() {
    let r = score(&json!({
        "ruleset": HG,
        "pair_units": [{"seats": [1, 2], "unit": "0"}],
        "seats": [seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING)],
    }));
    assert_eq!(main_units(&r, 1, 2), 9, "units are still scored");
    assert_eq!(transactions(&r), vec![tx("main", 3, 1, "9", "9"), tx("main", 2, 3, "6", "6")]);
}

#[test]
fn hg_the_unit_is_the_money_value_of_one_unit() {
    let r = score(&json!({
        "ruleset": HG,
        "unit": "0.25",
        "seats": [seat(1, STRONG), seat(2, WEAK)],
    }));
    assert_eq!(transactions(&r), vec![tx("main", 2, 1, "1.50", "1.50")]);
    assert_eq!(money(&seat_result(&r, 1)["net"]), dec("1.5"));
}

#[test]
fn hg_a_seat_starting_with_no_exposure_takes_no_part() {
    let r = score(&json!({
        "ruleset": HG,
        "rake": {"per_seat": "0.50"},
        "seats": [seat(1, STRONG), with(seat(2, WEAK), "stack", "0.50")],
    }));
    assert_eq!(transactions(&r), vec![tx("main", 2, 1, "6", "0")]);
    assert_eq!(money(&seat_result(&r, 2)["stack_end"]), dec("0"));
}

#[test]
fn hg_the_special_pass_settles_before_the_main_pass() {
    // STRONG (stack 10) owes the dragon 13 in pass special, then is owed 6 by
    // WEAK in pass main, when its exposure is used up.
    let dragon = "2h 3s 4s 5s 6s 7h 8s 9c Ts Js Qc Kd Ac";
    let r = score(&json!({
        "ruleset": HG,
        "seats": [
            with(seat(1, STRONG), "stack", "10"),
            with(claiming(loose(2, dragon), "dragon"), "aces_bet", false),
            seat(3, WEAK),
        ],
    }));
    assert_eq!(units(&r, 1, 2), (-13, 0));
    assert_eq!(units(&r, 1, 3), (0, 6), "no sweep of the table: one normal opponent");
    assert_eq!(
        transactions(&r),
        vec![tx("special", 1, 2, "13", "10"), tx("special", 3, 2, "13", "13"), tx("main", 3, 1, "6", "0"),]
    );
    assert_eq!(money(&seat_result(&r, 1)["stack_end"]), dec("0"));
    assert_eq!(money(&seat_result(&r, 2)["stack_end"]), dec("1023"));
}

// ---------------------------------------------------------------------------
// simple (RULES §5.2)
// ---------------------------------------------------------------------------

#[test]
fn simple_pays_1_per_row_won_without_sweep_payment() {
    let r = play("simple", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    let r = play("simple", vec![seat(1, PUSH_A), seat(2, PUSH_C)]);
    assert_eq!(main_units(&r, 1, 2), 2, "a push pays nothing");
    let r = play("simple", vec![seat(1, PUSH_A), seat(2, PUSH_B)]);
    assert_eq!(main_units(&r, 1, 2), 0);
}

#[test]
fn simple_has_no_bonuses_and_no_side_bets() {
    let r = play("simple", vec![seat(1, FRONT_TRIPS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    // Four aces in the back: one row, no bonus, no aces bet.
    let r = play("simple", vec![seat(1, STRONG), seat(2, ACES)]);
    assert_eq!(main_units(&r, 1, 2), 1);
    assert_eq!(seat_result(&r, 2)["aces"], 4);
    assert!(matches!(
        refused("simple", vec![with(seat(1, STRONG), "aces_bet", true), seat(2, WEAK)]),
        ShowdownError::AcesBetNotAllowed { .. }
    ));
}

#[test]
fn simple_a_fouled_hand_pays_3() {
    let r = play("simple", vec![seat(1, MIDDLE_FULL_HOUSE), seat(2, FOULED)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    let r = play("simple", vec![seat(1, FOULED_ACES), seat(2, FOULED)]);
    assert_eq!(main_units(&r, 1, 2), 0);
}

#[test]
fn simple_surrender_pays_1() {
    let r = play("simple", vec![seat(1, STRONG), surrendering(seat(2, WEAK)), surrendering(seat(3, MIDDLING))]);
    assert_eq!(main_units(&r, 1, 2), 1);
    assert_eq!(main_units(&r, 1, 3), 1);
    assert_eq!(main_units(&r, 2, 3), 0);
}

#[test]
fn simple_has_no_specials() {
    assert!(matches!(
        refused("simple", vec![claiming(loose(1, DRAGON), "dragon"), filler(2, DRAGON)]),
        ShowdownError::UnknownSpecial { .. }
    ));
    assert!(matches!(
        refused("simple", vec![claiming(loose(1, DRAGON), "best"), filler(2, DRAGON)]),
        ShowdownError::ClaimNotMade { .. }
    ));
}

// ---------------------------------------------------------------------------
// typical (RULES §5.3)
// ---------------------------------------------------------------------------

const TYPICAL_FIRST: Hand = hand("6s 6h 6d", "4s 4h 4d 9s 9h", "Ks Kh Kd 8s 8h");
const TYPICAL_SECOND: Hand = hand("Qh Qd 7c", "Js Jh Jd 2s 2h", "5s 5h 5d 5c Ad");

#[test]
fn typical_example_pays_3_to_the_second_hand() {
    // Front trips 3 to the first; middle full house 2 and back quads 4 to the second.
    let r = play("typical", vec![seat(1, TYPICAL_FIRST), seat(2, TYPICAL_SECOND)]);
    assert_eq!(main_units(&r, 2, 1), 3);
    assert_eq!(transactions(&r), vec![tx("main", 1, 2, "3", "3")]);
}

#[test]
fn typical_pays_1_per_row_and_nothing_for_a_sweep() {
    let r = play("typical", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    let r = play("typical", vec![seat(1, PUSH_A), seat(2, PUSH_B)]);
    assert_eq!(main_units(&r, 1, 2), 0);
}

#[test]
fn typical_scale_replaces_the_1_for_a_row_won() {
    let cases = [
        ("front three of a kind 3", FRONT_TRIPS, WEAK, 3 + 1 + 1),
        ("middle full house 2", MIDDLE_FULL_HOUSE, WEAK, 1 + 2 + 1),
        ("middle and back four of a kind 4", MIDDLE_QUADS, WEAK, 1 + 4 + 4),
        ("back four of a kind 4", BACK_QUADS, WEAK, 1 + 1 + 4),
        ("middle and back straight flush 5", MIDDLE_STRAIGHT_FLUSH, WEAK_2, 1 + 5 + 5),
        ("back straight flush 5", BACK_STRAIGHT_FLUSH, WEAK, 1 + 1 + 5),
        ("back royal flush 5", BACK_ROYAL, WEAK, 1 + 1 + 5),
        ("two royal flushes", TWO_ROYALS, WEAK_2, 1 + 5 + 5),
    ];
    for (why, winner, loser, expected) in cases {
        let r = play("typical", vec![seat(1, winner), seat(2, loser)]);
        assert_eq!(main_units(&r, 1, 2), expected, "{why}");
    }
}

#[test]
fn typical_scale_counts_only_for_rows_won() {
    let r = play("typical", vec![seat(1, QUADS_LOSING_BACK), seat(2, SF_WINNING_BACK)]);
    assert_eq!(main_units(&r, 1, 2), 2 - 5);
}

#[test]
fn typical_a_fouled_hand_loses_every_row() {
    let r = play("typical", vec![seat(1, MIDDLE_FULL_HOUSE), seat(2, FOULED)]);
    assert_eq!(main_units(&r, 1, 2), 1 + 2 + 1);
    let r = play("typical", vec![seat(1, FOULED_ACES), seat(2, FOULED)]);
    assert_eq!(main_units(&r, 1, 2), 0, "no side bets, nothing between fouls");
}

#[test]
fn typical_surrender_pays_1() {
    let r = play("typical", vec![seat(1, STRONG), surrendering(seat(2, WEAK)), surrendering(seat(3, MIDDLING))]);
    assert_eq!(main_units(&r, 1, 2), 1);
    assert_eq!(main_units(&r, 1, 3), 1);
    assert_eq!(main_units(&r, 2, 3), 0);
}

#[test]
fn typical_specials_are_paid_their_value() {
    assert_special("typical", Loose(SIX_PAIRS), "six-pairs", 3);
    assert_special("typical", Set(THREE_STRAIGHTS), "three-straights", 3);
    assert_special("typical", Set(THREE_FLUSHES), "three-flushes", 3);
    assert_special("typical", Loose(DRAGON), "dragon", 13);
}

#[test]
fn typical_has_none_of_the_house_specials() {
    assert!(matches!(
        refused("typical", vec![claiming(loose(1, ONE_SUIT), "one-suit"), filler(2, ONE_SUIT)]),
        ShowdownError::UnknownSpecial { .. }
    ));
    // A one-suit hand is a dragon here.
    assert_eq!(claimed("typical", Loose(ONE_SUIT), "best"), ("dragon".into(), 13));
}

#[test]
fn typical_the_later_special_is_paid_its_full_value() {
    // three-flushes is later than six-pairs: paid 3 (not the difference 0).
    let r = play(
        "typical",
        vec![claiming(loose(1, SIX_PAIRS_2), "six-pairs"), claiming(seat(2, THREE_FLUSHES), "three-flushes")],
    );
    assert_eq!(special_units(&r, 2, 1), 3);
    // dragon is later than three-straights: paid 13 (not the difference 10).
    let r = play(
        "typical",
        vec![claiming(seat(1, THREE_STRAIGHTS), "three-straights"), claiming(loose(2, DRAGON), "dragon")],
    );
    assert_eq!(special_units(&r, 2, 1), 13);
}

/// Two specials of the same name under `typical`: the special units the
/// second seat pays the first.
fn same_name(name: &str, first: Cards, second: Cards) -> i64 {
    let r =
        play("typical", vec![claiming(seat_with_cards(1, first), name), claiming(seat_with_cards(2, second), name)]);
    special_units(&r, 1, 2)
}

#[test]
fn typical_six_pairs_against_six_pairs() {
    // Highest pair first: aces over kings.
    assert_eq!(
        same_name(
            "six-pairs",
            Loose("Ah Ad Jh Jd 9h 9d 7h 7d 5h 5d 3h 3d 2h"),
            Loose("Ks Kc Qs Qc Ts Tc 8s 8c 6s 6c 4s 4c 2s"),
        ),
        3
    );
    // The same pairs: the odd card decides.
    assert_eq!(
        same_name(
            "six-pairs",
            Loose("Kh Kd Qh Qd 9h 9d 7h 7d 5h 5d 3h 3d 2h"),
            Loose("Ks Kc Qs Qc 9s 9c 7s 7c 5s 5c 3s 3c 4s"),
        ),
        -3
    );
    // All the same ranks: nothing.
    assert_eq!(
        same_name(
            "six-pairs",
            Loose("Kh Kd Qh Qd 9h 9d 7h 7d 5h 5d 3h 3d 2h"),
            Loose("Ks Kc Qs Qc 9s 9c 7s 7c 5s 5c 3s 3c 2s"),
        ),
        0
    );
}

#[test]
fn typical_three_straights_against_three_straights() {
    // The higher straight: king-high over queen-high.
    assert_eq!(
        same_name(
            "three-straights",
            Set(hand("2c 3d 4h", "5s 6d 7c 8h 9s", "9d Tc Jh Qs Kd")),
            Set(hand("2s 3h 4c", "4s 5d 6c 7h 8s", "8d 9c Th Js Qh")),
        ),
        3
    );
    // The same higher straight: the other one, nine-high over eight-high.
    assert_eq!(
        same_name(
            "three-straights",
            Set(hand("2c 3d 4h", "5s 6d 7c 8h 9s", "9d Tc Jh Qs Kd")),
            Set(hand("2s 3h 4c", "4s 5d 6c 7h 8s", "9c Th Js Qh Kc")),
        ),
        3
    );
    // The same straights: the fronts, A-2-3 the lowest.
    assert_eq!(
        same_name(
            "three-straights",
            Set(hand("Ah 2c 3d", "5h 6s 7d 8c 9h", "5s 6d 7c 8h 9s")),
            Set(hand("2s 3h 4c", "5d 6c 7h 8s 9d", "5c 6h 7s 8d 9c")),
        ),
        -3
    );
    // A straight flush row ranks above any plain straight.
    assert_eq!(
        same_name(
            "three-straights",
            Set(hand("2c 3d 4s", "2h 3h 4h 5h 6h", "7c 8d 9s Th Jc")),
            Set(hand("2s 3c 4d", "8s 9d Tc Jd Qc", "9c Td Js Qh Kd")),
        ),
        3
    );
}

#[test]
fn typical_three_flushes_against_three_flushes() {
    // The better flush: king-high over queen-high.
    assert_eq!(
        same_name(
            "three-flushes",
            Set(hand("2c 4c 6c", "3h 5h 7h 9h Jh", "2s 4s 6s 8s Ks")),
            Set(hand("3c 5c 7c", "2d 4d 6d 8d Td", "3s 5s 7s 9s Qs")),
        ),
        3
    );
    // The same flushes: the fronts by rank.
    assert_eq!(
        same_name(
            "three-flushes",
            Set(hand("Qc Kc Ac", "2h 4h 6h 8h Th", "3s 5s 7s 9s Js")),
            Set(hand("2s 4s 6s", "2d 4d 6d 8d Td", "3c 5c 7c 9c Jc")),
        ),
        3
    );
}

#[test]
fn typical_three_flushes_a_straight_flush_row_ranks_above_any_flush() {
    assert_eq!(
        same_name(
            "three-flushes",
            Set(hand("2c 5c 9c", "2h 3h 4h 5h 6h", "2s 4s 7s Ts Qs")),
            Set(hand("3c 6c 8c", "As Ks 9s 8s 3s", "Ad Kd 9d 7d 2d")),
        ),
        3
    );
}

#[test]
fn typical_dragon_against_dragon_is_equal() {
    assert_eq!(same_name("dragon", Loose(DRAGON), Loose(DRAGON_2)), 0);
}

// ---------------------------------------------------------------------------
// ofc (RULES §5.4)
// ---------------------------------------------------------------------------

/// Sixes (1) / pair of tens / threes full (6): royalties 7.
const OFC_FIRST: Hand = hand("6s 6h 4s", "Ts Th 9s Qs 8s", "3s 3h 3d 2s 2h");
/// Ace high / nines and fives / king-high flush (4): royalties 4.
const OFC_SECOND: Hand = hand("Ac Kd Qh", "9h 9d 5s 5h 4h", "Kc Jc 8c 7c 2c");
/// Queens in front over jacks: fouled. No card of OFC_FIRST.
const OFC_FOULED: Hand = hand("Qd Qc Kh", "Jd Jc 5d 6d 7d", "Ad Ah 8d 8h 9c");
/// Aces in front over kings: fouled. No card of OFC_FOULED.
const OFC_FOULED_2: Hand = hand("As Ac 2c", "Ks Kc 3c 4c 5c", "Tc Td 6c 7c 9d");
/// Fives / eights and sevens / three sixes: no royalties; sweeps WEAK.
const NO_ROYALTIES: Hand = hand("5s 5h 2c", "8s 8d 7h 7c 3s", "6s 6d 6c Kd Qc");

#[test]
fn ofc_example_the_second_pays_the_first_4() {
    let r = play("ofc", vec![seat(1, OFC_FIRST), seat(2, OFC_SECOND)]);
    assert_eq!(seat_result(&r, 1)["royalties"], 7);
    assert_eq!(seat_result(&r, 2)["royalties"], 4);
    // Rows 2 to 1 (1), royalties 7 - 4.
    assert_eq!(main_units(&r, 1, 2), 4);
    assert_eq!(seat_result(&r, 2)["aces"], 1);
}

#[test]
fn ofc_a_scoop_adds_3() {
    let r = play("ofc", vec![seat(1, NO_ROYALTIES), seat(2, WEAK)]);
    assert_eq!(seat_result(&r, 1)["royalties"], 0);
    assert_eq!(seat_result(&r, 2)["royalties"], 0);
    assert_eq!(main_units(&r, 1, 2), 3 + 3);
    // With royalties: jacks in front (6).
    let r = play("ofc", vec![seat(1, MIDDLING), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3 + 3 + 6);
}

#[test]
fn ofc_two_rows_and_a_push_are_no_scoop() {
    // Royalties: KK 8 + back straight 2 against QQ 7 + back straight 2.
    let r = play("ofc", vec![seat(1, PUSH_A), seat(2, PUSH_C)]);
    assert_eq!(seat_result(&r, 1)["royalties"], 10);
    assert_eq!(seat_result(&r, 2)["royalties"], 9);
    assert_eq!(main_units(&r, 1, 2), 2 + 10 - 9);
}

#[test]
fn ofc_a_foul_pays_6_plus_the_winners_royalties() {
    let r = play("ofc", vec![seat(1, OFC_FIRST), seat(2, OFC_FOULED)]);
    assert_eq!(seat_result(&r, 2)["fouled"], true);
    assert_eq!(seat_result(&r, 2)["royalties"], 0, "a fouled hand has no royalties");
    assert_eq!(main_units(&r, 1, 2), 6 + 7);
}

#[test]
fn ofc_two_fouled_hands_exchange_nothing() {
    let r = play("ofc", vec![seat(1, OFC_FOULED), seat(2, OFC_FOULED_2)]);
    assert_eq!(units(&r, 1, 2), (0, 0));
    assert_eq!(transactions(&r), vec![]);
}

#[test]
fn ofc_a_surrender_is_a_declared_foul() {
    let r = play("ofc", vec![seat(1, MIDDLING), surrendering(seat(2, WEAK))]);
    let s = seat_result(&r, 2);
    assert_eq!(s["fouled"], true);
    assert_eq!(s["surrendered"], true);
    assert_eq!(s["royalties"], 0);
    assert_eq!(main_units(&r, 1, 2), 6 + 6);
    // Two declared fouls exchange nothing.
    let r = play("ofc", vec![surrendering(seat(1, MIDDLING)), surrendering(loose(2, &Set(WEAK).text()))]);
    assert_eq!(main_units(&r, 1, 2), 0);
    assert_eq!(seat_result(&r, 2)["fouled"], true);
}

#[test]
fn ofc_has_no_specials_and_no_side_bets() {
    assert!(matches!(
        refused("ofc", vec![claiming(loose(1, DRAGON), "dragon"), filler(2, DRAGON)]),
        ShowdownError::UnknownSpecial { .. }
    ));
    assert!(matches!(
        refused("ofc", vec![with(seat(1, OFC_FIRST), "aces_bet", true), seat(2, OFC_SECOND)]),
        ShowdownError::AcesBetNotAllowed { .. }
    ));
}

/// Front pairs over a middle of threes and deuces and a back of fives and fours.
fn front_pair(front: &'static str) -> Hand {
    hand(front, "2s 2h 3s 3h 4c", "5s 5h 4s 4h Ks")
}

#[test]
fn ofc_front_pair_royalties_66_1_to_aa_9() {
    for (front, units) in [
        ("5d 5c 7d", 0),
        ("6d 6c 7d", 1),
        ("7d 7c 8d", 2),
        ("8d 8c 7d", 3),
        ("9d 9c 7d", 4),
        ("Td Tc 7d", 5),
        ("Jd Jc 7d", 6),
        ("Qd Qc 7d", 7),
        ("Kd Kc 7d", 8),
        ("Ad Ac 7d", 9),
    ] {
        assert_eq!(royalties_of("ofc", front_pair(front)), units, "front {front}");
    }
}

#[test]
fn ofc_front_trips_royalties_222_10_to_aaa_22() {
    // Middle eight-high straight (4) and back king-high straight (2) with each.
    for (front, units) in [
        ("2s 2h 2d", 10),
        ("3s 3h 3d", 11),
        ("4h 4d 4c", 12),
        ("5h 5d 5c", 13),
        ("6s 6d 6c", 14),
        ("7s 7d 7c", 15),
        ("8s 8h 8d", 16),
        ("9s 9h 9c", 17),
        ("Ts Td Tc", 18),
        ("Js Jd Jc", 19),
        ("Qs Qd Qc", 20),
        ("Ks Kh Kc", 21),
        ("As Ah Ad", 22),
    ] {
        let h = hand(front, "4s 5s 6h 7h 8c", "9d Th Jh Qh Kd");
        assert_eq!(royalties_of("ofc", h), units + 4 + 2, "front {front}");
    }
}

#[test]
fn ofc_middle_royalties() {
    let front = "2s 4h 6d";
    for (why, middle, back, units) in [
        ("trips 2, back trips 0", "3s 3h 3d 8c 9c", "5s 5h 5d Tc Jc", 2),
        ("straight 4, back straight 2", "3s 4s 5h 6h 7c", "8d 9d Tc Js Qh", 4 + 2),
        ("flush 8, back flush 4", "3c 5c 7c 9c Jc", "2h 3h 8h Th Kh", 8 + 4),
        ("full house 12, back full house 6", "3s 3h 3d 5c 5s", "9s 9h 9d 7c 7s", 12 + 6),
        ("quads 20, back quads 10", "3s 3h 3d 3c 5s", "9s 9h 9d 9c 7s", 20 + 10),
        ("straight flush 30, back 15", "3c 4c 5c 6c 7c", "8d 9d Td Jd Qd", 30 + 15),
        ("royal flush 50, back royal 25", "Ac Kc Qc Jc Tc", "Ah Kh Qh Jh Th", 50 + 25),
    ] {
        assert_eq!(royalties_of("ofc", hand(front, middle, back)), units, "{why}");
    }
}

#[test]
fn ofc_back_royalties() {
    let (front, middle) = ("2s 4h 6d", "3s 3h 8d 9d Jd");
    for (why, back, units) in [
        ("trips", "5s 5h 5d 7c Kc", 0),
        ("straight", "5c 6c 7h 8h 9s", 2),
        ("flush", "2c 5c 7c 9c Jc", 4),
        ("full house", "5s 5h 5d 7c 7s", 6),
        ("four of a kind", "5s 5h 5d 5c 7s", 10),
        ("straight flush", "5c 6c 7c 8c 9c", 15),
        ("royal flush", "As Ks Qs Js Ts", 25),
    ] {
        assert_eq!(royalties_of("ofc", hand(front, middle, back)), units, "{why}");
    }
}

#[test]
fn royalties_are_0_outside_the_ofc_presets() {
    for preset in ["hawaiian-gardens", "simple", "typical", "two-four"] {
        let r = play(preset, vec![seat(1, OFC_FIRST), seat(2, OFC_SECOND)]);
        assert_eq!(seat_result(&r, 1)["royalties"], 0, "{preset}");
    }
}

/// A middle of threes and fours and a back of sixes full, under each front.
fn fantasy_front(front: &'static str) -> Hand {
    hand(front, "3s 3h 4s 4h 5c", "6s 6h 6d 7c 7s")
}
/// Three deuces in front, three threes in the middle.
const FRONT_TRIPS_FL: Hand = hand("2h 2d 2c", "3s 3h 3d 4c 5c", "6s 6h 6d 7c 7s");
/// A middle full house, nothing else.
const MIDDLE_FULL_HOUSE_FL: Hand = hand("2h 3d 4c", "5s 5h 5d 7c 7s", "9s 9h 9d 8c 8s");
/// Back four of a kind, nothing else.
const BACK_QUADS_FL: Hand = hand("2h 3d 4c", "5s 5h 7d 7c 8s", "9s 9h 9d 9c 8h");

#[test]
fn ofc_fantasyland_entry_needs_queens_or_better_in_front() {
    for preset in ["ofc", "ofc-pineapple"] {
        assert!(!fantasyland_next(preset, fantasy_front("Jh Jd 2c"), false), "{preset} JJ");
        assert!(fantasyland_next(preset, fantasy_front("Qh Qd 2c"), false), "{preset} QQ");
        assert!(fantasyland_next(preset, fantasy_front("Kh Kd 2c"), false), "{preset} KK");
        assert!(fantasyland_next(preset, fantasy_front("Ah Ad 2c"), false), "{preset} AA");
        assert!(fantasyland_next(preset, FRONT_TRIPS_FL, false), "{preset} 222");
        // Big hands elsewhere do not enter.
        assert!(!fantasyland_next(preset, BACK_QUADS_FL, false), "{preset} back quads");
    }
}

#[test]
fn ofc_a_fouled_hand_does_not_enter_fantasyland() {
    let r = play("ofc", vec![seat(1, OFC_FIRST), seat(2, OFC_FOULED)]);
    assert_eq!(seat_result(&r, 2)["fantasyland_next"], false, "QQ but fouled");
    // A surrender is a declared foul.
    let queens = fantasy_front("Qh Qd 2c");
    let r = play("ofc", vec![surrendering(seat(1, queens)), filler(2, &Set(queens).text())]);
    assert_eq!(seat_result(&r, 1)["fantasyland_next"], false);
}

#[test]
fn ofc_fantasyland_stay_rules() {
    assert!(fantasyland_next("ofc", FRONT_TRIPS_FL, true), "front trips");
    assert!(fantasyland_next("ofc", MIDDLE_FULL_HOUSE_FL, true), "middle full house");
    assert!(fantasyland_next("ofc", BACK_QUADS_FL, true), "back quads");
    assert!(fantasyland_next("ofc", hand("2h 3d 4c", "5s 5h 7d 7c 8s", "9s Ts Js Qs Ks"), true), "back straight flush");
    assert!(!fantasyland_next("ofc", fantasy_front("Qh Qd 2c"), true), "front QQ does not stay");
    assert!(!fantasyland_next("ofc", fantasy_front("Ah Ad 2c"), true), "front AA does not stay");
}

#[test]
fn ofc_fantasyland_is_not_allowed_outside_the_ofc_presets() {
    assert!(matches!(
        refused(HG, vec![with(seat(1, STRONG), "in_fantasyland", true), seat(2, WEAK)]),
        ShowdownError::FantasylandNotAllowed { .. }
    ));
}

// ---------------------------------------------------------------------------
// ofc-pineapple (RULES §5.5)
// ---------------------------------------------------------------------------

#[test]
fn pineapple_scores_as_ofc() {
    let r = play("ofc-pineapple", vec![seat(1, OFC_FIRST), seat(2, OFC_SECOND)]);
    assert_eq!(main_units(&r, 1, 2), 4);
    let r = play("ofc-pineapple", vec![seat(1, OFC_FIRST), seat(2, OFC_FOULED)]);
    assert_eq!(main_units(&r, 1, 2), 6 + 7);
    let r = play("ofc-pineapple", vec![seat(1, MIDDLING), surrendering(seat(2, WEAK))]);
    assert_eq!(seat_result(&r, 2)["fouled"], true);
    assert_eq!(main_units(&r, 1, 2), 6 + 6);
}

#[test]
fn pineapple_discards_are_not_among_the_13_but_count_for_duplicates() {
    let r = play(
        "ofc-pineapple",
        vec![with(seat(1, OFC_FIRST), "discards", "Ad 7h 5d"), with(seat(2, OFC_SECOND), "discards", "Jh Td")],
    );
    assert_eq!(main_units(&r, 1, 2), 4);
    assert_eq!(seat_result(&r, 1)["aces"], 0, "a discarded ace is not held");
    // A discard that another seat holds.
    let e = refused("ofc-pineapple", vec![with(seat(1, OFC_FIRST), "discards", "Ad 7h Ac"), seat(2, OFC_SECOND)]);
    assert!(matches!(e, ShowdownError::DuplicateCard { .. }), "{e}");
    assert!(e.to_string().contains("Ac"), "{e}");
    // A discard that the seat itself holds.
    let e = refused("ofc-pineapple", vec![with(seat(1, OFC_FIRST), "discards", "6s"), seat(2, OFC_SECOND)]);
    assert!(matches!(e, ShowdownError::DuplicateCard { .. }), "{e}");
}

#[test]
fn pineapple_fantasyland_stay_rules() {
    assert!(fantasyland_next("ofc-pineapple", FRONT_TRIPS_FL, true), "front trips");
    assert!(fantasyland_next("ofc-pineapple", BACK_QUADS_FL, true), "back quads");
    assert!(!fantasyland_next("ofc-pineapple", MIDDLE_FULL_HOUSE_FL, true), "a middle full house does not keep it");
    assert!(fantasyland_next("ofc", MIDDLE_FULL_HOUSE_FL, true), "but does in ofc");
}

#[test]
fn pineapple_royalties_are_those_of_ofc() {
    assert_eq!(royalties_of("ofc-pineapple", OFC_FIRST), 7);
    assert_eq!(royalties_of("ofc-pineapple", hand("2s 4h 6d", "Ac Kc Qc Jc Tc", "Ah Kh Qh Jh Th")), 75);
}

// ---------------------------------------------------------------------------
// two-four: 1 per row won plus extras on rows won (front trips 2, middle full
// house 1, quads 3, straight flush 4), the overall point; surrender 2.
// ---------------------------------------------------------------------------

#[test]
fn two_four_rows_and_the_overall_point() {
    let r = play("two-four", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3 + 1);
    let r = play("two-four", vec![seat(1, STRONG), seat(2, ACES_FULL)]);
    assert_eq!(main_units(&r, 1, 2), (2 + 1) - 1);
    let r = play("two-four", vec![seat(1, PUSH_A), seat(2, PUSH_C)]);
    assert_eq!(main_units(&r, 1, 2), 2 + 1);
    let r = play("two-four", vec![seat(1, PUSH_A), seat(2, PUSH_B)]);
    assert_eq!(main_units(&r, 1, 2), 0, "equal totals: no overall point");
}

#[test]
fn two_four_extras_on_rows_won() {
    let cases = [
        ("front trips 2", FRONT_TRIPS, WEAK, 3 + 2 + 1),
        ("middle full house 1", MIDDLE_FULL_HOUSE, WEAK, 3 + 1 + 1),
        ("middle and back quads 3", MIDDLE_QUADS, WEAK, 3 + 3 + 3 + 1),
        ("middle and back straight flush 4", MIDDLE_STRAIGHT_FLUSH, WEAK_2, 3 + 4 + 4 + 1),
        ("back straight flush 4", BACK_STRAIGHT_FLUSH, WEAK, 3 + 4 + 1),
    ];
    for (why, winner, loser, expected) in cases {
        let r = play("two-four", vec![seat(1, winner), seat(2, loser)]);
        assert_eq!(main_units(&r, 1, 2), expected, "{why}");
    }
    // Back quads win one row: 1 + 3, and the overall point, against 2.
    let r = play("two-four", vec![seat(1, STRONG), seat(2, ACES)]);
    assert_eq!(main_units(&r, 2, 1), (1 + 3 + 1) - 2);
}

#[test]
fn two_four_extras_not_on_rows_lost() {
    // Quads lose the back: 2 against 1 + 4 and the overall point.
    let r = play("two-four", vec![seat(1, QUADS_LOSING_BACK), seat(2, SF_WINNING_BACK)]);
    assert_eq!(main_units(&r, 2, 1), (1 + 4 + 1) - 2);
    let r = play("two-four", vec![seat(1, MIDDLE_FULL_HOUSE), seat(2, BIGGER_FULL_HOUSES)]);
    assert_eq!(main_units(&r, 2, 1), 3 + 1 + 1);
}

#[test]
fn two_four_surrender_pays_2() {
    let r = play("two-four", vec![seat(1, STRONG), surrendering(seat(2, WEAK)), surrendering(seat(3, MIDDLING))]);
    assert_eq!(main_units(&r, 1, 2), 2);
    assert_eq!(main_units(&r, 1, 3), 2);
    assert_eq!(main_units(&r, 2, 3), 0);
}

// ---------------------------------------------------------------------------
// sweep-bonus: 1 per row won plus 3 for a sweep; surrender 1.
// ---------------------------------------------------------------------------

#[test]
fn sweep_bonus_rows_and_the_sweep() {
    let r = play("sweep-bonus", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3 + 3);
    let r = play("sweep-bonus", vec![seat(1, STRONG), seat(2, ACES_FULL)]);
    assert_eq!(main_units(&r, 1, 2), 1);
    let r = play("sweep-bonus", vec![seat(1, PUSH_A), seat(2, PUSH_C)]);
    assert_eq!(main_units(&r, 1, 2), 2, "two rows and a push is no sweep");
    // No bonus hands.
    let r = play("sweep-bonus", vec![seat(1, MIDDLE_QUADS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3 + 3);
    // A fouled hand is swept.
    let r = play("sweep-bonus", vec![seat(1, MIDDLE_FULL_HOUSE), seat(2, FOULED)]);
    assert_eq!(main_units(&r, 1, 2), 3 + 3);
}

#[test]
fn sweep_bonus_surrender_pays_1() {
    let r = play("sweep-bonus", vec![seat(1, STRONG), surrendering(seat(2, WEAK)), surrendering(seat(3, MIDDLING))]);
    assert_eq!(main_units(&r, 1, 2), 1);
    assert_eq!(main_units(&r, 1, 3), 1);
    assert_eq!(main_units(&r, 2, 3), 0);
}

// ---------------------------------------------------------------------------
// irrespective: 1 per row won; extras whether the row wins or loses (front
// trips 2, middle full house 1, quads 3, straight flush 4); the overall
// point; surrender 2.
// ---------------------------------------------------------------------------

#[test]
fn irrespective_extras_on_rows_won() {
    let cases = [
        ("front trips 2", FRONT_TRIPS, WEAK, 3 + 2 + 1),
        ("middle full house 1", MIDDLE_FULL_HOUSE, WEAK, 3 + 1 + 1),
        ("middle and back quads 3", MIDDLE_QUADS, WEAK, 3 + 3 + 3 + 1),
        ("back quads 3", BACK_QUADS, WEAK, 3 + 3 + 1),
        ("middle and back straight flush 4", MIDDLE_STRAIGHT_FLUSH, WEAK_2, 3 + 4 + 4 + 1),
        ("back straight flush 4", BACK_STRAIGHT_FLUSH, WEAK, 3 + 4 + 1),
    ];
    for (why, winner, loser, expected) in cases {
        let r = play("irrespective", vec![seat(1, winner), seat(2, loser)]);
        assert_eq!(main_units(&r, 1, 2), expected, "{why}");
    }
}

#[test]
fn irrespective_extras_count_on_rows_lost() {
    // Four sixes lose the back but count 3: 2 + 3 against 1 + 4, no overall point.
    let r = play("irrespective", vec![seat(1, QUADS_LOSING_BACK), seat(2, SF_WINNING_BACK)]);
    assert_eq!(main_units(&r, 1, 2), 0);
    // A middle full house loses to a bigger one; both count 1.
    let r = play("irrespective", vec![seat(1, MIDDLE_FULL_HOUSE), seat(2, BIGGER_FULL_HOUSES)]);
    assert_eq!(main_units(&r, 2, 1), (3 + 1 + 1) - 1);
}

#[test]
fn irrespective_surrender_pays_2() {
    let r = play("irrespective", vec![seat(1, STRONG), surrendering(seat(2, WEAK)), surrendering(seat(3, MIDDLING))]);
    assert_eq!(main_units(&r, 1, 2), 2);
    assert_eq!(main_units(&r, 1, 3), 2);
    assert_eq!(main_units(&r, 2, 3), 0);
}

// ---------------------------------------------------------------------------
// singapore: the typical scale and specials, plus small-cards (no card
// above ten), first in order.
// ---------------------------------------------------------------------------

const SMALL_CARDS: &str = "2c 3d 4h 5s 6c 7d 8h 9s Tc 2d 3h 4s 5c";
/// Six pairs from nine up: shares no card with SMALL_CARDS.
const BIG_SIX_PAIRS: &str = "9h 9d Th Td Jh Jd Qh Qd Kh Kd Ah Ad 8d";

#[test]
fn singapore_uses_the_typical_scale() {
    let r = play("singapore", vec![seat(1, TYPICAL_FIRST), seat(2, TYPICAL_SECOND)]);
    assert_eq!(main_units(&r, 2, 1), 3);
    let r = play("singapore", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3);
}

#[test]
fn singapore_specials() {
    assert_special("singapore", Loose(SMALL_CARDS), "small-cards", 3);
    assert_special("singapore", Loose(BIG_SIX_PAIRS), "six-pairs", 3);
    assert_special("singapore", Set(THREE_STRAIGHTS), "three-straights", 3);
    assert_special("singapore", Set(THREE_FLUSHES), "three-flushes", 3);
    assert_special("singapore", Loose(DRAGON), "dragon", 13);
    // Small cards and six pairs: best takes six-pairs, the later one.
    let both = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c";
    assert_eq!(claimed("singapore", Loose(both), "best"), ("six-pairs".into(), 3));
    assert_eq!(claimed("singapore", Loose(both), "small-cards"), ("small-cards".into(), 3));
}

#[test]
fn singapore_the_later_special_is_paid_its_full_value() {
    let r = play(
        "singapore",
        vec![claiming(loose(1, SMALL_CARDS), "small-cards"), claiming(loose(2, BIG_SIX_PAIRS), "six-pairs")],
    );
    assert_eq!(special_units(&r, 2, 1), 3);
}

#[test]
fn singapore_surrender_pays_1() {
    let r = play("singapore", vec![seat(1, STRONG), surrendering(seat(2, WEAK))]);
    assert_eq!(main_units(&r, 1, 2), 1);
}

// ---------------------------------------------------------------------------
// vietnamese: 1 per row won, doubled for all three rows (a foul pays 6);
// specials; no surrender.
// ---------------------------------------------------------------------------

#[test]
fn vietnamese_rows_doubled_for_all_three() {
    let r = play("vietnamese", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3 * 2);
    let r = play("vietnamese", vec![seat(1, STRONG), seat(2, ACES_FULL)]);
    assert_eq!(main_units(&r, 1, 2), 1);
    let r = play("vietnamese", vec![seat(1, PUSH_A), seat(2, PUSH_C)]);
    assert_eq!(main_units(&r, 1, 2), 2, "two rows and a push are not doubled");
    let r = play("vietnamese", vec![seat(1, MIDDLE_QUADS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 6, "no bonus hands");
}

#[test]
fn vietnamese_a_foul_pays_6() {
    let r = play("vietnamese", vec![seat(1, MIDDLE_FULL_HOUSE), seat(2, FOULED)]);
    assert_eq!(main_units(&r, 1, 2), 6);
}

#[test]
fn vietnamese_specials() {
    assert_special("vietnamese", Set(THREE_STRAIGHTS), "three-straights", 6);
    assert_special("vietnamese", Set(THREE_FLUSHES), "three-flushes", 6);
    assert_special("vietnamese", Loose(SIX_PAIRS), "six-pairs", 6);
    assert_special("vietnamese", Loose(FIVE_PAIRS_TRIPLE), "five-pairs-triple", 6);
    assert_special("vietnamese", Loose(DRAGON), "dragon", 24);
    assert_special("vietnamese", Loose(ONE_SUIT), "one-suit", 26);
    // Five pairs and a triple are also six pairs (equal value, earlier).
    assert_eq!(claimed("vietnamese", Loose(FIVE_PAIRS_TRIPLE), "six-pairs"), ("six-pairs".into(), 6));
}

#[test]
fn vietnamese_the_later_special_is_paid_its_full_value() {
    let r = play(
        "vietnamese",
        vec![claiming(loose(1, ONE_SUIT), "one-suit"), claiming(loose(2, DRAGON_NO_HEARTS), "dragon")],
    );
    assert_eq!(special_units(&r, 1, 2), 26);
}

#[test]
fn vietnamese_has_no_surrender() {
    assert!(matches!(
        refused("vietnamese", vec![seat(1, STRONG), surrendering(seat(2, WEAK))]),
        ShowdownError::SurrenderNotAllowed { .. }
    ));
}

// ---------------------------------------------------------------------------
// malayan: three players against the bank (the dealer); the bank wins equal
// rows; extras counted whether the row wins or loses (front trips 2, middle
// full house 2, middle quads 6, middle straight flush 8, back quads 4, back
// straight flush 6); the long special schedule; no surrender.
// ---------------------------------------------------------------------------

#[test]
fn malayan_only_the_bank_plays_each_player() {
    let r = play("malayan", vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING), seat(4, ACES)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    assert_eq!(main_units(&r, 1, 3), 3);
    // ACES wins the back with four aces (1 + 4) against two rows.
    assert_eq!(main_units(&r, 1, 4), 2 - (1 + 4));
    for (a, b) in [(2, 3), (2, 4), (3, 4)] {
        assert_eq!(units(&r, a, b), (0, 0), "players {a} and {b}");
    }
    assert_eq!(pairs(&r).len(), 6, "every pair is still listed");
    assert_eq!(
        transactions(&r),
        vec![tx("main", 2, 1, "3", "3"), tx("main", 3, 1, "3", "3"), tx("main", 1, 4, "3", "3"),]
    );
}

#[test]
fn malayan_the_bank_wins_equal_rows() {
    let r = play("malayan", vec![seat(1, PUSH_A), seat(2, PUSH_B)]);
    assert_eq!(main_units(&r, 1, 2), 2 - 1);
    let r = score(&json!({
        "ruleset": "malayan",
        "dealer": 2,
        "seats": [seat(1, PUSH_A), seat(2, PUSH_B)],
    }));
    assert_eq!(main_units(&r, 2, 1), 2 - 1);
}

#[test]
fn malayan_extras() {
    let cases = [
        ("front trips 2", FRONT_TRIPS, WEAK, 3 + 2),
        ("middle full house 2", MIDDLE_FULL_HOUSE, WEAK, 3 + 2),
        ("middle quads 6, back quads 4", MIDDLE_QUADS, WEAK, 3 + 6 + 4),
        ("back quads 4", BACK_QUADS, WEAK, 3 + 4),
        ("middle straight flush 8, back 6", MIDDLE_STRAIGHT_FLUSH, WEAK_2, 3 + 8 + 6),
        ("back straight flush 6", BACK_STRAIGHT_FLUSH, WEAK, 3 + 6),
    ];
    for (why, bank, player, expected) in cases {
        let r = play("malayan", vec![seat(1, bank), seat(2, player)]);
        assert_eq!(main_units(&r, 1, 2), expected, "{why}");
    }
}

#[test]
fn malayan_extras_count_on_rows_lost() {
    let r = play("malayan", vec![seat(1, QUADS_LOSING_BACK), seat(2, SF_WINNING_BACK)]);
    assert_eq!(main_units(&r, 1, 2), (2 + 4) - (1 + 6));
    let r = play("malayan", vec![seat(1, MIDDLE_FULL_HOUSE), seat(2, BIGGER_FULL_HOUSES)]);
    assert_eq!(main_units(&r, 2, 1), (3 + 2) - 2);
}

#[test]
fn malayan_specials() {
    let m = "malayan";
    assert_special(m, Set(THREE_FLUSHES), "three-flushes", 3);
    assert_special(m, Set(THREE_STRAIGHTS), "three-straights", 4);
    assert_special(m, Loose(MIXED_SIX_PAIRS), "six-pairs", 4);
    assert_special(m, Loose(FIVE_PAIRS_TRIPLE), "five-pairs-triple", 5);
    assert_special(m, Loose("2h 2d 2c 5s 5h 5d 9c 9s 9h Kd Kc Ks Ah"), "four-triples", 6);
    assert_special(m, Loose(ALL_ONE_COLOR), "all-one-color", 10);
    assert_special(m, Loose("2h 2d 2c 3s 3h 4d 4c 5s 6h 7d 7c 8s 8h"), "all-small", 10);
    assert_special(m, Loose("8s 8h 8d 9c 9s Th Td Jc Js Qh Kd As Ah"), "all-big", 10);
    assert_special(m, Loose("2h 2d 2c 2s 5s 5h 5d 5c 9c 9s 9h 9d Kc"), "three-quads", 16);
    assert_special(m, Set(hand("2c 3c 4c", "5h 6h 7h 8h 9h", "9s Ts Js Qs Ks")), "three-straight-flushes", 18);
    assert_special(m, Loose("Jh Jd Jc Js Qh Qd Qc Qs Kh Kd Kc Ks 2c"), "twelve-pictures", 18);
    assert_special(m, Loose(ONE_SUIT), "one-suit", 26);
}

#[test]
fn malayan_a_straight_flush_row_counts_as_a_straight_and_as_a_flush() {
    let h = hand("2c 3c 4c", "5h 6h 7h 8h 9h", "9s Ts Js Qs Ks");
    assert_eq!(claimed("malayan", Set(h), "three-flushes"), ("three-flushes".into(), 3));
    assert_eq!(claimed("malayan", Set(h), "three-straights"), ("three-straights".into(), 4));
}

#[test]
fn malayan_special_against_special_pays_the_difference() {
    let r = play(
        "malayan",
        vec![
            claiming(loose(1, "2h 2d 2c 5s 5h 5d 9c 9s 9h Kd Kc Ks Ah"), "four-triples"),
            claiming(loose(2, SIX_PAIRS_2_MALAYAN), "six-pairs"),
        ],
    );
    assert_eq!(special_units(&r, 1, 2), 6 - 4);
}

/// Six pairs of small and big cards (SIX_PAIRS is also all-small).
const MIXED_SIX_PAIRS: &str = "2c 2d 4h 4s 6c 6d 8h 8s Tc Td Qs Qd Kc";

/// Six pairs sharing no card with the four-triples hand above.
const SIX_PAIRS_2_MALAYAN: &str = "3s 3h 4s 4h 6s 6h 7s 7h 8s 8h Ts Th Qs";

#[test]
fn malayan_specials_between_players_are_not_settled() {
    let r = play(
        "malayan",
        vec![
            seat(1, STRONG),
            claiming(loose(2, "2s 2h 2d 7s 7h 7d Js Jh Jd Ts Th Td 4s"), "four-triples"),
            claiming(loose(3, "9s 9d 8s 8d 6s 6d 5s 5d 4h 4c 3s 3d 7c"), "six-pairs"),
        ],
    );
    assert_eq!(special_units(&r, 1, 2), -6);
    assert_eq!(special_units(&r, 1, 3), -4);
    assert_eq!(units(&r, 2, 3), (0, 0));
}

#[test]
fn malayan_has_no_surrender() {
    assert!(matches!(
        refused("malayan", vec![seat(1, STRONG), surrendering(seat(2, WEAK))]),
        ShowdownError::SurrenderNotAllowed { .. }
    ));
}

// ---------------------------------------------------------------------------
// banker: players against the dealer; the house wins equal rows; typical
// scale and specials; surrender 1.
// ---------------------------------------------------------------------------

#[test]
fn banker_only_the_dealer_plays_each_player() {
    let r = play("banker", vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    assert_eq!(main_units(&r, 1, 3), 3);
    assert_eq!(units(&r, 2, 3), (0, 0));
    // Dealer seat 3.
    let r = score(&json!({
        "ruleset": "banker",
        "dealer": 3,
        "seats": [seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING)],
    }));
    assert_eq!(pairs(&r), vec![([3, 1], 0, -3), ([3, 2], 0, 3), ([1, 2], 0, 0)]);
}

#[test]
fn banker_the_house_wins_equal_rows() {
    let r = play("banker", vec![seat(1, PUSH_A), seat(2, PUSH_B)]);
    assert_eq!(main_units(&r, 1, 2), 2 - 1);
    let r = score(&json!({
        "ruleset": "banker",
        "dealer": 2,
        "seats": [seat(1, PUSH_A), seat(2, PUSH_B)],
    }));
    assert_eq!(main_units(&r, 2, 1), 2 - 1);
}

#[test]
fn banker_uses_the_typical_scale() {
    let r = play("banker", vec![seat(1, TYPICAL_FIRST), seat(2, TYPICAL_SECOND)]);
    assert_eq!(main_units(&r, 2, 1), 3);
}

#[test]
fn banker_surrender_pays_1() {
    let r = play("banker", vec![seat(1, STRONG), surrendering(seat(2, WEAK)), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 1, 2), 1);
    assert_eq!(main_units(&r, 2, 3), 0);
}

#[test]
fn banker_specials_are_typical() {
    assert_special("banker", Loose(SIX_PAIRS), "six-pairs", 3);
    assert_special("banker", Set(THREE_STRAIGHTS), "three-straights", 3);
    assert_special("banker", Set(THREE_FLUSHES), "three-flushes", 3);
    assert_special("banker", Loose(DRAGON), "dragon", 13);
    let r = play(
        "banker",
        vec![claiming(loose(1, SIX_PAIRS_2), "six-pairs"), claiming(seat(2, THREE_FLUSHES), "three-flushes")],
    );
    assert_eq!(special_units(&r, 2, 1), 3, "the later special is paid its full value");
}

// ---------------------------------------------------------------------------
// pool: each row is a pot; the best row at the table collects 1 from every
// seat whose row is not best; no surrender.
// ---------------------------------------------------------------------------

#[test]
fn pool_the_best_row_collects_from_every_other_seat() {
    // Best front and middle: STRONG; best back: ACES.
    let r = play("pool", vec![seat(1, STRONG), seat(2, MIDDLING), seat(3, ACES)]);
    assert_eq!(main_units(&r, 1, 2), 2);
    assert_eq!(main_units(&r, 1, 3), 2 - 1);
    // MIDDLING beats ACES in two rows but holds no best row.
    assert_eq!(main_units(&r, 3, 2), 1);
}

#[test]
fn pool_a_fouled_hand_holds_no_best_row_and_pays() {
    let r = play("pool", vec![seat(1, STRONG), seat(2, MIDDLING), seat(3, FOULED_TRIP_ACES)]);
    assert_eq!(seat_result(&r, 3)["fouled"], true);
    assert_eq!(main_units(&r, 1, 2), 3);
    assert_eq!(main_units(&r, 1, 3), 3);
    assert_eq!(main_units(&r, 2, 3), 0);
}

#[test]
fn pool_has_no_surrender() {
    assert!(matches!(
        refused("pool", vec![seat(1, STRONG), surrendering(seat(2, WEAK))]),
        ShowdownError::SurrenderNotAllowed { .. }
    ));
}

// ---------------------------------------------------------------------------
// single-winner: rows scored 1 each; only the seat with the highest total
// collects, from each seat it beat; surrender 1.
// ---------------------------------------------------------------------------

#[test]
fn single_winner_only_the_top_seat_collects() {
    let r = play("single-winner", vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    assert_eq!(main_units(&r, 1, 3), 3);
    // MIDDLING beat WEAK, but is not the winner.
    assert_eq!(main_units(&r, 3, 2), 0);
}

#[test]
fn single_winner_a_tie_at_the_top_collects_nothing() {
    // PUSH_A and PUSH_B each total 3 (one row each between them, back push).
    let r = play("single-winner", vec![seat(1, PUSH_A), seat(2, PUSH_B), seat(3, BELOW_PUSHES)]);
    for (a, b) in [(1, 2), (1, 3), (2, 3)] {
        assert_eq!(main_units(&r, a, b), 0, "seats {a} and {b}");
    }
}

#[test]
fn single_winner_surrender_counts_1() {
    // Totals: STRONG 3 + 1; WEAK -3 + 1; MIDDLING -1 - 1.
    let r = play("single-winner", vec![seat(1, STRONG), seat(2, WEAK), surrendering(seat(3, MIDDLING))]);
    assert_eq!(main_units(&r, 1, 2), 3);
    assert_eq!(main_units(&r, 1, 3), 1);
    assert_eq!(main_units(&r, 2, 3), 0);
}
