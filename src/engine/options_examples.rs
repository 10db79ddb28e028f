//! Worked examples of the table options through the whole engine (scoring
//! and settlement): a test module of its own, so that `options` depends on
//! nothing that depends on it.

use rust_decimal::Decimal;
use serde_json::json;

use super::score_json;

/// Seat 1 sets a jack-high back without a foul; seat 2 scoops it with
/// AA in front (9) and a full house in the back (6).
const MOON: &str =
    r#"{"seat": 1, "stack": "100", "front": "2s 3h 4d", "middle": "5c 6s 7h 8d Tc", "back": "Js 9h 8c 6d 3c"}"#;
const AA_FH: &str =
    r#"{"seat": 2, "stack": "100", "front": "Ah Ad Kc", "middle": "2h 2d 5h 5d 9c", "back": "Qs Qh Qd 4s 4h"}"#;

fn two(options: &str, seat1_extra: &str, seat2_extra: &str) -> serde_json::Value {
    let s1 = MOON.replacen('{', &format!("{{{seat1_extra}"), 1);
    let s2 = AA_FH.replacen('{', &format!("{{{seat2_extra}"), 1);
    let text = format!(r#"{{"ruleset": "ofc", {options} "seats": [{s1}, {s2}]}}"#);
    serde_json::to_value(score_json(&text).unwrap_or_else(|e| panic!("{text}: {e}"))).unwrap()
}

fn main_units(r: &serde_json::Value) -> i64 {
    r["pairs"][0]["main_units"].as_i64().unwrap()
}

#[test]
fn shooting_the_moon_collects_20() {
    // Plain: seat 2 scoops (1+1+1+3) and has 15 in royalties: 21.
    let plain = two("", "", "");
    assert_eq!(main_units(&plain), -21);
    assert!(plain["seats"][0].get("moon").is_none(), "no option, no new field");
    let moon = two(r#""options": {"shoot_the_moon": true},"#, "", "");
    assert_eq!(main_units(&moon), -1, "21 lost, 20 collected");
    assert_eq!(moon["seats"][0]["moon"], json!(true));
    assert_eq!(moon["seats"][1]["moon"], json!(false));
    assert_eq!(moon["seats"][1]["net"].as_str().unwrap().parse::<Decimal>().unwrap(), Decimal::ONE);
}

#[test]
fn penalties_pay_and_missed_turn_rules() {
    let t = r#""options": {"tournament": true},"#;
    // A card turned early by seat 2: seat 2 pays 1.
    assert_eq!(main_units(&two(t, "", r#""penalties": ["early-card"],"#)), -20);
    // Seat 1 missed a turn: pays 3 and not seat 2's 15 in royalties: 6 + 3.
    assert_eq!(main_units(&two(t, r#""penalties": ["missed-turn"],"#, "")), -9);
    // Seat 2 missed a turn; seat 1 turned a card early: seat 2 would take
    // 21 - 3 + 1 = 19, but takes nothing from a penalised seat.
    assert_eq!(main_units(&two(t, r#""penalties": ["early-card"],"#, r#""penalties": ["missed-turn"],"#)), 0);
    // Seat 2's hand is declared dead: the full foul, 6, plus seat 1's
    // royalties (none).
    let dead = two(t, "", r#""penalties": ["dead-hand"],"#);
    assert_eq!(main_units(&dead), 6);
    assert_eq!(dead["seats"][1]["fouled"], json!(true));
    assert_eq!(dead["seats"][1]["penalties"], json!(["dead-hand"]));
    // Penalties need the tournament option.
    let e = score_json(&format!(
        r#"{{"ruleset": "ofc", "seats": [{}, {AA_FH}]}}"#,
        MOON.replacen('{', r#"{"penalties": ["early-card"],"#, 1)
    ))
    .unwrap_err();
    assert!(e.to_string().contains("seat 1: penalty early-card needs the tournament option"), "{e}");
}

#[test]
fn kk_entry_and_progressive_cards_in_the_result() {
    let qq = two(r#""options": {},"#, "", "");
    assert_eq!(qq["seats"][1]["fantasyland_next"], json!(true));
    assert_eq!(qq["seats"][1]["fantasyland_cards"], json!(13));
    let kk = two(r#""options": {"fantasyland_entry": "KK"},"#, "", "");
    assert_eq!(kk["seats"][1]["fantasyland_next"], json!(true), "AA qualifies at KK");
}

fn four_surrendered(options: &str, stacks: [&str; 4]) -> super::showdown::Showdown {
    let suits = ['s', 'h', 'd', 'c'];
    let seats: Vec<String> = (0..4)
        .map(|i| {
            let cards: Vec<String> = "23456789TJQKA".chars().map(|r| format!("{r}{}", suits[i])).collect();
            format!(
                r#"{{"seat": {}, "stack": "{}", "cards": "{}", "surrender": true}}"#,
                i + 1,
                stacks[i],
                cards.join(" ")
            )
        })
        .collect();
    super::showdown::Showdown::from_json(&format!(
        r#"{{"ruleset": "ofc", "dealer": 3, {options} "seats": [{}]}}"#,
        seats.join(",")
    ))
    .unwrap()
}

#[test]
fn bust_out_settles_from_position_1_and_an_out_player_stops() {
    use super::settlement::settle;
    // A (seat 1) has 10 and owes B 12; C owes A 5, D owes A 4; B owes... C pays B 2; C owes D 3.
    let sd = four_surrendered(r#""options": {"tournament": true},"#, ["10", "100", "100", "100"]);
    let order: Vec<usize> = sd.settlement_order().collect();
    assert_eq!(order, [0, 1, 2, 3], "position 1 first, whoever has the button");
    let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    let units = [[0, -12], [0, 5], [0, 4], [0, 2], [0, 0], [0, -3]];
    let s = settle(&sd, &pairs, &units);
    let paid: Vec<String> = s.transactions.iter().map(|t| format!("{}>{} {}", t.payer, t.payee, t.paid)).collect();
    assert_eq!(paid, ["1>2 10", "3>1 0", "4>1 0", "3>2 2", "3>4 3"]);
    assert_eq!(s.stacks, ["0", "112", "95", "103"].map(|x| x.parse::<Decimal>().unwrap()));
    assert_eq!(s.out, [true, false, false, false]);
    assert_eq!(s.nets.iter().sum::<Decimal>(), Decimal::ZERO);
}

#[test]
fn carried_exposure_bounds_the_settlement() {
    use super::settlement::settle;
    let mut sd = four_surrendered("", ["100", "100", "100", "100"]);
    // Seat 1 carries 8 from the hand it extends (RULES §8 example numbers).
    sd.seats[0].exposure = Some(Decimal::from(8));
    let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    let units = [[0, 6], [0, -6], [0, -1], [0, 0], [0, 0], [0, 0]];
    let s = settle(&sd, &pairs, &units);
    let paid: Vec<String> = s.transactions.iter().map(|t| format!("{}>{} {}", t.payer, t.payee, t.paid)).collect();
    assert_eq!(paid, ["2>1 6", "1>3 2", "1>4 0"]);
    assert_eq!(s.stacks[0], Decimal::from(104));
    assert_eq!(s.exposures[0], Decimal::ZERO);
    assert_eq!(s.exposures[1], Decimal::from(94));
}
