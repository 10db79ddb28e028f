//! The house-way setter (`engine::setter`):
//!  1. the house setting never fouls and uses exactly the 13 cards (2,000
//!     random hands over every preset);
//!  2. every hand has a legal setting, shown independently of the setter: the
//!     best five as the back, the best five of the rest as the middle, the
//!     last three as the front never foul (5,000 random hands);
//!  3. the house setting's key equals the best key found by a brute-force
//!     reference over all 72,072 settings (a few hundred random hands and the
//!     worked examples);
//!  4. the setting depends on the cards only, not on their order;
//!  5. worked examples: quads, a straight flush kept whole, a dragon, a hand
//!     whose natural setting fouls;
//!  6. specials on a one-suit hand under `hawaiian-gardens` and `malayan`;
//!  7. foul explanations in words, and the JSON of an analysis;
//!  8. `ofc` row units equal the royalties the scoring sheet gives.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::json;

use pitboss::engine::eval::front_beats_middle;
use pitboss::engine::ruleset::preset;
use pitboss::engine::scoring::{judge, RowStrengths};
use pitboss::engine::setter::{
    analyse, best_special, explain_foul, house_key, house_set, qualifying_specials, HouseKey, HouseWay, Setting,
};
use pitboss::engine::special::{qualifies, SpecialKind};
use pitboss::engine::{eval5, parse_cards, Card, Ruleset, Showdown, Strength5, PRESETS};

fn rules(name: &str) -> &'static Ruleset {
    preset(name).expect("preset exists")
}

fn cards<const N: usize>(text: &str) -> [Card; N] {
    parse_cards(text).unwrap().try_into().unwrap_or_else(|v: Vec<Card>| panic!("{} cards in {text:?}", v.len()))
}

fn random_hands(seed: u64, count: usize) -> Vec<[Card; 13]> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deck: Vec<Card> = Card::deck().collect();
    (0..count)
        .map(|_| {
            let (hand, _) = deck.partial_shuffle(&mut rng, 13);
            hand.try_into().unwrap()
        })
        .collect()
}

fn bits(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |b, c| b | c.bit())
}

fn assert_same_cards(setting: &Setting, hand: &[Card; 13]) {
    assert_eq!(bits(&setting.cards()), bits(hand), "cards of {setting}");
    assert_eq!(bits(&setting.cards()).count_ones(), 13);
}

/// The best key over every one of the 72,072 settings that does not foul,
/// with the setting, and how many settings there were.
fn brute_force(hand: &[Card; 13], way: &HouseWay) -> (Option<(HouseKey, Setting)>, usize) {
    let mut best: Option<(HouseKey, Setting)> = None;
    let mut settings = 0;
    for a in 0..13 {
        for b in a + 1..13 {
            for c in b + 1..13 {
                let front = [hand[a], hand[b], hand[c]];
                let mut rest = [hand[0]; 10];
                let mut n = 0;
                for (i, &card) in hand.iter().enumerate() {
                    if i != a && i != b && i != c {
                        rest[n] = card;
                        n += 1;
                    }
                }
                for mask in 0u32..1 << 10 {
                    if mask.count_ones() != 5 {
                        continue;
                    }
                    settings += 1;
                    let (mut middle, mut back) = ([hand[0]; 5], [hand[0]; 5]);
                    let (mut m, mut k) = (0, 0);
                    for (i, &card) in rest.iter().enumerate() {
                        if mask >> i & 1 == 1 {
                            middle[m] = card;
                            m += 1;
                        } else {
                            back[k] = card;
                            k += 1;
                        }
                    }
                    let rows = RowStrengths::of(&front, &middle, &back);
                    if rows.is_fouled() {
                        continue;
                    }
                    // The middle is the key's first part: a weaker one cannot win.
                    if best.as_ref().is_some_and(|(k, _)| rows.middle < k.middle) {
                        continue;
                    }
                    let key = way.key(&front, &middle, &back);
                    if best.as_ref().is_none_or(|(k, _)| key > *k) {
                        best = Some((key, Setting::new(front, middle, back)));
                    }
                }
            }
        }
    }
    (best, settings)
}

fn assert_matches_brute_force(hand: &[Card; 13], rules: &Ruleset) {
    let way = HouseWay::new(rules);
    let house = way.set(hand);
    let (best, settings) = brute_force(hand, &way);
    assert_eq!(settings, 72_072);
    let (best_key, best_setting) = best.expect("a legal setting exists");
    let key = way.key_of(&house);
    assert_eq!(
        key,
        best_key,
        "{} under {}: house {house} vs brute force {best_setting}",
        pitboss::engine::card::display_cards(hand),
        rules.name
    );
    // Equal keys carry equal card sets per row: the same setting.
    assert_eq!(bits(&house.front), bits(&best_setting.front));
    assert_eq!(bits(&house.middle), bits(&best_setting.middle));
    assert_eq!(bits(&house.back), bits(&best_setting.back));
}

// ---------------------------------------------------------------------------
// 1-4: properties over random hands

#[test]
fn house_setting_never_fouls() {
    for (i, hand) in random_hands(1, 2_000).iter().enumerate() {
        let rules = &PRESETS[i % PRESETS.len()];
        let s = house_set(hand, rules);
        assert!(!s.is_fouled(), "{s} fouls under {}", rules.name);
        assert_same_cards(&s, hand);
        assert_eq!(s.strengths, RowStrengths::of(&s.front, &s.middle, &s.back));
    }
}

#[test]
fn every_hand_has_a_legal_setting() {
    fn best_five(cards: &[Card]) -> [Card; 5] {
        let n = cards.len();
        let mut best: Option<(Strength5, [Card; 5])> = None;
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    for d in c + 1..n {
                        for e in d + 1..n {
                            let five = [cards[a], cards[b], cards[c], cards[d], cards[e]];
                            let s = eval5(&five);
                            if best.is_none_or(|(bs, _)| s > bs) {
                                best = Some((s, five));
                            }
                        }
                    }
                }
            }
        }
        best.unwrap().1
    }
    for hand in random_hands(2, 5_000) {
        let back = best_five(&hand);
        let rest: Vec<Card> = hand.iter().copied().filter(|c| !back.contains(c)).collect();
        let middle = best_five(&rest);
        let front: [Card; 3] =
            rest.iter().copied().filter(|c| !middle.contains(c)).collect::<Vec<_>>().try_into().unwrap();
        let rows = RowStrengths::of(&front, &middle, &back);
        assert!(rows.back >= rows.middle);
        assert!(!front_beats_middle(rows.front, rows.middle), "{front:?} {middle:?}");
        assert!(!rows.is_fouled());
        // and the setter finds one (it would panic otherwise)
        assert!(!house_set(&hand, rules("hawaiian-gardens")).is_fouled());
    }
}

#[test]
fn house_setting_equals_the_brute_force_best() {
    let hands = random_hands(3, 240);
    let names = ["hawaiian-gardens", "ofc", "malayan", "typical", "simple", "two-four"];
    for (i, hand) in hands.iter().enumerate() {
        assert_matches_brute_force(hand, rules(names[i % names.len()]));
    }
}

#[test]
fn worked_examples_equal_the_brute_force_best() {
    for text in [
        "As Ad Ah Ac Kd Qs Jh 9c 8d 7s 5h 4c 2d",
        "Ks Kh Kd Kc As Ah Ad 7c 7s 4d 3h 2c 9s",
        "2c 3d 4h 5s 6c 7d 8h 9s Tc Jc Qs Kd Ac",
        "Qh Qd 7c Js Jc Kd 3c 2s As Ah 8d 8c 4s",
        "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
        "2s 5s 9s Js Ks 2h 5h 9h Jh Ah 4d 7d Qd",
        // a single pair (every hand with fewer pairs holds a straight)
        "Ah Kd Qs Jh 9c 8d 6s 5h 4c 3c 2d 2s Tc",
        "5h 6h 7h 8h 9h 9s As Ad Ac Kc Qd 3c 2d",
    ] {
        let hand: [Card; 13] = cards(text);
        // presets with different row-unit tables
        for name in ["hawaiian-gardens", "ofc", "malayan", "typical", "simple"] {
            assert_matches_brute_force(&hand, rules(name));
        }
    }
}

#[test]
fn the_setting_depends_on_the_cards_not_their_order() {
    let mut rng = SmallRng::seed_from_u64(4);
    for (i, hand) in random_hands(5, 300).into_iter().enumerate() {
        let rules = &PRESETS[i % PRESETS.len()];
        let first = house_set(&hand, rules);
        let mut shuffled = hand;
        shuffled.shuffle(&mut rng);
        assert_eq!(house_set(&shuffled, rules), first);
    }
}

// ---------------------------------------------------------------------------
// 5: worked examples

fn assert_rows(s: &Setting, front: &str, middle: &str, back: &str) {
    assert_eq!(
        (
            pitboss::engine::card::display_cards(&s.front),
            pitboss::engine::card::display_cards(&s.middle),
            pitboss::engine::card::display_cards(&s.back)
        ),
        (front.to_string(), middle.to_string(), back.to_string()),
        "{s}"
    );
}

#[test]
fn quads_are_split_when_a_pair_of_aces_is_the_strongest_middle() {
    // Four aces and nine odd cards with no straight or flush: the strongest
    // middle with a legal back is a pair of aces whose kickers (Q J 9) the
    // back's (K ..) still beat; the front is the best three left (8 7 5).
    let hand = cards("As Ad Ah Ac Kd Qs Jh 9c 8d 7s 5h 4c 2d");
    let s = house_set(&hand, rules("hawaiian-gardens"));
    assert_rows(&s, "8d 7s 5h", "As Ah Qs Jh 9c", "Ad Ac Kd 4c 2d");
}

#[test]
fn quads_stay_in_the_back_when_the_middle_cannot_use_them() {
    // Aces full in the middle needs a back above it: the four kings.
    let hand = cards("Ks Kh Kd Kc As Ah Ad 7c 7s 4d 3h 2c 9s");
    let s = house_set(&hand, rules("hawaiian-gardens"));
    assert_eq!(pitboss::engine::words::describe5(s.strengths.back), "four kings");
    assert_eq!(pitboss::engine::words::describe5(s.strengths.middle), "full house, aces over sevens");
    assert_rows(&s, "9s 4d 3h", "As Ah Ad 7s 7c", "Ks Kh Kd Kc 2c");
}

#[test]
fn a_straight_flush_is_kept_whole_in_the_back() {
    // Middle three aces, king queen; front 9 3 2. Either nine can go in
    // front: the back is then a straight flush or a plain straight.
    let hand = cards("5h 6h 7h 8h 9h 9s As Ad Ac Kc Qd 3c 2d");
    for name in ["hawaiian-gardens", "simple", "ofc"] {
        let s = house_set(&hand, rules(name));
        assert_rows(&s, "9s 3c 2d", "As Ad Ac Kc Qd", "9h 8h 7h 6h 5h");
        let broken = Setting::new(cards("9h 3c 2d"), cards("As Ad Ac Kc Qd"), cards("9s 8h 7h 6h 5h"));
        assert!(!broken.is_fouled());
        let (kept, broken) = (s.key(rules(name)), broken.key(rules(name)));
        assert_eq!((kept.middle, kept.front), (broken.middle, broken.front));
        assert!(kept > broken);
        assert!(kept.back > broken.back);
        if name != "simple" {
            assert!(kept.units > broken.units, "{name}");
        }
    }
}

#[test]
fn a_dragon_is_set_as_two_straights() {
    let hand = cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jc Qs Kd Ac");
    let s = house_set(&hand, rules("hawaiian-gardens"));
    assert_rows(&s, "4h 3d 2c", "9s 8h 7d 6c 5s", "Ac Kd Qs Jc Tc");
    let found = qualifying_specials(&hand, rules("hawaiian-gardens"));
    let names: Vec<(&str, i64)> = found.iter().map(|f| (f.kind.name(), f.value)).collect();
    assert_eq!(names, [("three-straights", 4), ("dragon", 13)]);
    assert_eq!(found[0].setting, Some(s));
    assert_eq!(found[1].setting, None);
    assert_eq!(best_special(&found).unwrap().kind, SpecialKind::Dragon);
}

#[test]
fn a_hand_whose_natural_setting_fouls() {
    // Set as dealt (queens in front, jacks in the middle) it fouls.
    let front = cards("Qh Qd 7c");
    let middle = cards("Js Jc Kd 3c 2s");
    let back = cards("As Ah 8d 8c 4s");
    let e = explain_foul(&front, &middle, &back, rules("hawaiian-gardens")).expect("fouls");
    assert_eq!(e.reason, "middle pair of jacks is below front pair of queens");
    assert_eq!(
        e.message,
        "middle pair of jacks is below front pair of queens; a legal setting was: \
         front 7c 4s 3c, middle Qh Qd Js Jc Kd, back As Ah 8d 8c 2s"
    );
    assert!(!e.legal_setting.is_fouled());
    let hand = e.legal_setting.cards();
    assert_eq!(bits(&hand), bits(&front) | bits(&middle) | bits(&back));
    assert_eq!(e.legal_setting, house_set(&hand, rules("hawaiian-gardens")));

    // back below middle
    let e = explain_foul(&cards("2h 3d 5c"), &cards("Ks Kd 9h 9c 4s"), &cards("As Ah 8d 7c 6s"), rules("simple"))
        .expect("fouls");
    assert_eq!(e.reason, "back pair of aces is below middle two pair, kings and nines");
    assert!(e
        .message
        .starts_with("back pair of aces is below middle two pair, kings and nines; a legal setting was: front "));

    // not fouled: nothing to explain
    assert!(
        explain_foul(&cards("7c 4s 3c"), &cards("Qh Qd Js Jc Kd"), &cards("As Ah 8d 8c 2s"), rules("simple")).is_none()
    );
}

#[test]
fn row_units_follow_each_presets_tables() {
    // Key parts in order, and units as the presets define them.
    let front = cards("Qh Qd Qc");
    let middle = cards("Ks Kh Kd 2s 2h");
    let back = cards("As Ks Qs Js Ts");
    let key = house_key(&cards("2d 3d 4d"), &middle, &back, rules("hawaiian-gardens"));
    assert_eq!(key.units, 2 + 5); // middle full house 2, back straight flush 5
    let hg = HouseWay::new(rules("hawaiian-gardens"));
    let rows = RowStrengths::of(&front, &middle, &back);
    assert_eq!(hg.units(&rows), 3 + 2 + 5);
    // ofc: front QQQ 20, middle full house 12, back royal flush 25
    assert_eq!(HouseWay::new(rules("ofc")).units(&rows), 20 + 12 + 25);
    // malayan extras: front trips 2, middle full house 2, back straight flush 6
    assert_eq!(HouseWay::new(rules("malayan")).units(&rows), 2 + 2 + 6);
    assert_eq!(HouseWay::new(rules("pool")).units(&rows), 0);
}

// ---------------------------------------------------------------------------
// 6: specials

#[test]
fn one_suit_specials_under_hawaiian_gardens_and_malayan() {
    let hand = cards("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah");
    let expected: [(&str, &[(&str, i64)]); 2] = [
        (
            "hawaiian-gardens",
            &[("three-straights", 4), ("three-flushes", 4), ("all-one-color", 6), ("dragon", 13), ("one-suit", 39)],
        ),
        (
            "malayan",
            &[
                ("three-flushes", 3),
                ("three-straights", 4),
                ("all-one-color", 10),
                ("three-straight-flushes", 18),
                ("one-suit", 26),
            ],
        ),
    ];
    for (name, want) in expected {
        let found = qualifying_specials(&hand, rules(name));
        let got: Vec<(&str, i64)> = found.iter().map(|f| (f.kind.name(), f.value)).collect();
        assert_eq!(got, want, "{name}");
        for f in &found {
            assert_eq!(f.setting.is_some(), f.kind.needs_rows(), "{name} {:?}", f.kind);
            if let Some(s) = &f.setting {
                assert!(qualifies(f.kind, &hand, Some(&s.set_rows())), "{s}");
                assert_same_cards(s, &hand);
                // the best showing: royal flush back, 9-high straight flush
                // middle, 4 3 2 front
                assert_rows(s, "4h 3h 2h", "9h 8h 7h 6h 5h", "Ah Kh Qh Jh Th");
            }
        }
        assert_eq!(best_special(&found).unwrap().kind, SpecialKind::OneSuit);
    }
}

#[test]
fn arrangement_specials_are_found_only_when_an_arrangement_shows_them() {
    // Three flushes: spades, hearts, diamonds front.
    let hand = cards("2s 5s 9s Js Ks 2h 5h 9h Jh Ah 4d 7d Qd");
    let found = qualifying_specials(&hand, rules("typical"));
    let names: Vec<&str> = found.iter().map(|f| f.kind.name()).collect();
    assert_eq!(names, ["three-flushes"]);
    let s = found[0].setting.unwrap();
    assert!(qualifies(SpecialKind::ThreeFlushes, &hand, Some(&s.set_rows())));
    assert_rows(&s, "Qd 7d 4d", "Ks Js 9s 5s 2s", "Ah Jh 9h 5h 2h");
    // A plain hand has none.
    let plain = cards("As Ad Ah Ac Kd Qs Jh 9c 8d 7s 5h 4c 2d");
    assert!(qualifying_specials(&plain, rules("hawaiian-gardens")).is_empty());
    // Across random hands, whatever is reported qualifies.
    for (i, hand) in random_hands(6, 300).iter().enumerate() {
        let preset_rules = rules(if i % 2 == 0 { "malayan" } else { "hawaiian-gardens" });
        for f in qualifying_specials(hand, preset_rules) {
            assert!(qualifies(f.kind, hand, f.setting.as_ref().map(|s| s.set_rows()).as_ref()));
        }
    }
}

// ---------------------------------------------------------------------------
// 7: analysis as JSON

#[test]
fn analysis_serialises_for_the_cli_and_the_service() {
    let hand = cards("Qh Qd 7c Js Jc Kd 3c 2s As Ah 8d 8c 4s");
    let rows = Some((cards("Qh Qd 7c"), cards("Js Jc Kd 3c 2s"), cards("As Ah 8d 8c 4s")));
    let a = analyse(&hand, rows, rules("hawaiian-gardens"));
    let v = serde_json::to_value(&a).unwrap();
    assert_eq!(
        v,
        json!({
            "ruleset": "hawaiian-gardens",
            "cards": "2s 3c 4s 7c 8d 8c Js Jc Qh Qd Kd As Ah",
            "house_setting": {
                "front": "7c 4s 3c", "middle": "Qh Qd Js Jc Kd", "back": "As Ah 8d 8c 2s",
                "front_hand": "seven high", "middle_hand": "two pair, queens and jacks",
                "back_hand": "two pair, aces and eights"
            },
            "house_units": 0,
            "specials": [],
            "best_special": null,
            "rows": {
                "setting": {
                    "front": "Qh Qd 7c", "middle": "Js Jc Kd 3c 2s", "back": "As Ah 8d 8c 4s",
                    "front_hand": "pair of queens", "middle_hand": "pair of jacks",
                    "back_hand": "two pair, aces and eights"
                },
                "fouled": true,
                "foul": {
                    "lower": "middle", "upper": "front",
                    "reason": "middle pair of jacks is below front pair of queens",
                    "message": "middle pair of jacks is below front pair of queens; a legal setting was: front 7c 4s 3c, middle Qh Qd Js Jc Kd, back As Ah 8d 8c 2s",
                    "legal_setting": {
                        "front": "7c 4s 3c", "middle": "Qh Qd Js Jc Kd", "back": "As Ah 8d 8c 2s",
                        "front_hand": "seven high", "middle_hand": "two pair, queens and jacks",
                        "back_hand": "two pair, aces and eights"
                    }
                },
                "is_house_setting": false
            }
        })
    );

    let dragon = cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jc Qs Kd Ac");
    let v = serde_json::to_value(analyse(&dragon, None, rules("hawaiian-gardens"))).unwrap();
    assert_eq!(v["best_special"], "dragon");
    assert_eq!(v["specials"][0]["name"], "three-straights");
    assert_eq!(v["specials"][0]["setting"]["back"], "Ac Kd Qs Jc Tc");
    assert_eq!(v["specials"][1], json!({"name": "dragon", "value": 13}));
    assert!(v.get("rows").is_none());
}

// ---------------------------------------------------------------------------
// 8: units against the scoring sheet

#[test]
fn ofc_units_are_the_royalties_the_scoring_sheet_gives() {
    let hands = random_hands(7, 400);
    for pair in hands.chunks(2) {
        // Two seats need 26 distinct cards: deal the second from what is left.
        let mut rest: Vec<Card> = Card::deck().filter(|c| !pair[0].contains(c)).collect();
        rest.truncate(13);
        let second: [Card; 13] = rest.try_into().unwrap();
        let rules = rules("ofc");
        let a = house_set(&pair[0], rules);
        let b = house_set(&second, rules);
        let seat = |n: u32, s: &Setting| {
            json!({"seat": n, "stack": "100",
                "front": pitboss::engine::card::display_cards(&s.front),
                "middle": pitboss::engine::card::display_cards(&s.middle),
                "back": pitboss::engine::card::display_cards(&s.back)})
        };
        let text = json!({"ruleset": "ofc", "seats": [seat(1, &a), seat(2, &b)]}).to_string();
        let judged = judge(&Showdown::from_json(&text).unwrap()).unwrap();
        let way = HouseWay::new(rules);
        assert!(!judged[0].fouled && !judged[1].fouled);
        assert_eq!(judged[0].royalties, way.units(&a.strengths), "{a}");
        assert_eq!(judged[1].royalties, way.units(&b.strengths), "{b}");
    }
}
