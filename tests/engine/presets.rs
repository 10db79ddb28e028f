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

/// A showdown under `ruleset`; `"name@1"` scores it under revision 1 of the
/// preset (its definition before issue 14, kept so committed hands rescore
/// to what was paid).
fn showdown(ruleset: &str, seats: Vec<Value>) -> Value {
    match ruleset.split_once('@') {
        Some((name, revision)) => {
            json!({"ruleset": name, "ruleset_revision": revision.parse::<u32>().unwrap(), "seats": seats})
        }
        None => json!({"ruleset": ruleset, "seats": seats}),
    }
}

/// A showdown under `ruleset` with table `options`.
fn with_options(ruleset: &str, options: Value, seats: Vec<Value>) -> Value {
    let mut v = showdown(ruleset, seats);
    v["options"] = options;
    v
}

/// Scores a showdown with table `options`.
fn play_with(ruleset: &str, options: Value, seats: Vec<Value>) -> Value {
    score(&with_options(ruleset, options, seats))
}

/// The error of a showdown with `options` that must be refused.
fn refused_with(ruleset: &str, options: Value, seats: Vec<Value>) -> ShowdownError {
    match score_json(&with_options(ruleset, options, seats).to_string()) {
        Ok(_) => panic!("a {ruleset} showdown was scored but should be refused"),
        Err(e) => e,
    }
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
    // Issue 14: a claim in a preset without specials says the preset has none.
    for claim in ["dragon", "best"] {
        let e = refused("simple", vec![claiming(loose(1, DRAGON), claim), filler(2, DRAGON)]);
        assert!(matches!(e, ShowdownError::NoSpecials { seat: 1, .. }), "{e:?}");
        assert!(e.to_string().contains("preset simple has no special hands"), "{e}");
    }
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
        ShowdownError::NoSpecials { .. }
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
fn revision_1_two_four_surrender_pays_2() {
    let r = play("two-four@1", vec![seat(1, STRONG), surrendering(seat(2, WEAK)), surrendering(seat(3, MIDDLING))]);
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
fn revision_1_sweep_bonus_surrender_pays_1() {
    let r = play("sweep-bonus@1", vec![seat(1, STRONG), surrendering(seat(2, WEAK)), surrendering(seat(3, MIDDLING))]);
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
fn revision_1_irrespective_surrender_pays_2() {
    let r = play("irrespective@1", vec![seat(1, STRONG), surrendering(seat(2, WEAK)), surrendering(seat(3, MIDDLING))]);
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
fn revision_1_singapore_uses_the_typical_scale() {
    let r = play("singapore@1", vec![seat(1, TYPICAL_FIRST), seat(2, TYPICAL_SECOND)]);
    assert_eq!(main_units(&r, 2, 1), 3);
    let r = play("singapore@1", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3);
}

#[test]
fn revision_1_singapore_specials() {
    assert_special("singapore@1", Loose(SMALL_CARDS), "small-cards", 3);
    assert_special("singapore@1", Loose(BIG_SIX_PAIRS), "six-pairs", 3);
    assert_special("singapore@1", Set(THREE_STRAIGHTS), "three-straights", 3);
    assert_special("singapore@1", Set(THREE_FLUSHES), "three-flushes", 3);
    assert_special("singapore@1", Loose(DRAGON), "dragon", 13);
    // Small cards and six pairs: best takes six-pairs, the later one.
    let both = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c";
    assert_eq!(claimed("singapore@1", Loose(both), "best"), ("six-pairs".into(), 3));
    assert_eq!(claimed("singapore@1", Loose(both), "small-cards"), ("small-cards".into(), 3));
}

#[test]
fn revision_1_singapore_the_later_special_is_paid_its_full_value() {
    let r = play(
        "singapore@1",
        vec![claiming(loose(1, SMALL_CARDS), "small-cards"), claiming(loose(2, BIG_SIX_PAIRS), "six-pairs")],
    );
    assert_eq!(special_units(&r, 2, 1), 3);
}

#[test]
fn revision_1_singapore_surrender_pays_1() {
    let r = play("singapore@1", vec![seat(1, STRONG), surrendering(seat(2, WEAK))]);
    assert_eq!(main_units(&r, 1, 2), 1);
}

// ---------------------------------------------------------------------------
// vietnamese: 1 per row won, doubled for all three rows (a foul pays 6);
// specials; no surrender.
// ---------------------------------------------------------------------------

#[test]
fn revision_1_vietnamese_rows_doubled_for_all_three() {
    let r = play("vietnamese@1", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3 * 2);
    let r = play("vietnamese@1", vec![seat(1, STRONG), seat(2, ACES_FULL)]);
    assert_eq!(main_units(&r, 1, 2), 1);
    let r = play("vietnamese@1", vec![seat(1, PUSH_A), seat(2, PUSH_C)]);
    assert_eq!(main_units(&r, 1, 2), 2, "two rows and a push are not doubled");
    let r = play("vietnamese@1", vec![seat(1, MIDDLE_QUADS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 6, "no bonus hands");
}

#[test]
fn revision_1_vietnamese_a_foul_pays_6() {
    let r = play("vietnamese@1", vec![seat(1, MIDDLE_FULL_HOUSE), seat(2, FOULED)]);
    assert_eq!(main_units(&r, 1, 2), 6);
}

#[test]
fn revision_1_vietnamese_specials() {
    assert_special("vietnamese@1", Set(THREE_STRAIGHTS), "three-straights", 6);
    assert_special("vietnamese@1", Set(THREE_FLUSHES), "three-flushes", 6);
    assert_special("vietnamese@1", Loose(SIX_PAIRS), "six-pairs", 6);
    assert_special("vietnamese@1", Loose(FIVE_PAIRS_TRIPLE), "five-pairs-triple", 6);
    assert_special("vietnamese@1", Loose(DRAGON), "dragon", 24);
    assert_special("vietnamese@1", Loose(ONE_SUIT), "one-suit", 26);
    // Five pairs and a triple are also six pairs (equal value, earlier).
    assert_eq!(claimed("vietnamese@1", Loose(FIVE_PAIRS_TRIPLE), "six-pairs"), ("six-pairs".into(), 6));
}

#[test]
fn revision_1_vietnamese_the_later_special_is_paid_its_full_value() {
    let r = play(
        "vietnamese@1",
        vec![claiming(loose(1, ONE_SUIT), "one-suit"), claiming(loose(2, DRAGON_NO_HEARTS), "dragon")],
    );
    assert_eq!(special_units(&r, 1, 2), 26);
}

#[test]
fn revision_1_vietnamese_has_no_surrender() {
    assert!(matches!(
        refused("vietnamese@1", vec![seat(1, STRONG), surrendering(seat(2, WEAK))]),
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
fn revision_1_banker_uses_the_typical_scale() {
    let r = play("banker@1", vec![seat(1, TYPICAL_FIRST), seat(2, TYPICAL_SECOND)]);
    assert_eq!(main_units(&r, 2, 1), 3);
}

#[test]
fn revision_1_banker_surrender_pays_1() {
    let r = play("banker@1", vec![seat(1, STRONG), surrendering(seat(2, WEAK)), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 1, 2), 1);
    assert_eq!(main_units(&r, 2, 3), 0);
}

#[test]
fn revision_1_banker_specials_are_typical() {
    assert_special("banker@1", Loose(SIX_PAIRS), "six-pairs", 3);
    assert_special("banker@1", Set(THREE_STRAIGHTS), "three-straights", 3);
    assert_special("banker@1", Set(THREE_FLUSHES), "three-flushes", 3);
    assert_special("banker@1", Loose(DRAGON), "dragon", 13);
    let r = play(
        "banker@1",
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
fn revision_1_single_winner_only_the_top_seat_collects() {
    let r = play("single-winner@1", vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    assert_eq!(main_units(&r, 1, 3), 3);
    // MIDDLING beat WEAK, but is not the winner.
    assert_eq!(main_units(&r, 3, 2), 0);
}

#[test]
fn revision_1_single_winner_a_tie_at_the_top_collects_nothing() {
    // PUSH_A and PUSH_B each total 3 (one row each between them, back push).
    let r = play("single-winner@1", vec![seat(1, PUSH_A), seat(2, PUSH_B), seat(3, BELOW_PUSHES)]);
    for (a, b) in [(1, 2), (1, 3), (2, 3)] {
        assert_eq!(main_units(&r, a, b), 0, "seats {a} and {b}");
    }
}

#[test]
fn revision_1_single_winner_surrender_counts_1() {
    // Totals: STRONG 3 + 1; WEAK -3 + 1; MIDDLING -1 - 1.
    let r = play("single-winner@1", vec![seat(1, STRONG), seat(2, WEAK), surrendering(seat(3, MIDDLING))]);
    assert_eq!(main_units(&r, 1, 2), 3);
    assert_eq!(main_units(&r, 1, 3), 1);
    assert_eq!(main_units(&r, 2, 3), 0);
}

// ===========================================================================
// Issue 14: the 5.6 presets exact to the seed documents, revision 2. Every
// number below is worked by hand from the seed sentence quoted above it
// (`/work/shared/seeds/004_c4b39266b0593a5c.txt` unless another is named).
// ===========================================================================

/// Small cards 2 to 9 (five pairs, no six pairs); shares no card with
/// BIG_SIX_PAIRS or DRAGON_2.
const SMALL_TO_NINE: &str = "2c 3d 4h 5s 6c 7d 8h 9s 9c 2d 3h 4s 5c";

#[test]
fn revisions_are_numbered_and_an_unknown_one_is_refused() {
    use pitboss::engine::ruleset::{current_revision, preset_at};
    for (name, current) in [
        ("hawaiian-gardens", 1),
        ("simple", 1),
        ("typical", 1),
        ("ofc", 2),
        ("ofc-pineapple", 2),
        ("two-four", 2),
        ("sweep-bonus", 2),
        ("irrespective", 2),
        ("singapore", 2),
        ("vietnamese", 2),
        ("malayan", 1),
        ("banker", 2),
        ("pool", 2),
        ("single-winner", 2),
    ] {
        assert_eq!(current_revision(name), current, "{name}");
        assert!(preset_at(name, 1).is_some(), "{name}: revision 1 is kept");
    }
    // Absent: the current revision; given: that one.
    let r = play("vietnamese", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    let r = play("vietnamese@1", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 6);
    let r = play("vietnamese@2", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    let e = refused("vietnamese@3", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(matches!(e, ShowdownError::UnknownRevision { revision: 3, current: 2, .. }), "{e:?}");
    assert!(e.to_string().contains("preset vietnamese has no revision 3; its revisions are 1 to 2"), "{e}");
    let e = refused("simple@0", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(matches!(e, ShowdownError::UnknownRevision { .. }), "{e:?}");
}

// ---- singapore (seed 004, "Singapore Version") ----

#[test]
fn singapore_scale_from_the_seed() {
    // "Three of a kind in front: 3 units instead of 1 / Full house in the
    // middle: 2 units instead of 1 / Four of a kind at the back: 4 units; in
    // the middle: 8 units / Straight flush at the back 7 units; in the
    // middle: 14 units"
    let cases = [
        ("front trips 3", FRONT_TRIPS, WEAK, 3 + 1 + 1),
        ("middle full house 2", MIDDLE_FULL_HOUSE, WEAK, 1 + 2 + 1),
        ("middle quads 8, back quads 4", MIDDLE_QUADS, WEAK, 1 + 8 + 4),
        ("back quads 4", BACK_QUADS, WEAK, 1 + 1 + 4),
        ("back straight flush 7", BACK_STRAIGHT_FLUSH, WEAK, 1 + 1 + 7),
        ("back royal flush 7", BACK_ROYAL, WEAK, 1 + 1 + 7),
        ("middle straight flush 14, back 7", MIDDLE_STRAIGHT_FLUSH, WEAK_2, 1 + 14 + 7),
    ];
    for (why, winner, loser, expected) in cases {
        let r = play("singapore", vec![seat(1, winner), seat(2, loser)]);
        assert_eq!(main_units(&r, 1, 2), expected, "{why}");
    }
    // Revision 1 had the typical scale: 1 + 4 + 4.
    let r = play("singapore@1", vec![seat(1, MIDDLE_QUADS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 9);
}

#[test]
fn singapore_claims_from_the_seed() {
    // "wins 13 units ... Six and a half pairs, three straights, or three
    // flushes each worth 3 units ... "small cards", in which all 13 cards
    // must be in the range 2 to 9 ... also wins 3 units"
    assert_special("singapore", Loose(SMALL_TO_NINE), "small-cards", 3);
    assert_special("singapore", Loose(BIG_SIX_PAIRS), "six-pairs", 3);
    assert_special("singapore", Set(THREE_STRAIGHTS), "three-straights", 3);
    assert_special("singapore", Set(THREE_FLUSHES), "three-flushes", 3);
    assert_special("singapore", Loose(DRAGON), "dragon", 13);
    // A ten is not a small card (2 to 9).
    let e = refused("singapore", vec![claiming(loose(1, SMALL_CARDS), "small-cards"), filler(2, SMALL_CARDS)]);
    assert!(matches!(e, ShowdownError::ClaimNotMade { .. }), "{e:?}");
}

#[test]
fn singapore_two_3_point_claims_pay_nothing() {
    // "If two of these 3-point special hands come up against each other,
    // neither player pays the other."
    let r =
        play("singapore", vec![claiming(loose(1, SMALL_TO_NINE), "best"), claiming(loose(2, BIG_SIX_PAIRS), "best")]);
    assert_eq!(seat_result(&r, 1)["special"], "small-cards");
    assert_eq!(seat_result(&r, 2)["special"], "six-pairs");
    assert_eq!(units(&r, 1, 2), (0, 0));
    // Also two of the same name (revision 1 compared them).
    let r = play(
        "singapore",
        vec![claiming(loose(1, SIX_PAIRS), "six-pairs"), claiming(loose(2, BIG_SIX_PAIRS), "six-pairs")],
    );
    assert_eq!(units(&r, 1, 2), (0, 0));
    let r = play(
        "singapore@1",
        vec![claiming(loose(1, SIX_PAIRS), "six-pairs"), claiming(loose(2, BIG_SIX_PAIRS), "six-pairs")],
    );
    assert_eq!(special_units(&r, 2, 1), 3);
}

#[test]
fn singapore_a_dragon_beats_any_other_hand() {
    // "However a Dragon beats any other hand and is paid the full 13 (or 26)
    // units."
    let r = play("singapore", vec![claiming(loose(1, DRAGON), "dragon"), claiming(loose(2, SIX_PAIRS), "six-pairs")]);
    assert_eq!(special_units(&r, 1, 2), 13);
    // Two dragons: neither beats the other.
    let r = play("singapore", vec![claiming(loose(1, DRAGON), "dragon"), claiming(loose(2, DRAGON_2), "dragon")]);
    assert_eq!(units(&r, 1, 2), (0, 0));
}

#[test]
fn singapore_has_no_surrender_unless_the_house_sets_it() {
    let e = refused("singapore", vec![seat(1, STRONG), surrendering(seat(2, WEAK))]);
    assert!(matches!(e, ShowdownError::SurrenderNotAllowed { .. }), "{e:?}");
    let r = play_with("singapore", json!({"surrender": true}), vec![seat(1, STRONG), surrendering(seat(2, WEAK))]);
    assert_eq!(main_units(&r, 1, 2), 1);
}

#[test]
fn option_dragon_26() {
    // "wins 13 units (or according to some players 26 units)"
    let r =
        play_with("singapore", json!({"dragon_26": true}), vec![claiming(loose(1, DRAGON), "best"), filler(2, DRAGON)]);
    assert_eq!(special_units(&r, 1, 2), 26);
    let r = play_with(
        "singapore",
        json!({"dragon_26": true}),
        vec![claiming(loose(1, DRAGON), "dragon"), claiming(loose(2, SIX_PAIRS), "six-pairs")],
    );
    assert_eq!(special_units(&r, 1, 2), 26);
}

#[test]
fn option_small_cards_to_ten() {
    // "all 13 cards must be in the range 2 to 9 (or according to some
    // players 2 to 10)"
    let r = play_with(
        "singapore",
        json!({"small_cards_to_ten": true}),
        vec![claiming(loose(1, SMALL_CARDS), "small-cards"), filler(2, SMALL_CARDS)],
    );
    assert_eq!(special_units(&r, 1, 2), 3);
    assert_eq!(seat_result(&r, 1)["special"], "small-cards");
}

#[test]
fn option_sweep_all_double() {
    // "Some play that a player who wins all three hands against all
    // opponents is paid double - that is 6 points each instead of 3"
    let seats = || vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING)];
    let r = play_with("singapore", json!({"sweep_all_double": true}), seats());
    assert_eq!(main_units(&r, 1, 2), 3 * 2);
    assert_eq!(main_units(&r, 1, 3), 3 * 2);
    assert_eq!(main_units(&r, 3, 2), 3, "a sweep of one opponent only is not doubled");
    let r = play("singapore", seats());
    assert_eq!((main_units(&r, 1, 2), main_units(&r, 1, 3)), (3, 3));
    // "assuming that no special hands are involved": an opponent with a
    // claim is not swept, so nothing is doubled.
    let r = play_with(
        "singapore",
        json!({"sweep_all_double": true}),
        vec![seat(1, STRONG), seat(2, WEAK), claiming(loose(3, DRAGON_NO_HEARTS_NO_STRONG), "dragon")],
    );
    assert_eq!(main_units(&r, 1, 2), 3);
}

/// A dragon sharing no card with STRONG or WEAK.
const DRAGON_NO_HEARTS_NO_STRONG: &str = "2h 3s 4s 5s 6s 7h 8s 9c Ts Js Qc Kd Ac";

#[test]
fn option_ace_of_spades_deals() {
    // "the player who held the Ace of Spades must deal the next hand, and is
    // paid 1 unit compensation by each opponent for this extra work"
    let seats = vec![seat(1, STRONG), with(seat(2, WEAK), "ace_of_spades_dealer", true), seat(3, MIDDLING)];
    let mut v = with_options("singapore", json!({"ace_of_spades_deals": true}), seats.clone());
    v["dealer"] = json!(2);
    let r = score(&v);
    assert_eq!(main_units(&r, 1, 2), 3 - 1);
    assert_eq!(main_units(&r, 2, 3), 1 - 3);
    // The flag needs the option, and the seat must be the dealer.
    let mut v = showdown("singapore", seats.clone());
    v["dealer"] = json!(2);
    let e = match score_json(&v.to_string()) {
        Err(e) => e,
        Ok(_) => panic!("scored"),
    };
    assert!(e.to_string().contains("ace_of_spades_deals"), "{e}");
    let e = refused_with("singapore", json!({"ace_of_spades_deals": true}), seats);
    assert!(e.to_string().contains("seat 2") && e.to_string().contains("not the dealer"), "{e}");
}

// ---- vietnamese (seed 004, "Vietnamese Version") ----

#[test]
fn vietnamese_scale_from_the_seed() {
    // "Three of a kind in front: 3 units instead of 1 / Full house in the
    // middle: 2 units instead of 1 / Four of a kind at the back: 4 units; in
    // the middle: 8 units / Straight flush at the back: 5 units; in the
    // middle: 10 units"
    let cases = [
        ("no scale hand, no doubling", STRONG, WEAK, 1 + 1 + 1),
        ("front trips 3", FRONT_TRIPS, WEAK, 3 + 1 + 1),
        ("middle full house 2", MIDDLE_FULL_HOUSE, WEAK, 1 + 2 + 1),
        ("middle quads 8, back quads 4", MIDDLE_QUADS, WEAK, 1 + 8 + 4),
        ("back straight flush 5", BACK_STRAIGHT_FLUSH, WEAK, 1 + 1 + 5),
        ("middle straight flush 10, back 5", MIDDLE_STRAIGHT_FLUSH, WEAK_2, 1 + 10 + 5),
        ("a fouled hand loses every row", MIDDLE_FULL_HOUSE, FOULED, 1 + 2 + 1),
    ];
    for (why, winner, loser, expected) in cases {
        let r = play("vietnamese", vec![seat(1, winner), seat(2, loser)]);
        assert_eq!(main_units(&r, 1, 2), expected, "{why}");
    }
}

#[test]
fn vietnamese_specials_from_the_seed() {
    // "Three straights: 3 units / Three flushes: 3 units / Six pairs: 3 units
    // / Five pairs and one triplet: 6 units / Complete straight A to K with
    // mixed suits: 13 units; if all 13 cards are of one suit: 26 units."
    assert_special("vietnamese", Set(THREE_STRAIGHTS), "three-straights", 3);
    assert_special("vietnamese", Set(THREE_FLUSHES), "three-flushes", 3);
    assert_special("vietnamese", Loose(SIX_PAIRS), "six-pairs", 3);
    assert_special("vietnamese", Loose(FIVE_PAIRS_TRIPLE), "five-pairs-triple", 6);
    assert_special("vietnamese", Loose(DRAGON), "dragon", 13);
    assert_special("vietnamese", Loose(ONE_SUIT), "one-suit", 26);
    assert_eq!(claimed("vietnamese", Loose(FIVE_PAIRS_TRIPLE), "six-pairs"), ("six-pairs".into(), 3));
    // The higher wins its full amount (the general rule of the seed's
    // "Special Hands"): one suit 26 against a dragon.
    let r = play(
        "vietnamese",
        vec![claiming(loose(1, ONE_SUIT), "one-suit"), claiming(loose(2, DRAGON_NO_HEARTS), "dragon")],
    );
    assert_eq!(special_units(&r, 1, 2), 26);
}

#[test]
fn option_sweep_double_triple() {
    // "Some play that a player who wins all three hands against one opponent
    // is paid double; a player who wins all three hands against all
    // opponents is paid triple."
    let o = json!({"sweep_double_triple": true});
    let r = play_with("vietnamese", o.clone(), vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 1, 2), 3 * 3, "seat 1 sweeps both opponents: triple");
    assert_eq!(main_units(&r, 1, 3), 3 * 3);
    assert_eq!(main_units(&r, 3, 2), 3 * 2, "seat 3 sweeps seat 2 only: double");
    // Two rows and a push are no sweep.
    let r = play_with("vietnamese", o.clone(), vec![seat(1, PUSH_A), seat(2, PUSH_C)]);
    assert_eq!(main_units(&r, 1, 2), 2);
    // With the scale: front trips 3 + 1 + 1, one opponent is all opponents.
    let r = play_with("vietnamese", o, vec![seat(1, FRONT_TRIPS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), (3 + 1 + 1) * 3);
}

// ---- banker (seed 004, "Playing against the house") ----

#[test]
fn banker_plays_the_simplest_payments_against_the_house() {
    // "The other players compare their hands with the house, but not with
    // each other, and pay or receive accordingly. When an individual hand is
    // tied, the house wins it." The seed's own example hands: A (the house)
    // wins the front with 666, B the middle with JJJ22 and the back with
    // 5555A: one row each way in the simplest system, B wins 2 - 1 = 1.
    let r = play("banker", vec![seat(1, TYPICAL_FIRST), seat(2, TYPICAL_SECOND)]);
    assert_eq!(main_units(&r, 2, 1), 1);
    // No increased payments, no specials, no surrender.
    let e = refused("banker", vec![claiming(loose(1, DRAGON), "dragon"), filler(2, DRAGON)]);
    assert!(matches!(e, ShowdownError::NoSpecials { .. }), "{e:?}");
    let e = refused("banker", vec![seat(1, STRONG), surrendering(seat(2, WEAK))]);
    assert!(matches!(e, ShowdownError::SurrenderNotAllowed { .. }), "{e:?}");
}

#[test]
fn option_surrender_with_a_banker() {
    // "If playing with a banker, then of course a surrendering player just
    // pays the banker, and a surrendering banker pays each of the players."
    let o = json!({"surrender": true});
    let r = play_with("banker", o.clone(), vec![seat(1, STRONG), surrendering(seat(2, WEAK)), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 1, 2), 1);
    assert_eq!(main_units(&r, 1, 3), 3);
    assert_eq!(units(&r, 2, 3), (0, 0), "players do not settle with each other");
    let r = play_with("banker", o, vec![surrendering(seat(1, STRONG)), seat(2, WEAK), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 2, 1), 1);
    assert_eq!(main_units(&r, 3, 1), 1);
    // "two units each if you play the version with the overall point"
    let r = play_with(
        "banker",
        json!({"surrender": true, "overall_point": true}),
        vec![seat(1, STRONG), surrendering(seat(2, WEAK))],
    );
    assert_eq!(main_units(&r, 1, 2), 2);
}

// ---- surrender as an option elsewhere ----

#[test]
fn option_surrender_one_unit_or_two_with_the_overall_point() {
    // "If you surrender, you pay each of the other players as though you had
    // lost two out of three hands - one unit each, or two units each if you
    // play the version with the overall point."
    let three = || vec![seat(1, STRONG), surrendering(seat(2, WEAK)), surrendering(seat(3, MIDDLING))];
    for (preset, pays) in [("sweep-bonus", 1), ("two-four", 2), ("irrespective", 2), ("vietnamese", 1), ("malayan", 1)]
    {
        let e = refused(preset, three());
        assert!(matches!(e, ShowdownError::SurrenderNotAllowed { .. }), "{preset}: {e:?}");
        let r = play_with(preset, json!({"surrender": true}), three());
        assert_eq!(main_units(&r, 1, 2), pays, "{preset}");
        if preset != "malayan" {
            assert_eq!(main_units(&r, 1, 3), pays, "{preset}");
            assert_eq!(main_units(&r, 2, 3), 0, "{preset}: two surrenders exchange nothing");
        }
    }
    let r = play_with("sweep-bonus", json!({"surrender": true, "overall_point": true}), three());
    assert_eq!(main_units(&r, 1, 2), 2);
    // Where the preset has its own surrender, the option is not offered.
    let e = refused_with("typical", json!({"surrender": true}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(matches!(e, ShowdownError::Options(_)), "{e:?}");
    assert!(e.to_string().contains("surrender") && e.to_string().contains("typical"), "{e}");
}

// ---- two-four, sweep-bonus, irrespective ----

#[test]
fn two_four_sweep_bonus_and_irrespective_have_no_surrender_of_their_own() {
    for preset in ["two-four", "sweep-bonus", "irrespective"] {
        let e = refused(preset, vec![seat(1, STRONG), surrendering(seat(2, WEAK))]);
        assert!(matches!(e, ShowdownError::SurrenderNotAllowed { .. }), "{preset}: {e:?}");
    }
}

#[test]
fn two_four_is_the_typical_scale_with_the_overall_point() {
    // "If playing with extra payments for straight flush, quads, etc., these
    // are taken into account in deciding who gets the overall point": the
    // seed's typical scale (front trips 3, middle full house 2, quads 4,
    // straight flush 5 for a row won) and one more unit to the net winner.
    let r = play("two-four", vec![seat(1, FRONT_TRIPS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3 + 1 + 1 + 1);
    let r = play("two-four", vec![seat(1, MIDDLE_STRAIGHT_FLUSH), seat(2, WEAK_2)]);
    assert_eq!(main_units(&r, 1, 2), 1 + 5 + 5 + 1);
    let r = play("typical", vec![seat(1, MIDDLE_STRAIGHT_FLUSH), seat(2, WEAK_2)]);
    assert_eq!(main_units(&r, 1, 2), 1 + 5 + 5, "typical: the same scale without the overall point");
}

// ---- single-winner (seed 004, "Single winner") ----

#[test]
fn single_winner_needs_the_house_to_set_what_the_winner_collects() {
    let e = refused("single-winner", vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(matches!(e, ShowdownError::Options(_)), "{e:?}");
    assert!(e.to_string().contains("winner_units"), "{e}");
    let e = refused_with("single-winner", json!({"winner_units": true}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("winner_units") && e.to_string().contains("house"), "{e}");
    for bad in [json!(0), json!(-2), json!(1.5), json!("3")] {
        let e = refused_with("single-winner", json!({ "winner_units": bad }), vec![seat(1, STRONG), seat(2, WEAK)]);
        assert!(e.to_string().contains("winner_units"), "{e}");
    }
}

#[test]
fn single_winner_beats_each_other_seat_on_two_rows() {
    // "In order to win, you have to beat each of the other players on at
    // least two out of three hands."
    let o = json!({"winner_units": 2});
    let r = play_with("single-winner", o.clone(), vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 1, 2), 2);
    assert_eq!(main_units(&r, 1, 3), 2);
    assert_eq!(main_units(&r, 3, 2), 0, "seat 3 beat seat 2, but there is one winner");
    // Two rows of three are enough: STRONG loses the back to aces full.
    let r = play_with("single-winner", o.clone(), vec![seat(1, STRONG), seat(2, ACES_FULL), seat(3, MIDDLING)]);
    assert_eq!(main_units(&r, 1, 2), 2);
    assert_eq!(main_units(&r, 1, 3), 2);
    assert_eq!(main_units(&r, 2, 3), 0);
    // "Presumably if no one achieves this, no one wins": PUSH_A beats PUSH_B
    // on the front only (the backs tie).
    let r = play_with("single-winner", o, vec![seat(1, PUSH_A), seat(2, PUSH_B), seat(3, BELOW_PUSHES)]);
    for (a, b) in [(1, 2), (1, 3), (2, 3)] {
        assert_eq!(units(&r, a, b), (0, 0), "seats {a} and {b}");
    }
    assert!(transactions(&r).is_empty());
}

#[test]
fn single_winner_has_no_surrender() {
    let e =
        refused_with("single-winner", json!({"winner_units": 1}), vec![seat(1, STRONG), surrendering(seat(2, WEAK))]);
    assert!(matches!(e, ShowdownError::SurrenderNotAllowed { .. }), "{e:?}");
}

// ---- pool (seed 004, "Winning from a pool") ----

#[test]
fn pool_each_best_row_collects_the_pools_third() {
    // "each player contributes 3 units to a pool ... whichever of the four
    // players has the best front hand collects 4 units, the player with the
    // best middle hand collects 4 units, and the player with the best back
    // hand collects 4 units." Four players: 12 in the pool. STRONG has the
    // best front and middle, ACES the best back (four aces): STRONG collects
    // 8 less its 3 = +5, ACES 4 - 3 = +1, WEAK and MIDDLING -3 each.
    let r = play("pool", vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING), seat(4, ACES)]);
    let nets: Vec<Decimal> = (1..=4).map(|s| money(&seat_result(&r, s)["net"])).collect();
    assert_eq!(nets, [dec("5"), dec("-3"), dec("-3"), dec("1")]);
}

#[test]
fn pool_a_row_tied_for_the_best_pays_nothing() {
    // "whichever of the four players has the best front hand collects 4
    // units, the player with the best middle hand collects 4 units": one.
    // PUSH_A and PUSH_B tie for the best back (the same nine-high straight):
    // no one collects the back's third. PUSH_A has the best front, PUSH_B
    // the best middle; BELOW_PUSHES none.
    let seats = || vec![seat(1, PUSH_A), seat(2, PUSH_B), seat(3, BELOW_PUSHES)];
    let r = play("pool", seats());
    assert_eq!(main_units(&r, 1, 2), 1 - 1);
    assert_eq!(main_units(&r, 1, 3), 1);
    assert_eq!(main_units(&r, 2, 3), 1);
    // Revision 1: both tied seats collected 1 from the seat below.
    let r = play("pool@1", seats());
    assert_eq!(main_units(&r, 1, 3), 1 + 1);
    assert_eq!(main_units(&r, 2, 3), 1 + 1);
}

#[test]
fn option_pool_sweep() {
    // "Some play that if one player wins all three hands, the collect the
    // whole pool and each of the other players has to pay them an
    // additional 3 units."
    let seats = || vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING), seat(4, THREE_ACES_LOW)];
    let r = play_with("pool", json!({"pool_sweep": true}), seats());
    // STRONG has the best of every row: the whole pool, 12, less its 3, and
    // 3 more from each of the other three: +18; the others -3 - 3 = -6.
    let nets: Vec<Decimal> = (1..=4).map(|s| money(&seat_result(&r, s)["net"])).collect();
    assert_eq!(nets, [dec("18"), dec("-6"), dec("-6"), dec("-6")]);
    let r = play("pool", seats());
    let nets: Vec<Decimal> = (1..=4).map(|s| money(&seat_result(&r, s)["net"])).collect();
    assert_eq!(nets, [dec("9"), dec("-3"), dec("-3"), dec("-3")]);
    // Only the pool has it.
    let e = refused_with("simple", json!({"pool_sweep": true}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("pool_sweep") && e.to_string().contains("pool"), "{e}");
}

/// ACES's cards set below STRONG in every row: ace high / fives / three
/// aces. Shares no card with STRONG, WEAK or MIDDLING.
const THREE_ACES_LOW: Hand = hand("As 2h 3d", "5s 5d 9c Ts 4h", "Ac Ad Ah Kc Jc");

// ---- options on the other presets ----

#[test]
fn option_sweep_bonus_1_or_3() {
    // "Some play that a player who wins all three hands against another
    // player is paid an extra 1 unit (or sometimes 3 units) for a sweep."
    let r = play_with("typical", json!({"sweep_bonus": 1}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3 + 1);
    let r = play_with("typical", json!({"sweep_bonus": 3}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3 + 3);
    let r = play_with("typical", json!({"sweep_bonus": 1}), vec![seat(1, PUSH_A), seat(2, PUSH_C)]);
    assert_eq!(main_units(&r, 1, 2), 2, "two rows and a push are no sweep");
    for bad in [json!(2), json!(true), json!("1")] {
        let e = refused_with("typical", json!({ "sweep_bonus": bad }), vec![seat(1, STRONG), seat(2, WEAK)]);
        assert!(e.to_string().contains("sweep_bonus must be 1 or 3"), "{e}");
    }
    let e = refused_with("sweep-bonus", json!({"sweep_bonus": 1}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("sweep_bonus") && e.to_string().contains("sweep-bonus"), "{e}");
}

#[test]
fn option_overall_point() {
    // "Some play that between each pair of players, the net winner wins one
    // additional unit - the overall point."
    let r = play_with("simple", json!({"overall_point": true}), vec![seat(1, STRONG), seat(2, ACES_FULL)]);
    assert_eq!(main_units(&r, 1, 2), (2 - 1) + 1);
    let r = play_with("simple", json!({"overall_point": true}), vec![seat(1, PUSH_A), seat(2, PUSH_B)]);
    assert_eq!(main_units(&r, 1, 2), 0, "one row each: no net winner");
    // "these are taken into account in deciding who gets the overall point":
    // typical, seed example hands: A 3 for the front; B 2 + 4: B nets 3 and
    // takes the overall point, 4.
    let r = play_with("typical", json!({"overall_point": true}), vec![seat(1, TYPICAL_FIRST), seat(2, TYPICAL_SECOND)]);
    assert_eq!(main_units(&r, 2, 1), (2 + 4 - 3) + 1);
}

#[test]
fn option_higher_middle_payment() {
    // "Some play that winning with four of a kind or a straight flush in the
    // middle is worth an extra point, so 5 in the middle or 4 at the back for
    // quads and 6 in the middle or 5 at the back for a straight flush."
    let o = json!({"higher_middle_payment": true});
    let r = play_with("typical", o.clone(), vec![seat(1, MIDDLE_QUADS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 1 + 5 + 4);
    let r = play_with("typical", o.clone(), vec![seat(1, MIDDLE_STRAIGHT_FLUSH), seat(2, WEAK_2)]);
    assert_eq!(main_units(&r, 1, 2), 1 + 6 + 5);
    let r = play_with("two-four", o.clone(), vec![seat(1, MIDDLE_QUADS), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 1 + 5 + 4 + 1);
    // Only where the typical scale is played.
    let e = refused_with("singapore", o, vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("higher_middle_payment"), "{e}");
}

/// No jack, queen or king; three pairs only.
const NO_PICTURES: &str = "2c 3c 4c 5c 6c 7c 8c 9c Tc Ac 2d 3d 4d";
/// Six pairs, every one a picture or higher; shares no card with NO_PICTURES.
const PICTURE_SIX_PAIRS: &str = "Jh Jd Qh Qd Kh Kd Ah Ad Th Td 9h 9d 5h";

#[test]
fn option_no_pictures_at_the_houses_value() {
    // "some people regard a hand containing no pictures as a special hand
    // giving an automatic win, but I don't know how many units it is worth
    // or how it ranks with respect to the other special hands."
    let e = refused_with("typical", json!({"no_pictures": true}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("no_pictures") && e.to_string().contains("house"), "{e}");
    let e = refused("typical", vec![claiming(loose(1, NO_PICTURES), "no-pictures"), filler(2, NO_PICTURES)]);
    assert!(matches!(e, ShowdownError::UnknownSpecial { .. }), "{e:?}");
    let o = json!({"no_pictures": 5});
    let r = play_with(
        "typical",
        o.clone(),
        vec![
            claiming(loose(1, NO_PICTURES), "best"),
            claiming(loose(2, PICTURE_SIX_PAIRS), "six-pairs"),
            seat(3, hand("2h 3h 4h", "Qs Qc 6h 7h 8h", "Ks Kc Js Jc 9s")),
        ],
    );
    assert_eq!(seat_result(&r, 1)["special"], "no-pictures");
    // Ranked by the house's value: 5 against six pairs' 3.
    assert_eq!(special_units(&r, 1, 2), 5);
    assert_eq!(special_units(&r, 1, 3), 5);
    assert_eq!(special_units(&r, 2, 3), 3);
    // Hawaiian gardens: special against special pays the difference.
    let r = play_with(
        "hawaiian-gardens",
        o,
        vec![claiming(loose(1, NO_PICTURES), "no-pictures"), claiming(loose(2, PICTURE_SIX_PAIRS), "six-pairs")],
    );
    assert_eq!(special_units(&r, 1, 2), 5 - 4);
}

#[test]
fn options_are_validated_by_name_and_preset() {
    let e = refused_with("typical", json!({"sweep": 1}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("unknown option \"sweep\""), "{e}");
    let e = refused_with("typical", json!({"overall_point": "yes"}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("overall_point must be true or false"), "{e}");
    let e = refused_with("hawaiian-gardens", json!({"overall_point": true}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("overall_point is not played in hawaiian-gardens"), "{e}");
    let e = refused_with("two-four", json!({"overall_point": true}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("overall_point") && e.to_string().contains("two-four"), "{e}");
    let e = refused_with("vietnamese", json!({"dragon_26": true}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("dragon_26") && e.to_string().contains("singapore"), "{e}");
    // An option given as false is off anywhere.
    let r =
        play_with("typical", json!({"dragon_26": false, "sweep_bonus": null}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert_eq!(main_units(&r, 1, 2), 3);
    // Revision 1 of a preset takes none of the new options.
    let e = refused_with("vietnamese@1", json!({"surrender": true}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(matches!(e, ShowdownError::Options(_)), "{e:?}");
}

// ---- open-face (seeds 001-003) ----

/// Trip deuces in front, a royal flush in the middle and another in the back
/// (equal rows are no foul).
const TRIPS_AND_ROYALS: Hand = hand("2c 2d 2h", "Ah Kh Qh Jh Th", "As Ks Qs Js Ts");
/// Three sevens in the middle under an eights full house.
const TRIPS_MIDDLE: Hand = hand("3c 4d 5h", "7s 7h 7d 8c 9c", "8s 8h 8d Kc Kd");

#[test]
fn option_royalty_table_of_seed_001() {
    // Seed 001: front "Three of a Kind: 20"; middle "30 for Straight Flush ...
    // 4 for Straight" (no three of a kind, no royal flush of its own); back
    // "25 for Royal".
    let royalties = |h: Hand, table: &str| -> i64 {
        let r = play_with("ofc", json!({ "royalty_table": table }), vec![seat(1, h), filler(2, &Set(h).text())]);
        seat_result(&r, 1)["royalties"].as_i64().unwrap()
    };
    assert_eq!(royalties(TRIPS_AND_ROYALS, "front-trips-20"), 20 + 30 + 25);
    assert_eq!(royalties(TRIPS_AND_ROYALS, "standard"), 10 + 50 + 25);
    assert_eq!(royalties(TRIPS_MIDDLE, "front-trips-20"), 6);
    assert_eq!(royalties(TRIPS_MIDDLE, "standard"), 2 + 6);
    let e = refused_with("ofc", json!({"royalty_table": "czech"}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("royalty_table"), "{e}");
    let e = refused_with("ofc@1", json!({"royalty_table": "front-trips-20"}), vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("royalty_table"), "{e}");
}

#[test]
fn option_fantasyland_entry_aa_for_pineapple_and_double_deck() {
    // Seed 003 (a machine-reworded article), pineapple: "Conventional OFC
    // guidelines apply to enter fantasyland. Some gamers counsel AA+ at the
    // least requirement." Double deck: "Some gamers counsel a AA+ at the least
    // requirement for fantasy land."
    let kings = hand("Kc Kd 3s", "4c 4d 5s 5h 9c", "Tc Td Th 2c 2d");
    let aces = hand("Ac Ad 3s", "4c 4d 5s 5h 9c", "Tc Td Th 2c 2d");
    let next = |preset: &str, options: Value, h: Hand| -> bool {
        let r = play_with(preset, options, vec![seat(1, h), filler(2, &Set(h).text())]);
        seat_result(&r, 1)["fantasyland_next"].as_bool().unwrap()
    };
    let aa = json!({"fantasyland_entry": "AA"});
    assert!(!next("ofc-pineapple", aa.clone(), kings));
    assert!(next("ofc-pineapple", aa.clone(), aces));
    assert!(next("ofc-pineapple", json!({}), kings), "QQ or better without the option");
    assert!(next("ofc", json!({"fantasyland_entry": "AA", "double_deck": true}), aces));
    let e = refused_with("ofc", aa, vec![seat(1, STRONG), seat(2, WEAK)]);
    assert!(e.to_string().contains("AA") && e.to_string().contains("double deck"), "{e}");
}

#[test]
fn tournament_bounds_what_a_seat_wins_too() {
    // Seed 001: "Players can only win or lose the chips they had at the
    // beginning of the actual game. For example: player (A) has 12 points
    // ... If he wins 8 points from player (B) ... he now only has 4 points
    // left (out of the original 12) to settle new transaction with player
    // (C). If he wins or loses these 4 points, his transactions won't be
    // completed. Therefore the transaction with player (D) won't be
    // conducted."
    use pitboss::engine::settlement::settle;
    use pitboss::engine::Showdown;
    let build = |revision: u32| {
        let suits = ['s', 'h', 'd', 'c'];
        let seats: Vec<Value> = (0..4)
            .map(|i| {
                let cards: Vec<String> = "23456789TJQKA".chars().map(|r| format!("{r}{}", suits[i])).collect();
                let stack = if i == 0 { "12" } else { "100" };
                json!({"seat": i + 1, "stack": stack, "cards": cards.join(" "), "surrender": true})
            })
            .collect();
        let v =
            json!({"ruleset": "ofc", "ruleset_revision": revision, "options": {"tournament": true}, "seats": seats});
        Showdown::from_json(&v.to_string()).unwrap()
    };
    let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    // B owes A 8, C owes A 10, A owes D 5.
    let units = [[0, 8], [0, 10], [0, -5], [0, 0], [0, 0], [0, 0]];
    let paid = |revision: u32| -> Vec<String> {
        let s = settle(&build(revision), &pairs, &units);
        s.transactions.iter().map(|t| format!("{}>{} {}", t.payer, t.payee, t.paid)).collect()
    };
    assert_eq!(paid(2), ["2>1 8", "3>1 4", "1>4 0"]);
    // Revision 1 bounded only what a seat pays.
    assert_eq!(paid(1), ["2>1 8", "3>1 10", "1>4 5"]);
}

// ===========================================================================
// The worked examples of docs/rules.md: each example's JSON is scored and
// its tables (worked by hand there) are checked, so the page and the engine
// cannot drift apart.
// ===========================================================================

const RULES_MD: &str = include_str!("../../docs/rules.md");

/// One example of the rules page: its JSON and the tables after it.
struct DocExample {
    input: Value,
    /// (seats, special_units, main_units), as listed.
    pairs: Vec<([u32; 2], i64, i64)>,
    transactions: Vec<Tx>,
    /// (seat, stack_end), where the page gives a seat table with stack_end.
    stacks: Vec<(u32, Decimal)>,
}

fn cells(line: &str) -> Vec<&str> {
    line.trim().trim_matches('|').split('|').map(str::trim).collect()
}

fn doc_example(name: &str) -> DocExample {
    let marker = format!("test `doc_example_{name}`");
    let at = RULES_MD.find(&marker).unwrap_or_else(|| panic!("docs/rules.md has no {marker}"));
    let json_start = RULES_MD[..at].rfind("```json\n").expect("a JSON block before the result") + 8;
    let json_end = json_start + RULES_MD[json_start..].find("```").unwrap();
    let input: Value = serde_json::from_str(&RULES_MD[json_start..json_end]).expect("the example is JSON");
    let rest = &RULES_MD[at..];
    let end = ["\n### ", "\n## ", "\n---"].iter().filter_map(|m| rest.find(m)).min().unwrap_or(rest.len());
    let mut example = DocExample { input, pairs: vec![], transactions: vec![], stacks: vec![] };
    let mut header: Vec<&str> = Vec::new();
    for line in rest[..end].lines() {
        if !line.starts_with('|') {
            header.clear();
            continue;
        }
        let row = cells(line);
        if header.is_empty() {
            header = row;
            continue;
        }
        if row.iter().all(|c| c.chars().all(|ch| matches!(ch, '-' | ':'))) {
            continue;
        }
        let col = |name: &str| header.iter().position(|h| *h == name);
        let int = |s: &str| s.parse::<i64>().unwrap_or_else(|_| panic!("{name}: not a number {s:?}"));
        if let (Some(p), Some(s), Some(m)) = (col("pair"), col("special_units"), col("main_units")) {
            let (a, b) = row[p].split_once('–').unwrap();
            example.pairs.push(([a.parse().unwrap(), b.parse().unwrap()], int(row[s]), int(row[m])));
        } else if let Some(t) = col("payer → payee") {
            let (payer, payee) = row[t].split_once(" → ").unwrap();
            example.transactions.push(tx(
                row[col("pass").unwrap()],
                payer.parse().unwrap(),
                payee.parse().unwrap(),
                row[col("owed").unwrap()],
                row[col("paid").unwrap()],
            ));
        } else if let (Some(s), Some(e)) = (col("seat"), col("stack_end")) {
            example.stacks.push((row[s].parse().unwrap(), dec(row[e])));
        }
    }
    example
}

/// Scores the page's example and checks every table the page gives.
fn check_doc_example(name: &str) {
    let example = doc_example(name);
    assert!(!example.pairs.is_empty() && !example.transactions.is_empty(), "{name}: no tables found");
    let r = score(&example.input);
    assert_eq!(pairs(&r), example.pairs, "{name}: pairs");
    assert_eq!(transactions(&r), example.transactions, "{name}: transactions");
    for (number, stack_end) in &example.stacks {
        assert_eq!(money(&seat_result(&r, *number)["stack_end"]), *stack_end, "{name}: seat {number} stack_end");
    }
}

#[test]
fn doc_example_settlement() {
    check_doc_example("settlement");
}

#[test]
fn doc_example_hawaiian_gardens() {
    check_doc_example("hawaiian_gardens");
}

#[test]
fn doc_example_simple() {
    check_doc_example("simple");
}

#[test]
fn doc_example_typical() {
    check_doc_example("typical");
}

#[test]
fn doc_example_ofc() {
    check_doc_example("ofc");
}

#[test]
fn doc_example_ofc_pineapple() {
    check_doc_example("ofc_pineapple");
}

#[test]
fn doc_example_two_four() {
    check_doc_example("two_four");
    let r = score(&doc_example("two_four").input);
    assert_eq!(money(&seat_result(&r, 1)["stack_end"]), dec("48"));
    assert_eq!(money(&seat_result(&r, 2)["stack_end"]), dec("52"));
}

#[test]
fn doc_example_sweep_bonus() {
    check_doc_example("sweep_bonus");
}

#[test]
fn doc_example_irrespective() {
    check_doc_example("irrespective");
}

#[test]
fn doc_example_singapore() {
    check_doc_example("singapore");
    // Revision 1, as the page says: six pairs "later" than small cards, and
    // the typical scale's 5 for a back straight flush.
    let mut input = doc_example("singapore").input;
    input["ruleset_revision"] = json!(1);
    let r = score(&input);
    assert_eq!(special_units(&r, 1, 2), -3);
    assert_eq!(main_units(&r, 3, 4), 1 + 1 + 5);
}

#[test]
fn doc_example_vietnamese() {
    check_doc_example("vietnamese");
    let mut input = doc_example("vietnamese").input;
    input["options"] = json!({"sweep_double_triple": true});
    assert_eq!(main_units(&score(&input), 3, 4), 6 * 2, "seats 1 and 2 declared specials: double, not triple");
    input["options"] = Value::Null;
    input["ruleset_revision"] = json!(1);
    let r = score(&input);
    assert_eq!((special_units(&r, 1, 2), special_units(&r, 2, 3), main_units(&r, 3, 4)), (24, 6, 6));
}

#[test]
fn doc_example_malayan() {
    check_doc_example("malayan");
}

#[test]
fn doc_example_banker() {
    check_doc_example("banker");
}

#[test]
fn doc_example_pool() {
    check_doc_example("pool");
    let mut input = doc_example("pool").input;
    input["ruleset_revision"] = json!(1);
    let r = score(&input);
    assert_eq!((main_units(&r, 1, 3), main_units(&r, 2, 4)), (1, 1), "revision 1: tied seats collect");
}

#[test]
fn doc_example_single_winner() {
    check_doc_example("single_winner");
}
