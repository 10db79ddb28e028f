//! Open-face table play through the HTTP API (issue 8), on every backend:
//! table options, fantasyland hands that extend the previous hand (carried
//! exposure), progressive fantasyland in pineapple, shooting the moon,
//! tournament penalties and bust-out settlement, the final table of five.
//! Every example has its numbers worked out in docs/rules.md.

use crate::support::{backends, page, request, spawn_app, TestApp};
use rust_decimal::Decimal;
use serde_json::{json, Value};

// Four settings that use the whole deck between them.
/// Jack-high back, no foul: shoots the moon; royalties 0.
const MOON: [&str; 3] = ["2s 3h 4d", "5c 6s 7h 8d Tc", "Js 9h 8c 6d 3c"];
/// AA in front (9), full house in the back (6): royalties 15; fantasyland.
const ACES: [&str; 3] = ["Ah Ad Kc", "2h 2d 5h 5d 9c", "Qs Qh Qd 4s 4h"];
/// KK in front (8), full house in the back (6): royalties 14; fantasyland.
const KINGS: [&str; 3] = ["Ks Kh 2c", "8s 8h 9s 9d 4c", "Ts Th Td Jh Jd"];
/// 33 in front, full house in the back (6): royalties 6.
const FULL: [&str; 3] = ["3s 3d 5s", "6h 6c Jc Qc Kd", "7s 7d 7c As Ac"];
/// QQ in front (7), full house in the back (6): royalties 13 (not with MOON's 2s).
const QUEENS: [&str; 3] = ["Qc Qd 3s", "Ks Kh 4c 4s 5s", "Ts Th Td 2c 2d"];

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn dec(v: &Value) -> Decimal {
    match v {
        Value::String(s) => d(s),
        other => panic!("not money: {other}"),
    }
}

fn call(app: &TestApp, method: &str, path: &str, body: &Value, status: u16) -> Value {
    let text = if body.is_null() { String::new() } else { body.to_string() };
    let (got, answer) = request(app, method, path, &text);
    assert_eq!(got, status, "{method} {path} {text}\nanswered {got}: {answer}");
    answer
}

struct Table<'a> {
    app: &'a TestApp,
    id: i64,
}

impl<'a> Table<'a> {
    fn create(app: &'a TestApp, name: &str, body: Value) -> Table<'a> {
        let mut body = body;
        body["name"] = json!(name);
        let t = call(app, "POST", "/api/v1/tables", &body, 201);
        Table { app, id: t["id"].as_i64().unwrap() }
    }

    fn path(&self, rest: &str) -> String {
        format!("/api/v1/tables/{}{rest}", self.id)
    }

    fn seat(&self, seat: i64, stack: &str) {
        let body = json!({"seat": seat, "player": format!("P{seat}"), "buy_in": stack});
        call(self.app, "POST", &self.path("/seats"), &body, 201);
    }

    fn start(&self) -> Value {
        call(self.app, "POST", &self.path("/hands"), &json!({}), 201)
    }

    fn commit(&self, number: i64, seats: Value) -> Value {
        let answer =
            call(self.app, "POST", &self.path(&format!("/hands/{number}/commit")), &json!({"seats": seats}), 201);
        answer["hand"]["result"].clone()
    }

    fn stacks(&self) -> Vec<(i64, Decimal)> {
        let t = call(self.app, "GET", &self.path(""), &Value::Null, 200);
        t["seats"].as_array().unwrap().iter().map(|s| (s["seat"].as_i64().unwrap(), dec(&s["stack"]))).collect()
    }
}

fn rows(seat: i64, hand: [&str; 3]) -> Value {
    json!({"seat": seat, "front": hand[0], "middle": hand[1], "back": hand[2]})
}

fn seat_of(list: &Value, seat: i64) -> &Value {
    list.as_array().unwrap().iter().find(|s| s["seat"] == json!(seat)).unwrap_or_else(|| panic!("no seat {seat}"))
}

fn paid(result: &Value) -> Vec<String> {
    result["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            format!("{}>{} {}/{}", t["payer"], t["payee"], dec(&t["paid"]).normalize(), dec(&t["owed"]).normalize())
        })
        .collect()
}

fn dealt(hand: &Value) -> Vec<i64> {
    hand["seats"].as_array().unwrap().iter().map(|s| s["seat"].as_i64().unwrap()).collect()
}

fn money(pairs: &[(i64, &str)]) -> Vec<(i64, Decimal)> {
    pairs.iter().map(|&(s, m)| (s, d(m))).collect()
}

fn each_backend(f: fn(&TestApp)) {
    for backend in backends() {
        let app = spawn_app(backend);
        f(&app);
    }
}

// ---------------------------------------------------------------------------
// Options: validated, stored on the ruleset version, shown
// ---------------------------------------------------------------------------

#[test]
fn options_are_validated_and_versioned() {
    each_backend(|app| {
        let base = json!({"preset": "ofc", "unit": "1"});
        let bad = |options: Value, words: &[&str]| {
            let mut body = base.clone();
            body["name"] = json!("bad");
            body["options"] = options;
            let answer = call(app, "POST", "/api/v1/tables", &body, 422);
            let e = answer["error"].as_str().unwrap();
            for w in words {
                assert!(e.contains(w), "{e:?} should name {w:?}");
            }
        };
        bad(json!({"moon": true}), &["unknown option \"moon\""]);
        bad(json!({"tournament": "yes"}), &["tournament"]);
        bad(json!({"fantasyland_entry": "JJ"}), &["fantasyland_entry"]);
        bad(json!({"progressive_fantasyland": true}), &["progressive_fantasyland", "pineapple"]);
        let mut hg =
            json!({"name": "hg", "preset": "hawaiian-gardens", "unit": "1", "options": {"shoot_the_moon": true}});
        let e = call(app, "POST", "/api/v1/tables", &hg, 422);
        assert!(e["error"].as_str().unwrap().contains("shoot_the_moon"), "{e}");
        hg["options"] = json!({});
        let t = call(app, "POST", "/api/v1/tables", &hg, 201);
        // Every option the preset takes is shown with its value; hawaiian-gardens
        // takes only "no pictures", whose value the house sets (none yet).
        assert_eq!(t["ruleset"]["options"], json!({"no_pictures": null}));
        // Five seats only with the final table; nothing was created by the refusals.
        let e = call(
            app,
            "POST",
            "/api/v1/tables",
            &json!({"name": "five", "preset": "ofc", "unit": "1", "seat_count": 5}),
            422,
        );
        assert!(e["error"].as_str().unwrap().contains("5 seats"), "{e}");
        let list = call(app, "GET", "/api/v1/tables", &Value::Null, 200);
        assert_eq!(list.as_array().unwrap().len(), 1);

        let t =
            Table::create(app, "ofc", json!({"preset": "ofc", "unit": "1", "options": {"fantasyland_entry": "kk"}}));
        let view = call(app, "GET", &t.path(""), &Value::Null, 200);
        assert_eq!(view["ruleset"]["options"]["fantasyland_entry"], json!("KK"));
        assert_eq!(view["ruleset"]["options"]["shoot_the_moon"], json!(false));
        let changed = call(
            app,
            "PUT",
            &t.path("/ruleset"),
            &json!({"preset": "ofc", "unit": "1", "options": {"shoot_the_moon": true}}),
            200,
        );
        assert_eq!(changed["ruleset"]["version"], json!(2));
        assert_eq!(changed["ruleset"]["options"]["shoot_the_moon"], json!(true));
        assert_eq!(changed["ruleset"]["options"]["fantasyland_entry"], json!("QQ"));
        let e = call(
            app,
            "PUT",
            &t.path("/ruleset"),
            &json!({"preset": "ofc", "unit": "1", "options": {"double_deck": true, "bogus": 1}}),
            422,
        );
        assert!(e["error"].as_str().unwrap().contains("\"bogus\""), "{e}");
        let view = call(app, "GET", &t.path(""), &Value::Null, 200);
        assert_eq!(view["ruleset"]["version"], json!(2), "a refused change makes no version");
    });
}

// ---------------------------------------------------------------------------
// Fantasyland hands extend the previous hand
// ---------------------------------------------------------------------------

/// Hand 1: seat 1 (stack 30) scoops seat 2 (100) with AA and a full house:
/// 1+1+1+3 + royalties 15 = 21. Seat 1's exposure is 30: 9 left; seat 2 has
/// 79 left. Hand 2 is seat 1's fantasyland hand and extends hand 1: seat 1
/// now has 51 chips but only 9 exposure, so when it loses 21 it pays 9.
/// Seat 1 has then used up its exposure; seat 2 (AA, fantasyland) has no
/// one left to play, so hand 3 is an ordinary hand from fresh stacks.
#[test]
fn fantasyland_exposure_carries_over() {
    each_backend(|app| {
        let t = Table::create(app, "fl", json!({"preset": "ofc", "unit": "1"}));
        t.seat(1, "30");
        t.seat(2, "100");
        let h1 = t.start();
        assert_eq!(h1["dealer_seat"], json!(1));
        let r1 = t.commit(1, json!([rows(1, ACES), rows(2, MOON)]));
        assert_eq!(paid(&r1), ["2>1 21/21"]);
        assert_eq!(seat_of(&r1["seats"], 1)["fantasyland_next"], json!(true));
        assert_eq!(t.stacks(), money(&[(1, "51"), (2, "79")]));

        let h2 = t.start();
        assert_eq!(dealt(&h2), [1, 2]);
        assert_eq!(h2["dealer_seat"], json!(2), "the button moves as usual");
        let s1 = seat_of(&h2["seats"], 1);
        assert_eq!(s1["in_fantasyland"], json!(true));
        assert_eq!(s1["fantasyland_cards"], json!(13));
        assert_eq!(dec(&s1["exposure_start"]), d("9"), "30 less the 21 won");
        assert_eq!(dec(&seat_of(&h2["seats"], 2)["exposure_start"]), d("79"));
        let r2 = t.commit(2, json!([rows(1, MOON), rows(2, ACES)]));
        assert_eq!(paid(&r2), ["1>2 9/21"], "the carried exposure bounds the payment");
        assert_eq!(t.stacks(), money(&[(1, "42"), (2, "88")]));
        assert_eq!(seat_of(&r2["seats"], 2)["fantasyland_next"], json!(true));

        let h3 = t.start();
        assert_eq!(dealt(&h3), [1, 2]);
        for s in h3["seats"].as_array().unwrap() {
            assert_eq!(s["in_fantasyland"], json!(false), "no fantasyland hand: {h3}");
            assert!(s.get("exposure_start").is_none(), "fresh exposure: {h3}");
        }
        let r3 = t.commit(3, json!([rows(1, ACES), rows(2, MOON)]));
        assert_eq!(paid(&r3), ["2>1 21/21"], "seat 1 is bounded by its stack again, 42");
        assert_eq!(t.stacks(), money(&[(1, "63"), (2, "67")]));
    });
}

/// A qualifying seat that won its whole exposure (stack 21, wins 21) has
/// used it up: there is no fantasyland hand.
#[test]
fn no_fantasyland_hand_when_the_only_qualifier_used_up_its_exposure() {
    each_backend(|app| {
        let t = Table::create(app, "fl0", json!({"preset": "ofc", "unit": "1"}));
        t.seat(1, "21");
        t.seat(2, "100");
        t.start();
        let r = t.commit(1, json!([rows(1, ACES), rows(2, MOON)]));
        assert_eq!(paid(&r), ["2>1 21/21"]);
        assert_eq!(seat_of(&r["seats"], 1)["fantasyland_next"], json!(true));
        let h2 = t.start();
        assert_eq!(dealt(&h2), [1, 2]);
        assert!(h2["seats"].as_array().unwrap().iter().all(|s| s["in_fantasyland"] == json!(false)), "{h2}");
    });
}

/// Seat 1 (stack 12) collects 12 from seat 2 first and has used up its
/// exposure, so it owes seat 3 nothing of 15; seat 2 pays seat 3 21.
/// Hand 2 is seat 3's fantasyland hand: seat 1 sits it out with 24 chips.
#[test]
fn a_seat_whose_exposure_is_used_up_sits_out_the_fantasyland_hand() {
    each_backend(|app| {
        let t = Table::create(app, "sit", json!({"preset": "ofc", "unit": "1"}));
        t.seat(1, "12");
        t.seat(2, "100");
        t.seat(3, "100");
        t.start();
        let r = t.commit(1, json!([rows(1, FULL), rows(2, MOON), rows(3, ACES)]));
        assert_eq!(paid(&r), ["2>1 12/12", "1>3 0/15", "2>3 21/21"]);
        assert_eq!(t.stacks(), money(&[(1, "24"), (2, "67"), (3, "121")]));
        let e = call(app, "POST", &t.path("/hands"), &json!({"seats": [1, 2, 3]}), 422);
        assert!(e["error"].as_str().unwrap().contains("seat 1 used up its exposure in hand 1"), "{e}");
        let h2 = t.start();
        assert_eq!(dealt(&h2), [2, 3]);
        assert_eq!(seat_of(&h2["seats"], 3)["in_fantasyland"], json!(true));
        assert_eq!(dec(&seat_of(&h2["seats"], 3)["exposure_start"]), d("79"));
        assert_eq!(dec(&seat_of(&h2["seats"], 2)["exposure_start"]), d("67"));
        // The table view and the entry page show the fantasyland seat and what it carries.
        let (status, html) = page(app, &format!("/tables/{}", t.id));
        assert_eq!(status, 200);
        assert!(html.contains("fantasyland: 13 cards at once; exposure carried: 79"), "{html}");
        let (status, html) = page(app, &format!("/tables/{}/hands/2/entry", t.id));
        assert_eq!(status, 200);
        assert!(html.contains("badge fl") && html.contains("exposure carried: 67"), "{html}");
    });
}

/// Entry at KK: QQ in front does not qualify, AA does.
#[test]
fn fantasyland_entry_at_kings() {
    each_backend(|app| {
        let qq = Table::create(app, "qq", json!({"preset": "ofc", "unit": "1"}));
        let kk =
            Table::create(app, "kk", json!({"preset": "ofc", "unit": "1", "options": {"fantasyland_entry": "KK"}}));
        for t in [&qq, &kk] {
            t.seat(1, "100");
            t.seat(2, "100");
            t.start();
        }
        let r = qq.commit(1, json!([rows(1, QUEENS), rows(2, MOON)]));
        assert_eq!(seat_of(&r["seats"], 1)["fantasyland_next"], json!(true));
        let r = kk.commit(1, json!([rows(1, QUEENS), rows(2, MOON)]));
        assert_eq!(seat_of(&r["seats"], 1)["fantasyland_next"], json!(false));
        // QQ 7 + full house 6 = 13, plus 6 for the scoop.
        assert_eq!(paid(&r), ["2>1 19/19"]);
    });
}

/// Progressive fantasyland in pineapple: AA is dealt 16 cards (3 discards),
/// KK 15 (2 discards); the dealer enters rows and discards at once.
#[test]
fn progressive_fantasyland_in_pineapple() {
    each_backend(|app| {
        let t = Table::create(
            app,
            "pine",
            json!({"preset": "ofc-pineapple", "unit": "1", "options": {"progressive_fantasyland": true}}),
        );
        for seat in 1..=4 {
            t.seat(seat, "100");
        }
        let e = call(app, "POST", &t.path("/hands"), &json!({}), 422);
        assert!(e["error"].as_str().unwrap().contains("at most 3 players"), "{e}");
        call(app, "POST", &t.path("/seats/4/cash-out"), &Value::Null, 200);
        t.start();
        let r = t.commit(1, json!([rows(1, ACES), rows(2, KINGS), rows(3, MOON)]));
        assert_eq!(seat_of(&r["seats"], 1)["fantasyland_cards"], json!(16));
        assert_eq!(seat_of(&r["seats"], 2)["fantasyland_cards"], json!(15));
        let h2 = t.start();
        assert_eq!(seat_of(&h2["seats"], 1)["fantasyland_cards"], json!(16));
        assert_eq!(seat_of(&h2["seats"], 2)["fantasyland_cards"], json!(15));
        let mut s1 = rows(1, ACES);
        s1["discards"] = json!("3s");
        let mut s2 = rows(2, KINGS);
        s2["discards"] = json!("6h 6c");
        let body = json!({"seats": [s1.clone(), s2.clone(), rows(3, MOON)]});
        let e = call(app, "POST", &t.path("/hands/2/commit"), &body, 422);
        let msg = e["error"].as_str().unwrap();
        assert!(msg.contains("seat 1") && msg.contains("16 cards it discards 3"), "{msg}");
        s1["discards"] = json!("3s 3d 5s");
        let r = t.commit(2, json!([s1, s2, rows(3, MOON)]));
        // The button is on seat 2: pairs 2-3, 2-1, 3-1.
        assert_eq!(paid(&r), ["3>2 20/20", "2>1 2/2", "3>1 21/21"]);
    });
}

// ---------------------------------------------------------------------------
// Shooting the moon, penalties, bust-out, final table
// ---------------------------------------------------------------------------

/// Seat 1 sets a jack-high back without a foul and loses 21 to seat 2, but
/// collects 20 for shooting the moon: it pays 1.
#[test]
fn shooting_the_moon() {
    each_backend(|app| {
        let t = Table::create(app, "moon", json!({"preset": "ofc", "unit": "1", "options": {"shoot_the_moon": true}}));
        t.seat(1, "100");
        t.seat(2, "100");
        t.start();
        let r = t.commit(1, json!([rows(1, MOON), rows(2, ACES)]));
        assert_eq!(seat_of(&r["seats"], 1)["moon"], json!(true));
        assert_eq!(r["pairs"][0]["main_units"], json!(-1));
        assert_eq!(paid(&r), ["1>2 1/1"]);
        assert_eq!(t.stacks(), money(&[(1, "99"), (2, "101")]));
    });
}

/// Tournament penalties: seat 1 misses a turn: it pays 3, and not seat 2's
/// royalties (15): 6 for the scoop + 3 = 9. Next hand seat 2's hand is
/// declared dead: the full foul, 6 (seat 1 has no royalties), and seat 1's
/// card turned early pays 1: seat 2 pays 5.
#[test]
fn tournament_penalties() {
    each_backend(|app| {
        let t = Table::create(app, "pen", json!({"preset": "ofc", "unit": "1", "options": {"tournament": true}}));
        t.seat(1, "100");
        t.seat(2, "100");
        t.start();
        let mut s1 = rows(1, MOON);
        s1["penalties"] = json!(["missed-turn"]);
        let r = t.commit(1, json!([s1, rows(2, ACES)]));
        assert_eq!(paid(&r), ["1>2 9/9"]);
        assert_eq!(seat_of(&r["seats"], 1)["penalties"], json!(["missed-turn"]));
        t.start();
        let mut s1 = rows(1, MOON);
        s1["penalties"] = json!(["early-card"]);
        let s2 = json!({"seat": 2, "cards": "Ah Ad Kc 2h 2d 5h 5d 9c Qs Qh Qd 4s 4h", "penalties": ["dead-hand"]});
        let bad = json!({"seats": [{"seat": 1, "front": MOON[0], "middle": MOON[1], "back": MOON[2], "penalties": ["slow-play"]}, s2.clone()]});
        let e = call(app, "POST", &t.path("/hands/2/commit"), &bad, 422);
        assert!(e["error"].as_str().unwrap().contains("seat 1: unknown penalty \"slow-play\""), "{e}");
        let r = t.commit(2, json!([s1, s2]));
        assert_eq!(seat_of(&r["seats"], 2)["fouled"], json!(true));
        assert_eq!(paid(&r), ["2>1 5/5"]);
        assert_eq!(t.stacks(), money(&[(1, "96"), (2, "104")]));
        // Penalties need the tournament option.
        let plain = Table::create(app, "plain", json!({"preset": "ofc", "unit": "1"}));
        plain.seat(1, "100");
        plain.seat(2, "100");
        plain.start();
        let mut s1 = rows(1, MOON);
        s1["penalties"] = json!(["early-card"]);
        let e = call(app, "POST", &plain.path("/hands/1/commit"), &json!({"seats": [s1, rows(2, ACES)]}), 422);
        assert!(e["error"].as_str().unwrap().contains("needs the tournament option"), "{e}");
    });
}

/// Bust-out, in seat order from position 1 whoever has the button: seat 1
/// has 10 and owes seat 2 15: it pays 10 and is out, so seat 4 never pays
/// it the 12 it owes and seat 3 is never paid its 14.
#[test]
fn tournament_bust_out() {
    each_backend(|app| {
        let t = Table::create(app, "bust", json!({"preset": "ofc", "unit": "1", "options": {"tournament": true}}));
        t.seat(1, "10");
        for seat in 2..=4 {
            t.seat(seat, "100");
        }
        t.start();
        let r = t.commit(1, json!([rows(1, FULL), rows(2, ACES), rows(3, KINGS), rows(4, MOON)]));
        assert_eq!(paid(&r), ["1>2 10/15", "1>3 0/14", "4>1 0/12", "3>2 2/2", "4>2 21/21", "4>3 20/20"], "{r}");
        assert_eq!(seat_of(&r["seats"], 1)["out"], json!(true));
        assert_eq!(t.stacks(), money(&[(1, "0"), (2, "133"), (3, "118"), (4, "59")]));
        // Seat 1 is out: the next hands are played by seats 2 to 4.
        let h2 = t.start();
        assert_eq!(dealt(&h2), [2, 3, 4]);
        let r = t.commit(2, json!([rows(2, MOON), rows(3, ACES), rows(4, FULL)]));
        assert_eq!(paid(&r), ["2>3 21/21", "2>4 12/12", "4>3 15/15"]);
        let h3 = t.start();
        assert_eq!(h3["dealer_seat"], json!(3));
        let r = t.commit(3, json!([rows(2, MOON), rows(3, ACES), rows(4, FULL)]));
        assert_eq!(r["pairs"][0]["seats"], json!([2, 3]), "position order, not the button's");
        assert_eq!(paid(&r), ["2>3 21/21", "2>4 12/12", "4>3 15/15"]);
        assert_eq!(t.stacks(), money(&[(1, "0"), (2, "67"), (3, "190"), (4, "53")]));
        // A hand scored under table options rescores the same from its stored input.
        for n in 1..=3 {
            let r = call(app, "GET", &t.path(&format!("/hands/{n}/rescore")), &Value::Null, 200);
            assert_eq!(r["reproduced"], json!(true), "{r}");
        }
    });
}

/// A final table of five: the button seat does not play; the four others
/// settle from the first seat after the button.
#[test]
fn final_table_of_five() {
    each_backend(|app| {
        let e = call(
            app,
            "POST",
            "/api/v1/tables",
            &json!({"name": "six", "preset": "ofc", "unit": "1", "seat_count": 6, "options": {"final_table": true}}),
            422,
        );
        assert!(e["error"].as_str().unwrap().contains("6 seats"), "{e}");
        let t = Table::create(app, "final", json!({"preset": "ofc", "unit": "1", "options": {"final_table": true}}));
        let view = call(app, "GET", &t.path(""), &Value::Null, 200);
        assert_eq!(view["seat_count"], json!(5));
        for seat in 1..=5 {
            t.seat(seat, "100");
        }
        let h1 = t.start();
        assert_eq!(h1["dealer_seat"], json!(1));
        assert_eq!(dealt(&h1), [2, 3, 4, 5]);
        let r = t.commit(1, json!([rows(2, MOON), rows(3, ACES), rows(4, KINGS), rows(5, FULL)]));
        assert_eq!(r["pairs"][0]["seats"], json!([2, 3]));
        assert_eq!(paid(&r), ["2>3 21/21", "2>4 20/20", "2>5 12/12", "4>3 2/2", "5>3 15/15", "5>4 14/14"]);
        assert_eq!(t.stacks(), money(&[(1, "100"), (2, "47"), (3, "138"), (4, "132"), (5, "83")]));
        // Seats 3 and 4 are in fantasyland; the button moves to seat 2, who sits out.
        let h2 = t.start();
        assert_eq!(h2["dealer_seat"], json!(2));
        assert_eq!(dealt(&h2), [1, 3, 4, 5]);
        let e = call(app, "POST", &t.path("/hands/2/void"), &json!({"reason": "other", "note": "test"}), 200);
        assert_eq!(e["status"], json!("voided"));
        let e = call(app, "POST", &t.path("/hands"), &json!({"seats": [2, 3, 4, 5]}), 422);
        assert!(e["error"].as_str().unwrap().contains("seat 3 has the button"), "{e}");
    });
}

/// Double deck: two of each card. Seat 1 holds five kings in the middle and
/// five aces in the back (each a straight flush royalty: 30 and 15) and
/// wins two rows of three against seat 2's AA and full house (royalties
/// 15): 1 + 45 - 15 = 31. A third copy of a card is refused.
#[test]
fn double_deck() {
    each_backend(|app| {
        let t = Table::create(
            app,
            "dd",
            json!({"preset": "ofc", "unit": "1", "seat_count": 8, "options": {"double_deck": true}}),
        );
        for seat in 1..=5 {
            t.seat(seat, "100");
        }
        let h = t.start();
        assert_eq!(dealt(&h), [1, 2, 3, 4, 5], "more than four players with two decks");
        call(app, "POST", &t.path("/hands/1/void"), &json!({"reason": "misdeal", "note": "two players only"}), 200);
        call(app, "POST", &t.path("/hands"), &json!({"seats": [1, 2]}), 201);
        let five = ["2c 3c 4h", "Ks Ks Kh Kd Kc", "As As Ah Ad Ac"];
        let mut third = rows(2, ACES);
        third["front"] = json!("As Ad Kc");
        let e = call(app, "POST", &t.path("/hands/2/commit"), &json!({"seats": [rows(1, five), third]}), 422);
        let msg = e["error"].as_str().unwrap();
        assert!(msg.contains("As appears three times") && msg.contains("seat 2 front"), "{msg}");
        let r = t.commit(2, json!([rows(1, five), rows(2, ACES)]));
        assert_eq!(seat_of(&r["seats"], 1)["royalties"], json!(45));
        assert_eq!(seat_of(&r["seats"], 1)["fouled"], json!(false));
        assert_eq!(paid(&r), ["2>1 31/31"]);
        // One deck: the same card twice is refused.
        let single = Table::create(app, "one", json!({"preset": "ofc", "unit": "1"}));
        single.seat(1, "100");
        single.seat(2, "100");
        single.start();
        let e =
            call(app, "POST", &single.path("/hands/1/commit"), &json!({"seats": [rows(1, five), rows(2, ACES)]}), 422);
        assert!(e["error"].as_str().unwrap().contains("appears twice"), "{e}");
    });
}
