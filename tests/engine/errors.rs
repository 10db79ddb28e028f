//! One test per kind of invalid showdown (CONTRACT.md "Errors"): nothing is
//! scored, and the message names the problem (the card, the seat, the row,
//! the preset).

use pitboss::engine::{score_json, ShowdownError};
use serde_json::{json, Value};

/// Kings / three queens / heart flush.
const STRONG: [&str; 3] = ["Ks Kh 2c", "Qs Qh Qd 3c 4d", "9h 8h 6h 5h 3h"];
/// Jack high / sevens / tens and nines; no card of STRONG.
const WEAK: [&str; 3] = ["Jd Tc 8c", "7s 7d 2d 4c 5c", "9s 9d Td Th 2s"];
/// Jacks / eights and sevens / three sixes; no card of STRONG or WEAK.
const MIDDLING: [&str; 3] = ["Js Jh 4s", "8s 8d 7h 7c 3s", "6s 6d 6c Kd Qc"];
/// One card of each rank; no card of STRONG.
const DRAGON: &str = "2h 3s 4s 5s 6s 7h 8s 9c Ts Js Qc Kd Ac";

fn seat(number: u32, rows: [&str; 3]) -> Value {
    json!({"seat": number, "stack": "100", "front": rows[0], "middle": rows[1], "back": rows[2]})
}

fn loose(number: u32, cards: &str) -> Value {
    json!({"seat": number, "stack": "100", "cards": cards})
}

fn with(mut seat: Value, key: &str, value: impl Into<Value>) -> Value {
    seat[key] = value.into();
    seat
}

fn without(mut seat: Value, key: &str) -> Value {
    seat.as_object_mut().unwrap().remove(key);
    seat
}

/// A valid two-seat showdown, to be spoiled by each test.
fn valid() -> Value {
    json!({"ruleset": "hawaiian-gardens", "seats": [seat(1, STRONG), seat(2, WEAK)]})
}

fn showdown(ruleset: &str, seats: Vec<Value>) -> Value {
    json!({"ruleset": ruleset, "seats": seats})
}

/// The error for a showdown that must be refused.
fn refused(showdown: &Value) -> ShowdownError {
    match score_json(&showdown.to_string()) {
        Ok(_) => panic!("scored, but should be refused:\n{showdown}"),
        Err(e) => e,
    }
}

/// The message names every one of `parts`.
fn assert_names(e: &ShowdownError, parts: &[&str]) {
    let message = e.to_string();
    for part in parts {
        assert!(message.contains(part), "the message {message:?} should name {part:?}");
    }
}

#[test]
fn the_valid_showdown_used_here_scores() {
    assert!(score_json(&valid().to_string()).is_ok());
}

#[test]
fn a_card_twice_in_one_seat() {
    let e = refused(&showdown(
        "hawaiian-gardens",
        vec![seat(1, ["Ks Kh 2c", "Qs Qh Qd 3c 4d", "9h 8h 6h Ks 3h"]), seat(2, WEAK)],
    ));
    assert!(matches!(e, ShowdownError::DuplicateCard { .. }), "{e:?}");
    assert_names(&e, &["Ks", "seat 1 front", "seat 1 back"]);
}

#[test]
fn a_card_in_two_seats() {
    let e = refused(&showdown(
        "hawaiian-gardens",
        vec![seat(1, STRONG), seat(2, ["Jd Tc 8c", "7s 7d 2d 4c 5c", "9s 9d Td 9h 2s"])],
    ));
    assert!(matches!(e, ShowdownError::DuplicateCard { .. }), "{e:?}");
    assert_names(&e, &["9h", "seat 1 back", "seat 2 back"]);
}

#[test]
fn a_card_twice_whatever_its_notation() {
    let e = refused(&showdown(
        "hawaiian-gardens",
        vec![seat(1, STRONG), seat(2, ["Jd Tc 8c", "7s 7d 2d 4c 5c", "9s 9d Td K♠ 2s"])],
    ));
    assert!(matches!(e, ShowdownError::DuplicateCard { .. }), "{e:?}");
    assert_names(&e, &["Ks", "seat 2 back"]);
}

#[test]
fn a_card_twice_among_loose_cards() {
    let e = refused(&showdown(
        "hawaiian-gardens",
        vec![seat(1, STRONG), with(loose(2, "2h 3s 4s 5s 6s 7h 8s 9c Ts Js Qc Kd Qs"), "surrender", true)],
    ));
    assert!(matches!(e, ShowdownError::DuplicateCard { .. }), "{e:?}");
    assert_names(&e, &["Qs", "seat 2 cards"]);
}

#[test]
fn a_discard_that_a_seat_holds() {
    // A discard held by another seat.
    let e = refused(&showdown("ofc-pineapple", vec![with(seat(1, STRONG), "discards", "Ad 9s"), seat(2, WEAK)]));
    assert!(matches!(e, ShowdownError::DuplicateCard { .. }), "{e:?}");
    assert_names(&e, &["9s", "seat 1 discards", "seat 2"]);
    // A discard held by the same seat.
    let e = refused(&showdown("ofc-pineapple", vec![with(seat(1, STRONG), "discards", "Ks"), seat(2, WEAK)]));
    assert!(matches!(e, ShowdownError::DuplicateCard { .. }), "{e:?}");
    assert_names(&e, &["Ks", "discards"]);
    // Two seats discarding the same card.
    let e = refused(&showdown(
        "ofc-pineapple",
        vec![with(seat(1, STRONG), "discards", "Ad"), with(seat(2, WEAK), "discards", "Ad")],
    ));
    assert!(matches!(e, ShowdownError::DuplicateCard { .. }), "{e:?}");
    assert_names(&e, &["Ad", "seat 1 discards", "seat 2 discards"]);
}

#[test]
fn a_row_with_the_wrong_number_of_cards() {
    for (rows, row, found, needed) in [
        (["Ks Kh 2c 5c", "Qs Qh Qd 3c 4d", "9h 8h 6h 5h 3h"], "front", "4", "3"),
        (["Ks Kh 2c", "Qs Qh Qd 3c", "9h 8h 6h 5h 3h"], "middle", "4", "5"),
        (["Ks Kh 2c", "Qs Qh Qd 3c 4d", "9h 8h 6h 5h 3h Ac"], "back", "6", "5"),
    ] {
        let e = refused(&showdown("hawaiian-gardens", vec![seat(1, WEAK), seat(2, rows)]));
        assert!(matches!(e, ShowdownError::CardCount { .. }), "{e:?}");
        assert_names(&e, &["seat 2", row, found, needed]);
    }
    // Twelve loose cards.
    let e = refused(&showdown(
        "hawaiian-gardens",
        vec![seat(1, STRONG), with(loose(2, "2h 3s 4s 5s 6s 7h 8s 9c Ts Js Qc Kd"), "surrender", true)],
    ));
    assert!(matches!(e, ShowdownError::CardCount { .. }), "{e:?}");
    assert_names(&e, &["seat 2", "cards", "12", "13"]);
}

#[test]
fn card_text_that_is_not_a_card() {
    for bad in ["Kx", "1h", "Zs", "K", "AsKs"] {
        let middle = format!("7s 7d {bad} 4c 5c");
        let e = refused(&showdown(
            "hawaiian-gardens",
            vec![seat(1, STRONG), seat(2, ["Jd Tc 8c", &middle, "9s 9d Td Th 2s"])],
        ));
        assert!(matches!(e, ShowdownError::Card { .. }), "{bad}: {e:?}");
        assert_names(&e, &[bad, "seat 2", "middle"]);
    }
}

#[test]
fn an_unknown_preset() {
    for name in ["texas-holdem", "Simple", "HAWAIIAN-GARDENS", ""] {
        let mut s = valid();
        s["ruleset"] = json!(name);
        let e = refused(&s);
        assert!(matches!(e, ShowdownError::UnknownPreset(_)), "{name}: {e:?}");
        assert_names(&e, &[&format!("{name:?}")]);
    }
}

#[test]
fn a_seat_giving_both_rows_and_cards() {
    let e = refused(&showdown(
        "hawaiian-gardens",
        vec![seat(1, STRONG), with(seat(2, WEAK), "cards", "Jd Tc 8c 7s 7d 2d 4c 5c 9s 9d Td Th 2s")],
    ));
    assert!(matches!(e, ShowdownError::RowsAndCards(2)), "{e:?}");
    assert_names(&e, &["seat 2"]);
}

#[test]
fn loose_cards_without_surrender_or_an_arrangement_free_claim() {
    let e = refused(&showdown("hawaiian-gardens", vec![seat(1, STRONG), loose(2, DRAGON)]));
    assert!(matches!(e, ShowdownError::LooseCards(2)), "{e:?}");
    assert_names(&e, &["seat 2"]);
    // three-straights depends on the rows: it cannot be claimed with loose cards.
    let e = refused(&showdown(
        "hawaiian-gardens",
        vec![seat(1, STRONG), with(loose(2, "2s 3d 4c 4h 5d 6s 7h 8c 8d 9c Ts Jd Qc"), "claim", "three-straights")],
    ));
    assert!(matches!(e, ShowdownError::LooseCards(2)), "{e:?}");
    assert_names(&e, &["seat 2"]);
}

#[test]
fn a_seat_with_missing_rows_or_no_cards() {
    let e = refused(&showdown("hawaiian-gardens", vec![seat(1, STRONG), without(seat(2, WEAK), "back")]));
    assert!(matches!(e, ShowdownError::MissingRow { .. }), "{e:?}");
    assert_names(&e, &["seat 2", "back"]);
    let e = refused(&showdown("hawaiian-gardens", vec![seat(1, STRONG), json!({"seat": 2, "stack": "100"})]));
    assert!(matches!(e, ShowdownError::NoCards(2)), "{e:?}");
    assert_names(&e, &["seat 2"]);
}

#[test]
fn a_claim_the_cards_do_not_make() {
    let e = refused(&showdown("hawaiian-gardens", vec![seat(1, STRONG), with(seat(2, WEAK), "claim", "dragon")]));
    assert!(matches!(e, ShowdownError::ClaimNotMade { .. }), "{e:?}");
    assert_names(&e, &["seat 2", "dragon"]);
    // Loose cards that are no dragon.
    let e = refused(&showdown(
        "hawaiian-gardens",
        vec![seat(1, STRONG), with(loose(2, "2h 3s 4s 5s 6s 7h 8s 9c Ts Js Qc Kd Kc"), "claim", "dragon")],
    ));
    assert!(matches!(e, ShowdownError::ClaimNotMade { .. }), "{e:?}");
    assert_names(&e, &["seat 2", "dragon"]);
}

#[test]
fn a_claim_of_best_with_no_special() {
    let e = refused(&showdown("hawaiian-gardens", vec![seat(1, STRONG), with(seat(2, WEAK), "claim", "best")]));
    assert!(matches!(e, ShowdownError::ClaimNotMade { .. }), "{e:?}");
    assert_names(&e, &["seat 2", "best"]);
}

#[test]
fn a_claim_of_three_straights_the_rows_do_not_show() {
    // The cards could make three straights, but the rows are set otherwise.
    let e = refused(&showdown(
        "hawaiian-gardens",
        vec![
            seat(1, STRONG),
            with(seat(2, ["2s 3d 4c", "4h 5d 6s 7h 9c", "8c 8d Ts Jd Qc"]), "claim", "three-straights"),
        ],
    ));
    assert!(matches!(e, ShowdownError::ClaimNotMade { .. }), "{e:?}");
    assert_names(&e, &["seat 2", "three-straights"]);
}

#[test]
fn a_claim_and_a_surrender_together() {
    let e = refused(&showdown(
        "hawaiian-gardens",
        vec![seat(1, STRONG), with(with(loose(2, DRAGON), "claim", "dragon"), "surrender", true)],
    ));
    assert!(matches!(e, ShowdownError::ClaimAndSurrender(2)), "{e:?}");
    assert_names(&e, &["seat 2"]);
}

#[test]
fn an_unknown_special_name() {
    let e =
        refused(&showdown("hawaiian-gardens", vec![seat(1, STRONG), with(loose(2, DRAGON), "claim", "golden-dragon")]));
    assert!(matches!(e, ShowdownError::UnknownSpecial { .. }), "{e:?}");
    assert_names(&e, &["seat 2", "golden-dragon", "hawaiian-gardens"]);
    // A special of another preset.
    let e = refused(&showdown("typical", vec![seat(1, STRONG), with(loose(2, DRAGON), "claim", "twelve-one-color")]));
    assert!(matches!(e, ShowdownError::UnknownSpecial { .. }), "{e:?}");
    assert_names(&e, &["seat 2", "twelve-one-color", "typical"]);
}

#[test]
fn discards_outside_ofc_pineapple() {
    for preset in ["hawaiian-gardens", "ofc", "simple"] {
        let e = refused(&showdown(preset, vec![with(seat(1, STRONG), "discards", "Ad"), seat(2, WEAK)]));
        assert!(matches!(e, ShowdownError::DiscardsNotAllowed { .. }), "{preset}: {e:?}");
        assert_names(&e, &["seat 1", "discards", preset]);
    }
}

#[test]
fn fewer_than_2_seats() {
    for seats in [vec![], vec![seat(1, STRONG)]] {
        let n = seats.len();
        let e = refused(&showdown("hawaiian-gardens", seats));
        assert!(matches!(e, ShowdownError::SeatCount(k) if k == n), "{e:?}");
        assert_names(&e, &[&n.to_string()]);
    }
}

#[test]
fn more_than_4_seats() {
    // Five seats cannot hold 65 distinct cards: the count is what must be named.
    let seats = vec![
        seat(1, STRONG),
        seat(2, WEAK),
        seat(3, MIDDLING),
        seat(4, ["9c 4h 3d", "5s 5d Kc Jc Ts", "Ac Ad Ah As 2h"]),
        loose(5, "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"),
    ];
    for preset in ["hawaiian-gardens", "banker", "malayan"] {
        let e = refused(&showdown(preset, seats.clone()));
        assert!(matches!(e, ShowdownError::SeatCount(5)), "{preset}: {e:?}");
        assert_names(&e, &["5"]);
    }
}

#[test]
fn a_repeated_seat_number() {
    let e = refused(&showdown("hawaiian-gardens", vec![seat(1, STRONG), seat(2, WEAK), seat(1, MIDDLING)]));
    assert!(matches!(e, ShowdownError::RepeatedSeat(1)), "{e:?}");
    assert_names(&e, &["seat 1"]);
}

#[test]
fn a_dealer_that_is_not_a_seat() {
    let mut s = valid();
    s["dealer"] = json!(3);
    let e = refused(&s);
    assert!(matches!(e, ShowdownError::DealerNotSeated(3)), "{e:?}");
    assert_names(&e, &["seat 3", "dealer"]);
}

#[test]
fn pair_units_naming_an_unknown_seat() {
    let mut s = valid();
    s["pair_units"] = json!([{"seats": [1, 9], "unit": "5"}]);
    let e = refused(&s);
    assert!(matches!(e, ShowdownError::PairUnits(_)), "{e:?}");
    assert_names(&e, &["pair_units", "seat 9"]);
}

#[test]
fn pair_units_naming_a_pair_twice() {
    for second in [[1, 2], [2, 1]] {
        let mut s = valid();
        s["pair_units"] = json!([
            {"seats": [1, 2], "unit": "5"},
            {"seats": second, "unit": "10"},
        ]);
        let e = refused(&s);
        assert!(matches!(e, ShowdownError::PairUnits(_)), "{second:?}: {e:?}");
        assert_names(&e, &["pair_units", "twice"]);
    }
    // A seat paired with itself is no pair.
    let mut s = valid();
    s["pair_units"] = json!([{"seats": [2, 2], "unit": "5"}]);
    let e = refused(&s);
    assert!(matches!(e, ShowdownError::PairUnits(_)), "{e:?}");
    assert_names(&e, &["pair_units", "seat 2"]);
}

#[test]
fn negative_money() {
    let cases: Vec<(&str, Value)> = vec![
        ("stack", showdown("hawaiian-gardens", vec![seat(1, STRONG), with(seat(2, WEAK), "stack", "-5")])),
        ("unit", json!({"unit": "-1", "seats": [seat(1, STRONG), seat(2, WEAK)]})),
        ("rake", json!({"rake": {"per_seat": "-0.50"}, "seats": [seat(1, STRONG), seat(2, WEAK)]})),
        (
            "pair_units",
            json!({
                "pair_units": [{"seats": [1, 2], "unit": "-2"}],
                "seats": [seat(1, STRONG), seat(2, WEAK)],
            }),
        ),
        ("stack", showdown("hawaiian-gardens", vec![seat(1, STRONG), with(seat(2, WEAK), "stack", -5)])),
    ];
    for (what, s) in cases {
        let e = refused(&s);
        assert!(matches!(e, ShowdownError::Money(_)), "{what}: {e:?}");
        assert_names(&e, &[what, "negative"]);
    }
}

#[test]
fn malformed_money() {
    let cases: Vec<(&str, &str, Value)> = vec![
        ("stack", "abc", showdown("hawaiian-gardens", vec![seat(1, STRONG), with(seat(2, WEAK), "stack", "abc")])),
        ("stack", "12,50", showdown("hawaiian-gardens", vec![seat(1, STRONG), with(seat(2, WEAK), "stack", "12,50")])),
        ("unit", "1.2.3", json!({"unit": "1.2.3", "seats": [seat(1, STRONG), seat(2, WEAK)]})),
        ("rake", "ten", json!({"rake": {"per_seat": "ten"}, "seats": [seat(1, STRONG), seat(2, WEAK)]})),
        ("rake", "", json!({"rake": {"per_seat": "1", "jackpot": ""}, "seats": [seat(1, STRONG), seat(2, WEAK)]})),
    ];
    for (what, text, s) in cases {
        let e = refused(&s);
        assert!(matches!(e, ShowdownError::Money(_)), "{what} {text:?}: {e:?}");
        assert_names(&e, &[what, &format!("\"{text}\"")]);
    }
}

#[test]
fn money_of_the_wrong_json_type() {
    let e = refused(&showdown("hawaiian-gardens", vec![seat(1, STRONG), with(seat(2, WEAK), "stack", json!([40]))]));
    assert!(matches!(e, ShowdownError::Json(_)), "{e:?}");
}

#[test]
fn a_missing_stack() {
    let e = refused(&showdown("hawaiian-gardens", vec![seat(1, STRONG), without(seat(2, WEAK), "stack")]));
    assert!(matches!(e, ShowdownError::MissingStack(2)), "{e:?}");
    assert_names(&e, &["seat 2", "stack"]);
}

#[test]
fn a_stack_smaller_than_the_rake() {
    let e = refused(&json!({
        "rake": {"per_seat": "0.50"},
        "seats": [seat(1, STRONG), with(seat(2, WEAK), "stack", "0.49")],
    }));
    assert!(matches!(e, ShowdownError::StackBelowRake { seat: 2, .. }), "{e:?}");
    assert_names(&e, &["seat 2", "0.49", "0.50"]);
}

#[test]
fn a_jackpot_part_larger_than_the_rake() {
    let e = refused(&json!({
        "rake": {"per_seat": "0.50", "jackpot": "0.60"},
        "seats": [seat(1, STRONG), seat(2, WEAK)],
    }));
    assert!(matches!(e, ShowdownError::JackpotAboveRake { .. }), "{e:?}");
    assert_names(&e, &["jackpot", "0.60", "0.50"]);
    // A jackpot part with no rake at all.
    let e = refused(&json!({
        "rake": {"jackpot": "0.10"},
        "seats": [seat(1, STRONG), seat(2, WEAK)],
    }));
    assert!(matches!(e, ShowdownError::JackpotAboveRake { .. }), "{e:?}");
}

#[test]
fn a_surrender_where_the_preset_has_none() {
    for preset in ["vietnamese", "malayan", "pool"] {
        let e = refused(&showdown(preset, vec![seat(1, STRONG), with(seat(2, WEAK), "surrender", true)]));
        assert!(matches!(e, ShowdownError::SurrenderNotAllowed { .. }), "{preset}: {e:?}");
        assert_names(&e, &["seat 2", "surrender", preset]);
    }
}

#[test]
fn text_that_is_not_a_showdown() {
    for text in ["", "not json", "{", "[]", r#"{"seats": 3}"#, r#"{"players": []}"#] {
        match score_json(text) {
            Ok(_) => panic!("{text:?} was scored"),
            Err(e) => assert!(matches!(e, ShowdownError::Json(_)), "{text:?}: {e:?}"),
        }
    }
}

#[test]
fn trailing_text_after_the_showdown_is_an_error() {
    let err = pitboss::engine::score_json(r#"{"seats":[]} and more"#).unwrap_err();
    assert!(matches!(err, ShowdownError::Json(_)), "{err:?}");
    assert!(err.to_string().contains("trailing characters"), "{err}");
}

#[test]
fn a_wrongly_typed_field_is_named_by_its_path() {
    let err = pitboss::engine::score_json(r#"{"seats":[{"seat":"one","stack":"1"}]}"#).unwrap_err();
    assert!(err.to_string().contains("seats[0].seat"), "{err}");
}

// ---------------------------------------------------------------------------
// Issue 14: input strictness and clear messages

/// Nine high / fives / four aces; no card of STRONG, WEAK or MIDDLING.
const ACES: [&str; 3] = ["9c 4h 3d", "5s 5d Kc Jc Ts", "Ac Ad Ah As 2h"];

#[test]
fn pineapple_takes_at_most_3_players_with_or_without_options() {
    let four = || vec![seat(1, STRONG), seat(2, WEAK), seat(3, MIDDLING), seat(4, ACES)];
    let e = refused(&showdown("ofc-pineapple", four()));
    assert!(matches!(e, ShowdownError::PlayerCount { max: 3, found: 4, .. }), "{e:?}");
    assert_names(&e, &["ofc-pineapple", "2 to 3 players", "4"]);
    let mut with_options = showdown("ofc-pineapple", four());
    with_options["options"] = json!({});
    assert!(matches!(refused(&with_options), ShowdownError::PlayerCount { max: 3, .. }));
    // Revision 1 took four seats without options (committed hands rescore).
    let mut old = showdown("ofc-pineapple", four());
    old["ruleset_revision"] = json!(1);
    assert!(score_json(&old.to_string()).is_ok());
    // ofc takes four.
    assert!(score_json(&showdown("ofc", four()).to_string()).is_ok());
}

#[test]
fn pineapple_discards_are_counted_with_or_without_options() {
    let five = with(seat(2, WEAK), "discards", "Js Jh 4s 8s 8d");
    let e = refused(&showdown("ofc-pineapple", vec![seat(1, STRONG), five.clone()]));
    assert!(matches!(e, ShowdownError::TablePlay { seat: 2, .. }), "{e:?}");
    assert_names(&e, &["seat 2", "5 discards", "at most 4"]);
    let four = with(seat(2, WEAK), "discards", "Js Jh 4s 8s");
    assert!(score_json(&showdown("ofc-pineapple", vec![seat(1, STRONG), four]).to_string()).is_ok());
    let mut old = showdown("ofc-pineapple", vec![seat(1, STRONG), five]);
    old["ruleset_revision"] = json!(1);
    assert!(score_json(&old.to_string()).is_ok(), "revision 1 counted discards only with options");
}

#[test]
fn pair_units_naming_three_seats() {
    let mut s = valid();
    s["pair_units"] = json!([{"seats": [1, 2, 3], "unit": "2"}]);
    let e = refused(&s);
    assert!(matches!(e, ShowdownError::Json(_)), "{e:?}");
    assert_names(&e, &["pair_units[0].seats", "a pair is two seats", "3 are named (1, 2, 3)"]);
    assert!(!e.to_string().contains("trailing characters"), "{e}");
    s["pair_units"] = json!([{"seats": [1], "unit": "2"}]);
    assert_names(&refused(&s), &["a pair is two seats", "1 is named (1)"]);
}

#[test]
fn a_json_array_or_other_value_is_not_a_showdown() {
    for (text, kind) in [
        (format!("[{}]", valid()), "not an array"),
        ("[]".to_string(), "not an array"),
        ("\"hello\"".to_string(), "not a string"),
        ("42".to_string(), "not a number"),
        ("null".to_string(), "not null"),
    ] {
        let e = score_json(&text).unwrap_err();
        assert!(matches!(e, ShowdownError::Json(_)), "{text}: {e:?}");
        assert_names(&e, &["a showdown is one JSON object", kind]);
        assert!(!e.to_string().contains("expected struct"), "{e}");
    }
}

#[test]
fn claim_best_in_a_preset_without_specials() {
    for preset in ["simple", "ofc", "two-four", "banker", "pool"] {
        let e = refused(&showdown(preset, vec![seat(1, STRONG), with(loose(2, DRAGON), "claim", "best")]));
        assert!(matches!(e, ShowdownError::NoSpecials { seat: 2, .. }), "{preset}: {e:?}");
        assert_names(&e, &["seat 2", "best", &format!("preset {preset} has no special hands")]);
    }
}

#[test]
fn money_in_exponent_form_that_is_too_large() {
    for stack in [json!("1e30"), json!(1e30), json!("2E13")] {
        let e = refused(&with_stack(stack.clone()));
        assert!(matches!(e, ShowdownError::Money(_)), "{stack}: {e:?}");
        assert_names(&e, &["seat 1 stack", "too large"]);
    }
    // A small amount with an exponent is refused for the exponent.
    let e = refused(&with_stack(json!("1e2")));
    assert_names(&e, &["exponent"]);
    assert!(!e.to_string().contains("too large"), "{e}");
}

fn with_stack(stack: Value) -> Value {
    let mut s = valid();
    s["seats"][0]["stack"] = stack;
    s
}

#[test]
fn an_unknown_ruleset_revision() {
    let mut s = valid();
    s["ruleset_revision"] = json!(2);
    let e = refused(&s);
    assert!(matches!(e, ShowdownError::UnknownRevision { revision: 2, current: 1, .. }), "{e:?}");
    assert_names(&e, &["hawaiian-gardens", "no revision 2", "1 to 1"]);
    s["ruleset_revision"] = json!(-1);
    assert_names(&refused(&s), &["ruleset_revision"]);
}

#[test]
fn an_option_the_preset_does_not_have_or_without_its_number() {
    let mut s = valid();
    s["options"] = json!({"dragon_26": true});
    let e = refused(&s);
    assert!(matches!(e, ShowdownError::Options(_)), "{e:?}");
    assert_names(&e, &["dragon_26", "hawaiian-gardens", "singapore"]);
    s["options"] = json!({"no_pictures": true});
    assert_names(&refused(&s), &["no_pictures", "the house must set it"]);
    let e = refused(&json!({"ruleset": "single-winner", "seats": [seat(1, STRONG), seat(2, WEAK)]}));
    assert_names(&e, &["single-winner", "winner_units", "house"]);
}
