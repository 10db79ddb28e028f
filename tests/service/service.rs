//! The table service through HTTP, end to end: a full table session, commit
//! idempotency, ruleset versions, bad input and concurrency. Every scenario
//! runs on each backend from `crate::support::backends()` (SQLite always,
//! PostgreSQL when `PITBOSS_TEST_POSTGRES_URL` is set).
//!
//! After every scenario (and after every hand of the session) an `Audit`
//! recomputes the money invariants from the API alone: seat stacks from
//! ledger rows, double entry per hand, pool balances, each committed hand's
//! stack_end against the ledger, and that no ledger row ever changes.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::str::FromStr;
use std::sync::Barrier;

use crate::support::{backends, request, request_with, spawn_app, TestApp};
use rust_decimal::Decimal;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// The app under test
// ---------------------------------------------------------------------------

/// The running service on a fresh database (`crate::support::spawn_app`).
type App = TestApp;

// ---------------------------------------------------------------------------
// HTTP and money helpers
// ---------------------------------------------------------------------------

fn send(app: &App, method: &str, path: &str, body: &str, key: Option<&str>) -> (u16, Value) {
    match key {
        Some(k) => request_with(app, method, path, body, &[("Idempotency-Key", k)]),
        None => request(app, method, path, body),
    }
}

/// Sends `body` (Null: no body) and asserts the status.
fn expect(app: &App, method: &str, path: &str, body: &Value, status: u16) -> Value {
    let text = if body.is_null() { String::new() } else { body.to_string() };
    let (got, answer) = request(app, method, path, &text);
    assert_eq!(got, status, "{method} {path} {text}\nanswered {got}: {answer}");
    answer
}

fn get(app: &App, path: &str) -> Value {
    expect(app, "GET", path, &Value::Null, 200)
}

fn dec(v: &Value) -> Decimal {
    match v {
        Value::String(s) => Decimal::from_str(s).unwrap_or_else(|_| panic!("not money: {s:?}")),
        Value::Number(n) => Decimal::from_str(&n.to_string()).unwrap(),
        other => panic!("not money: {other}"),
    }
}

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn is_money_text(s: &str) -> bool {
    let t = s.strip_prefix('-').unwrap_or(s);
    t.starts_with(|c: char| c.is_ascii_digit())
        && t.chars().all(|c| c.is_ascii_digit() || c == '.')
        && t.matches('.').count() <= 1
}

/// Money strings compared by value (`"12.5"` equals `"12.50"`), the rest exactly.
fn norm(v: &Value) -> Value {
    match v {
        Value::String(s) if is_money_text(s) => Value::String(d(s).normalize().to_string()),
        Value::Array(a) => Value::Array(a.iter().map(norm).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), norm(v))).collect()),
        other => other.clone(),
    }
}

fn arr(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}"))
}

fn seat_of(v: &Value, seat: i64) -> &Value {
    arr(v).iter().find(|s| s["seat"].as_i64() == Some(seat)).unwrap_or_else(|| panic!("no seat {seat} in {v}"))
}

/// The error body of a refused request: JSON `{"error": "..."}` naming each
/// needle, in its message (a field in words counts: `buy_in` as "the
/// buy-in") or as the error's `field`.
fn assert_error(answer: &Value, needles: &[&str], what: &str) {
    let message =
        answer["error"].as_str().unwrap_or_else(|| panic!("{what}: the answer is not a JSON error: {answer}"));
    assert!(!message.trim().is_empty(), "{what}: empty error message");
    let words = |s: &str| s.to_lowercase().replace(['_', '-'], " ");
    let field = answer["field"].as_str().unwrap_or("");
    for n in needles {
        assert!(
            words(message).contains(&words(n)) || (!field.is_empty() && field.contains(n)),
            "{what}: the error {message:?} (field {field:?}) does not name {n:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Deals: fixed hand templates, checked for real, distinct cards
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Tpl {
    Rows(&'static str, &'static str, &'static str),
    /// 13 loose cards, played as a claimed special.
    Loose(&'static str),
}
use Tpl::{Loose, Rows};

/// A whole deck, four valid settings (each back > middle > front, strictly,
/// so swapping middle and back always fouls).
const DEAL_A: [Tpl; 4] = [
    Rows("Ah Ad 2c", "Kh Kd Kc 3c 4d", "5s 6s 7s 8s 9s"),
    Rows("Qs Qh 3d", "Ts Th Td 5d 6d", "7h 8h 9h Jh 2h"),
    Rows("Js Jd 4c", "9d 9c 5c 5h 6c", "Ac Qc Tc 8c 7c"),
    Rows("As Ks Qd", "4s 4h 8d Jc 6h", "2s 2d 3s 3h 7d"),
];
/// Another whole deck; the first setting is also six pairs.
const DEAL_B: [Tpl; 4] = [
    Rows("8s 7s 7h", "4s 4h 3s 3h 2h", "6s 6h 5s 5h 2s"),
    Rows("Ad Ac Kc", "2d 3d 4d 5d 7d", "9s Ts Js Qs Ks"),
    Rows("Qh Qd 2c", "8h 8d 8c 3c 4c", "9h Th Jh Kh Ah"),
    Rows("As 5c 6c", "Tc Jc Qc 9c 7c", "9d Td Jd Kd 6d"),
];
/// Three settings and a dragon (13 loose cards).
const DEAL_DRAGON: [Tpl; 4] = [
    Rows("As Ah 2s", "Ks Kh Kc 3s 4s", "Qh Qd Qc 2h 2d"),
    Rows("Js Jh 3h", "Ts Th Td 4d 5h", "9h 9d 9c 8s 8d"),
    Rows("Ad Jd 8c", "6s 6h 6d 3c 4c", "7s 7h 7c 5d 5c"),
    Loose("2c 3d 4h 5s 6c 7d 8h 9s Tc Jc Qs Kd Ac"),
];
/// A bad beat: the first setting (straight flush, trips, pair) loses all
/// three rows to the second (royal flush, trips K, aces); nobody else does.
const DEAL_BAD_BEAT: [Tpl; 4] = [
    Rows("3c 3d 4c", "2h 2d 2c 4h 5d", "5s 6s 7s 8s 9s"),
    Rows("As Ad 8c", "Ks Kd Kc 6h 7h", "Th Jh Qh Kh Ah"),
    Rows("Qs Qd 2s", "Ts Td Tc 3s 4s", "4d 6d 7d 8d 9d"),
    Rows("8h 9h Qc", "Js Jd Jc 3h 5h", "5c 6c 7c 9c Ac"),
];
/// Three seats, two bad beats: the first setting beats both others in every row.
const DEAL_DOUBLE_BEAT: [Tpl; 3] = [
    Rows("Ks Kd 4s", "As Ad Ac 2s 3s", "Th Jh Qh Kh Ah"),
    Rows("Jc Jd 4d", "Qs Qd Qc 2d 3d", "5c 6c 7c 8c 9c"),
    Rows("8s 8h 4h", "Ts Tc Td 2h 3h", "5d 6d 7d 8d 9d"),
];

fn card_list(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()).map(str::to_string).collect()
}

fn check_cards(text: &str, count: usize, seen: &mut HashSet<String>, what: &str) {
    let cards = card_list(text);
    assert_eq!(cards.len(), count, "{what}: {text:?} should have {count} cards");
    for c in cards {
        let b = c.as_bytes();
        assert!(
            b.len() == 2 && b"23456789TJQKA".contains(&b[0]) && b"shdc".contains(&b[1]),
            "{what}: {c:?} is not a card"
        );
        assert!(seen.insert(c.clone()), "{what}: {c} is dealt twice");
    }
}

#[derive(Clone, Debug)]
struct Play {
    seat: i64,
    tpl: Tpl,
    surrender: bool,
    claim: Option<&'static str>,
    foul: bool,
}

/// A showdown as the dealer enters it at the table.
#[derive(Clone, Debug)]
struct Showdown {
    plays: Vec<Play>,
}

impl Showdown {
    /// Seat `seats[i]` gets `deal[(i + rot) % deal.len()]`; loose cards claim `best`.
    fn deal(deal: &[Tpl], seats: &[i64], rot: usize) -> Showdown {
        assert!(seats.len() <= deal.len());
        let plays = seats
            .iter()
            .enumerate()
            .map(|(i, &seat)| {
                let tpl = deal[(i + rot) % deal.len()];
                Play { seat, tpl, surrender: false, claim: matches!(tpl, Loose(_)).then_some("best"), foul: false }
            })
            .collect();
        Showdown { plays }
    }

    fn play(&mut self, seat: i64) -> &mut Play {
        self.plays.iter_mut().find(|p| p.seat == seat).expect("seat in the showdown")
    }

    fn surrender(mut self, seat: i64) -> Showdown {
        self.play(seat).surrender = true;
        self
    }

    fn claim(mut self, seat: i64, name: &'static str) -> Showdown {
        self.play(seat).claim = Some(name);
        self
    }

    /// Sets the seat's middle and back the wrong way round.
    fn foul(mut self, seat: i64) -> Showdown {
        self.play(seat).foul = true;
        self
    }

    /// The request body, after checking every card is real and dealt once.
    fn json(&self) -> Value {
        let mut seen = HashSet::new();
        let seats: Vec<Value> = self
            .plays
            .iter()
            .map(|p| {
                let what = format!("seat {}", p.seat);
                let mut s = match p.tpl {
                    Rows(front, middle, back) => {
                        check_cards(front, 3, &mut seen, &what);
                        check_cards(middle, 5, &mut seen, &what);
                        check_cards(back, 5, &mut seen, &what);
                        let (middle, back) = if p.foul { (back, middle) } else { (middle, back) };
                        json!({"seat": p.seat, "front": front, "middle": middle, "back": back})
                    }
                    Loose(cards) => {
                        check_cards(cards, 13, &mut seen, &what);
                        json!({"seat": p.seat, "cards": cards})
                    }
                };
                if p.surrender {
                    s["surrender"] = json!(true);
                }
                if let Some(c) = p.claim {
                    s["claim"] = json!(c);
                }
                s
            })
            .collect();
        assert!(seen.len() <= 52);
        json!({ "seats": seats })
    }

    /// The result shows the fouls, surrenders and specials this showdown was built with.
    fn check_flags(&self, result: &Value) {
        for p in &self.plays {
            let r = seat_of(&result["seats"], p.seat);
            let claimed = p.claim.is_some();
            assert_eq!(r["fouled"], json!(p.foul && !claimed), "seat {} fouled: {r}", p.seat);
            assert_eq!(r["surrendered"], json!(p.surrender), "seat {} surrendered: {r}", p.seat);
            assert_eq!(r["special"].is_string(), claimed, "seat {} special: {r}", p.seat);
            if let (Some(name), true) = (p.claim, p.claim != Some("best")) {
                assert_eq!(r["special"], json!(name), "seat {}: {r}", p.seat);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Pools and tables
// ---------------------------------------------------------------------------

fn create_pool(app: &App, name: &str, seed: &str) -> i64 {
    let pool = expect(app, "POST", "/api/v1/pools", &json!({"name": name, "seed": seed}), 201);
    assert_eq!(pool["name"], json!(name));
    assert_eq!(dec(&pool["seed"]), d(seed));
    assert_eq!(dec(&pool["balance"]), d(seed), "a new pool holds its seed");
    pool["id"].as_i64().unwrap()
}

fn pool_balance(app: &App, pool: i64) -> Decimal {
    dec(&get(app, &format!("/api/v1/pools/{pool}"))["balance"])
}

/// The engine's own showdown for a hand: what `POST /api/v1/score` must
/// answer exactly as the commit does.
fn engine_showdown(hand: &Value, body: &Value) -> Value {
    let r = &hand["ruleset"];
    let seats: Vec<Value> = arr(&hand["seats"])
        .iter()
        .map(|hs| {
            let seat = hs["seat"].as_i64().unwrap();
            let mut s = seat_of(&body["seats"], seat).clone();
            s["stack"] = hs["stack_start"].clone();
            if hs["in_fantasyland"] == json!(true) {
                s["in_fantasyland"] = json!(true);
            }
            s
        })
        .collect();
    let mut sd = json!({
        "ruleset": r["preset"], "unit": r["unit"], "dealer": hand["dealer_seat"],
        "rake": {"per_seat": r["rake_per_seat"], "jackpot": r["jackpot_part"]},
        "seats": seats,
    });
    // The table's own stakes per pair (the ruleset's), for pairs dealt in.
    let dealt = |seat: &Value| arr(&hand["seats"]).iter().any(|s| s["seat"] == *seat);
    let units: Vec<Value> = r["pair_units"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| dealt(&p["seats"][0]) && dealt(&p["seats"][1]))
        .map(|p| json!({"seats": p["seats"], "unit": p["unit"]}))
        .collect();
    if !units.is_empty() {
        sd["pair_units"] = json!(units);
    }
    sd
}

/// The next dealer: clockwise (ascending seats, wrapping) from the last
/// button to the next seat dealt in.
fn next_dealer(previous: Option<i64>, dealt: &[i64]) -> i64 {
    match previous {
        None => dealt[0],
        Some(p) => dealt.iter().copied().find(|&s| s > p).unwrap_or(dealt[0]),
    }
}

/// Asserts `later` still holds every row of `earlier`, unchanged, in order.
fn assert_prefix(earlier: &[Value], later: &[Value], what: &str) {
    assert!(later.len() >= earlier.len(), "{what}: ledger rows disappeared");
    for (a, b) in earlier.iter().zip(later) {
        assert_eq!(a, b, "{what}: a ledger row changed");
    }
}

struct Table<'a> {
    app: &'a App,
    id: i64,
    pool: Option<i64>,
}

impl<'a> Table<'a> {
    #[allow(clippy::too_many_arguments)]
    fn create(
        app: &'a App,
        name: &str,
        pool: Option<i64>,
        preset: &str,
        unit: &str,
        rake: &str,
        jackpot: &str,
    ) -> Table<'a> {
        let mut body = json!({
            "name": name, "preset": preset, "unit": unit,
            "rake_per_seat": rake, "jackpot_part": jackpot,
            "time_zone": "America/Los_Angeles", "gaming_day_cutoff": "06:00",
        });
        if let Some(p) = pool {
            body["pool_id"] = json!(p);
        }
        let t = expect(app, "POST", "/api/v1/tables", &body, 201);
        assert_eq!(t["name"], json!(name));
        assert_eq!(t["time_zone"], json!("America/Los_Angeles"));
        assert_eq!(t["gaming_day_cutoff"], json!("06:00"));
        assert_eq!(t["ruleset"]["version"], json!(1));
        assert_eq!(t["ruleset"]["preset"], json!(preset));
        assert_eq!(dec(&t["ruleset"]["unit"]), d(unit));
        assert_eq!(dec(&t["ruleset"]["rake_per_seat"]), d(rake));
        assert_eq!(dec(&t["ruleset"]["jackpot_part"]), d(jackpot));
        assert_eq!(t["pool"]["id"].as_i64(), pool);
        assert_eq!(t["seats"], json!([]));
        assert_eq!((t["hand_number"].as_i64(), t["open_hand"].is_null()), (Some(0), true));
        Table { app, id: t["id"].as_i64().unwrap(), pool }
    }

    fn path(&self, rest: &str) -> String {
        format!("/api/v1/tables/{}{rest}", self.id)
    }

    fn view(&self) -> Value {
        get(self.app, &self.path(""))
    }

    fn ledger(&self) -> Vec<Value> {
        arr(&get(self.app, &self.path("/ledger"))).clone()
    }

    fn hand(&self, number: i64) -> Value {
        get(self.app, &self.path(&format!("/hands/{number}")))
    }

    fn stacks(&self) -> BTreeMap<i64, Decimal> {
        arr(&self.view()["seats"]).iter().map(|s| (s["seat"].as_i64().unwrap(), dec(&s["stack"]))).collect()
    }

    fn stack(&self, seat: i64) -> Decimal {
        self.stacks()[&seat]
    }

    fn pool_balance(&self) -> Option<Decimal> {
        self.pool.map(|p| pool_balance(self.app, p))
    }

    /// Seats a player; the buy-in is one ledger row and the stack.
    fn seat(&self, seat: i64, player: &str, buy_in: &str) {
        let before = self.ledger();
        let t = expect(
            self.app,
            "POST",
            &self.path("/seats"),
            &json!({"seat": seat, "player": player, "buy_in": buy_in}),
            201,
        );
        let s = seat_of(&t["seats"], seat);
        assert_eq!((s["player"].as_str(), dec(&s["stack"])), (Some(player), d(buy_in)));
        let after = self.ledger();
        assert_prefix(&before, &after, "seat");
        assert_eq!(after.len(), before.len() + 1);
        let row = after.last().unwrap();
        assert_eq!(row["kind"], json!("buy_in"));
        assert_eq!(dec(&row["amount"]), d(buy_in));
        assert_eq!(row["seating_id"], s["seating_id"]);
    }

    fn add_on(&self, seat: i64, amount: &str) {
        let stack = self.stack(seat);
        let before = self.ledger();
        let t = expect(self.app, "POST", &self.path(&format!("/seats/{seat}/add-on")), &json!({"amount": amount}), 200);
        assert_eq!(dec(&seat_of(&t["seats"], seat)["stack"]), stack + d(amount));
        let after = self.ledger();
        assert_prefix(&before, &after, "add-on");
        assert_eq!(after.len(), before.len() + 1);
        assert_eq!(after.last().unwrap()["kind"], json!("add_on"));
        assert_eq!(dec(&after.last().unwrap()["amount"]), d(amount));
    }

    /// Cashes out the whole stack; the seat is free afterwards.
    fn cash_out(&self, seat: i64) -> Decimal {
        let stack = self.stack(seat);
        let before = self.ledger();
        let t = expect(self.app, "POST", &self.path(&format!("/seats/{seat}/cash-out")), &Value::Null, 200);
        assert!(arr(&t["seats"]).iter().all(|s| s["seat"].as_i64() != Some(seat)));
        let after = self.ledger();
        assert_prefix(&before, &after, "cash-out");
        assert_eq!(after.len(), before.len() + 1);
        let row = after.last().unwrap();
        assert_eq!(row["kind"], json!("cash_out"));
        assert_eq!(dec(&row["amount"]), -stack);
        stack
    }

    /// Starts the next hand (`seats`: the seats dealt in, default all funded)
    /// and checks its number, seats, stacks, ruleset and dealer button.
    fn start(&self, seats: Option<&[i64]>) -> Value {
        let before = self.view();
        let ledger = self.ledger();
        let rake = dec(&before["ruleset"]["rake_per_seat"]);
        let stacks: BTreeMap<i64, Decimal> =
            arr(&before["seats"]).iter().map(|s| (s["seat"].as_i64().unwrap(), dec(&s["stack"]))).collect();
        let dealt: Vec<i64> = match seats {
            Some(s) => {
                let mut s = s.to_vec();
                s.sort_unstable();
                s
            }
            None => stacks.iter().filter(|(_, &st)| st >= rake && st > Decimal::ZERO).map(|(&s, _)| s).collect(),
        };
        let body = match seats {
            Some(s) => json!({ "seats": s }),
            None => json!({}),
        };
        let hand = expect(self.app, "POST", &self.path("/hands"), &body, 201);
        let number = hand["number"].as_i64().unwrap();
        assert_eq!(number, before["hand_number"].as_i64().unwrap() + 1);
        assert_eq!(hand["status"], json!("open"));
        assert!(hand["result"].is_null() && hand["void_reason"].is_null());
        assert_eq!(hand["jackpot_hits"], json!([]));
        assert_eq!(hand["ruleset"], before["ruleset"], "the hand takes the current ruleset");
        let got: Vec<i64> = arr(&hand["seats"]).iter().map(|s| s["seat"].as_i64().unwrap()).collect();
        assert_eq!(got, dealt, "seats dealt in to hand {number}");
        for s in arr(&hand["seats"]) {
            let seat = s["seat"].as_i64().unwrap();
            assert_eq!(dec(&s["stack_start"]), stacks[&seat], "seat {seat}'s stack at the start");
            assert_eq!(s["seating_id"], seat_of(&before["seats"], seat)["seating_id"]);
        }
        let dealer = hand["dealer_seat"].as_i64().unwrap();
        assert_eq!(
            dealer,
            next_dealer(before["dealer_seat"].as_i64(), &dealt),
            "hand {number}: the button moves clockwise from {} to the next seat of {dealt:?}",
            before["dealer_seat"]
        );
        let after = self.view();
        assert_eq!(after["open_hand"], json!(number));
        assert_eq!(after["hand_number"], json!(number));
        assert_eq!(after["dealer_seat"], json!(dealer));
        assert_eq!(self.ledger(), ledger, "starting a hand moves no money");
        hand
    }

    fn commit(&self, number: i64, sd: &Showdown) -> Value {
        let result = self.commit_body(number, &sd.json(), None);
        sd.check_flags(&result);
        result
    }

    /// Commits a showdown and checks, as it goes: the result is the engine's
    /// for the hand's stacks, button and ruleset; each seat's stack is its
    /// stack_end; the new ledger rows are exactly rake, house share, jackpot
    /// contribution, both sides of every paid transaction, and a lock plus a
    /// restart seed per jackpot hit; the hit locks the pool balance
    /// including this hand's contribution.
    fn commit_body(&self, number: i64, body: &Value, key: Option<&str>) -> Value {
        let app = self.app;
        let hand = self.hand(number);
        assert_eq!(hand["status"], json!("open"));
        let table0 = self.view();
        let ledger0 = self.ledger();
        let pool0 = self.pool_balance();
        let expected = expect(app, "POST", "/api/v1/score", &engine_showdown(&hand, body), 200);

        let (status, answer) =
            send(app, "POST", &self.path(&format!("/hands/{number}/commit")), &body.to_string(), key);
        assert_eq!(status, 201, "commit of hand {number}: {answer}");
        assert_eq!(answer["created"], json!(true));
        let committed = &answer["hand"];
        assert_eq!(committed["status"], json!("committed"));
        assert_eq!(committed["number"], json!(number));
        assert_eq!(committed["ruleset"], hand["ruleset"]);
        let result = committed["result"].clone();
        assert_eq!(norm(&result), norm(&expected), "hand {number}: the commit is not the engine's result");
        assert_eq!(result["ruleset"], hand["ruleset"]["preset"]);

        // Seats, stacks and the chip bound.
        let rake = dec(&hand["ruleset"]["rake_per_seat"]);
        let jackpot = dec(&hand["ruleset"]["jackpot_part"]);
        let n = Decimal::from(arr(&hand["seats"]).len() as i64);
        let order: Vec<i64> = arr(&result["seats"]).iter().map(|s| s["seat"].as_i64().unwrap()).collect();
        let dealt: Vec<i64> = arr(&hand["seats"]).iter().map(|s| s["seat"].as_i64().unwrap()).collect();
        assert_eq!(order, dealt);
        let table1 = self.view();
        let mut net_total = Decimal::ZERO;
        for s in arr(&result["seats"]) {
            let seat = s["seat"].as_i64().unwrap();
            let start = dec(&s["stack_start"]);
            let end = dec(&s["stack_end"]);
            assert_eq!(start, dec(&seat_of(&hand["seats"], seat)["stack_start"]));
            assert_eq!(dec(&s["rake"]), rake);
            assert_eq!(dec(&s["net"]), end - start);
            assert!(end >= Decimal::ZERO, "seat {seat} ends below zero: {s}");
            assert_eq!(
                dec(&seat_of(&table1["seats"], seat)["stack"]),
                end,
                "hand {number}: seat {seat}'s ledger stack right after the commit is not stack_end"
            );
            net_total += end - start;
        }
        assert_eq!(net_total, -rake * n, "hand {number}: the nets add up to minus the rake");
        for s in arr(&table0["seats"]) {
            if !dealt.contains(&s["seat"].as_i64().unwrap()) {
                assert_eq!(seat_of(&table1["seats"], s["seat"].as_i64().unwrap()), s);
            }
        }
        for t in arr(&result["transactions"]) {
            let (owed, paid) = (dec(&t["owed"]), dec(&t["paid"]));
            assert!(paid >= Decimal::ZERO && paid <= owed, "transaction {t}");
        }
        assert_eq!(dec(&result["jackpot_contribution"]), jackpot * n);

        // The new ledger rows.
        let ledger1 = self.ledger();
        assert_prefix(&ledger0, &ledger1, "commit");
        let new = &ledger1[ledger0.len()..];
        assert!(!new.is_empty() || rake.is_zero());
        let hand_id = new.first().map(|r| r["hand_id"].clone()).unwrap_or(Value::Null);
        let seating = |seat: i64| seat_of(&hand["seats"], seat)["seating_id"].clone();
        let mut expected_rows: Vec<(String, Value, Value, Decimal)> = Vec::new(); // kind, seating, pool, amount
        if !rake.is_zero() {
            expected_rows.push(("house_rake".into(), Value::Null, Value::Null, (rake - jackpot) * n));
        }
        if !jackpot.is_zero() {
            expected_rows.push(("jackpot_contribution".into(), json!(self.pool), Value::Null, jackpot * n));
        }
        // One row per seat, its result: its net over the hand's payments
        // (the payments themselves are in the stored result) less its rake,
        // with the rake in it; none when both are zero.
        let mut nets: Vec<(i64, Decimal)> = dealt.iter().map(|&seat| (seat, Decimal::ZERO)).collect();
        for t in arr(&result["transactions"]) {
            let paid = dec(&t["paid"]);
            for (seat, amount) in [(t["payer"].as_i64().unwrap(), -paid), (t["payee"].as_i64().unwrap(), paid)] {
                match nets.iter_mut().find(|n| n.0 == seat) {
                    Some(n) => n.1 += amount,
                    None => nets.push((seat, amount)),
                }
            }
        }
        for (seat, net) in nets {
            if !(net.is_zero() && rake.is_zero()) {
                let kind = format!("hand_result, rake {}", rake.normalize());
                expected_rows.push((kind, seating(seat), Value::Null, net - rake));
            }
        }
        let hits = arr(&committed["jackpot_hits"]).clone();
        let triggers = arr(&result["jackpot_triggers"]).clone();
        let mut running = pool0.map(|p| p + jackpot * n);
        let seed = self.pool.map(|p| dec(&get(app, &format!("/api/v1/pools/{p}"))["seed"]));
        if self.pool.is_some() {
            assert_eq!(hits.len(), triggers.len(), "one hit per trigger: {committed}");
            for (hit, trigger) in hits.iter().zip(&triggers) {
                assert_eq!(hit["kind"], trigger["kind"]);
                assert_eq!(hit["loser_seat"], trigger["loser"]);
                assert_eq!(hit["winner_seat"], trigger["winner"]);
                assert_eq!(hit["status"], json!("pending"));
                assert_eq!(hit["pool_id"], json!(self.pool));
                assert_eq!(
                    dec(&hit["amount"]),
                    running.unwrap(),
                    "a hit locks the pool's balance at that moment (this hand's contribution included)"
                );
                expected_rows.push(("jackpot_lock".into(), Value::Null, json!(self.pool), -dec(&hit["amount"])));
                expected_rows.push(("pool_seed".into(), Value::Null, json!(self.pool), seed.unwrap()));
                running = seed;
            }
        } else {
            assert!(hits.is_empty());
        }
        let mut got_rows: Vec<(String, Value, Value, Decimal)> = new
            .iter()
            .map(|r| {
                assert_eq!(r["hand_id"], hand_id, "one hand's rows: {r}");
                assert_eq!(r["table_id"], json!(self.id));
                assert!(r["reverses_id"].is_null() && r["reason"].is_null());
                let kind = match &r["rake"] {
                    Value::Null => r["kind"].as_str().unwrap().to_string(),
                    rake => format!("{}, rake {}", r["kind"].as_str().unwrap(), dec(rake).normalize()),
                };
                // Contributions are the pool's: keep them in one column.
                let pool = if kind == "jackpot_contribution" { Value::Null } else { r["pool_id"].clone() };
                let first = if kind == "jackpot_contribution" { r["pool_id"].clone() } else { r["seating_id"].clone() };
                (kind, first, pool, dec(&r["amount"]))
            })
            .collect();
        let key_of = |r: &(String, Value, Value, Decimal)| format!("{} {} {} {}", r.0, r.1, r.2, r.3.normalize());
        got_rows.sort_by_key(key_of);
        expected_rows.sort_by_key(key_of);
        assert_eq!(got_rows, expected_rows, "hand {number}'s ledger rows");
        // Locks name their hits, in settlement order.
        let locks: Vec<&Value> = new.iter().filter(|r| r["kind"] == json!("jackpot_lock")).collect();
        for (lock, hit) in locks.iter().zip(&hits) {
            assert_eq!(lock["jackpot_hit_id"], hit["id"]);
        }
        if let Some(p) = running {
            assert_eq!(self.pool_balance(), Some(p), "the pool after hand {number}");
        }
        assert_eq!(&self.hand(number), committed, "GET answers the committed hand");
        assert!(table1["open_hand"].is_null());
        result
    }

    /// Voids a hand (reason code `other`, the note `note`): one reversing row
    /// (with the reason) per money row of the hand; stacks and the pool move
    /// back by exactly those rows.
    fn void(&self, number: i64, note: &str) -> Value {
        let reason = format!("other: {note}");
        let table0 = self.view();
        let ledger0 = self.ledger();
        let pool0 = self.pool_balance();
        let hand0 = self.hand(number);
        let answer = expect(
            self.app,
            "POST",
            &self.path(&format!("/hands/{number}/void")),
            &json!({ "reason": "other", "note": note }),
            200,
        );
        assert_eq!(answer["status"], json!("voided"));
        assert_eq!(answer["void_reason"], json!("other"));
        assert_eq!(answer["void_note"], json!(note));
        assert_eq!(answer["result"], hand0["result"], "a voided hand keeps its sheet");
        assert!(arr(&answer["jackpot_hits"]).iter().all(|h| h["status"] == json!("voided")));
        let ledger1 = self.ledger();
        assert_prefix(&ledger0, &ledger1, "void");
        let new = &ledger1[ledger0.len()..];
        if hand0["status"] == json!("open") {
            assert!(new.is_empty(), "voiding an open hand moves no money");
            return answer;
        }
        assert!(!new.is_empty());
        let hand_id = new[0]["hand_id"].clone();
        // Rows of nothing have nothing to reverse.
        let originals: Vec<&Value> =
            ledger0.iter().filter(|r| r["hand_id"] == hand_id && !dec(&r["amount"]).is_zero()).collect();
        assert_eq!(new.len(), originals.len(), "one reversal per row of the hand that moved money");
        let mut seat_delta: HashMap<i64, Decimal> = HashMap::new();
        let mut pool_delta = Decimal::ZERO;
        // Money in before money out (so no account dips below zero on the
        // way): the reversals in any order, each naming its row.
        for rev in new {
            let orig = originals
                .iter()
                .find(|o| o["id"] == rev["reverses_id"])
                .unwrap_or_else(|| panic!("a reversal of a row of the hand: {rev}"));
            assert_eq!(rev["kind"], json!("reversal"));
            assert_eq!(rev["reverses_id"], orig["id"]);
            assert_eq!(dec(&rev["amount"]), -dec(&orig["amount"]));
            assert_eq!(rev["reason"], json!(reason));
            for f in ["table_id", "hand_id", "seating_id", "pool_id", "jackpot_hit_id"] {
                assert_eq!(rev[f], orig[f], "a reversal keeps {f}");
            }
            if let Some(s) = orig["seating_id"].as_i64() {
                *seat_delta.entry(s).or_default() += dec(&orig["amount"]);
            }
            if orig["pool_id"].as_i64().is_some() {
                pool_delta += dec(&orig["amount"]);
            }
        }
        let table1 = self.view();
        for s in arr(&table1["seats"]) {
            let seating = s["seating_id"].as_i64().unwrap();
            let before = dec(&seat_of(&table0["seats"], s["seat"].as_i64().unwrap())["stack"]);
            let delta = seat_delta.get(&seating).copied().unwrap_or_default();
            assert_eq!(dec(&s["stack"]), before - delta, "seat {} after the void", s["seat"]);
        }
        if let Some(p) = pool0 {
            assert_eq!(self.pool_balance(), Some(p - pool_delta), "the pool after the void");
        }
        assert_eq!(self.hand(number), answer);
        answer
    }
}

// ---------------------------------------------------------------------------
// The invariants, from the API alone
// ---------------------------------------------------------------------------

const SEAT_KINDS: &[&str] = &["buy_in", "add_on", "cash_out", "rake", "settlement", "hand_result", "jackpot_payout"];
const POOL_KINDS: &[&str] = &["jackpot_contribution", "pool_seed", "jackpot_lock", "jackpot_return"];
/// Money that enters or leaves the table's books; every other kind is double entry.
const EXTERNAL_KINDS: &[&str] =
    &["buy_in", "add_on", "cash_out", "pool_seed", "jackpot_lock", "jackpot_return", "jackpot_payout"];

struct Audit<'a> {
    app: &'a App,
    tables: Vec<i64>,
    pools: Vec<i64>,
    snapshots: HashMap<i64, Vec<Vec<Value>>>,
}

impl<'a> Audit<'a> {
    fn new(app: &'a App) -> Audit<'a> {
        Audit { app, tables: Vec::new(), pools: Vec::new(), snapshots: HashMap::new() }
    }

    fn table(&mut self, t: &Table) {
        self.tables.push(t.id);
    }

    fn pool(&mut self, p: i64) {
        self.pools.push(p);
    }

    /// Everything observable: tables, ledgers, hands, pools.
    fn world(&self) -> Value {
        let app = self.app;
        let mut w = serde_json::Map::new();
        w.insert("tables".into(), get(app, "/api/v1/tables"));
        for &t in &self.tables {
            let view = get(app, &format!("/api/v1/tables/{t}"));
            let hands: Vec<Value> = (1..=view["hand_number"].as_i64().unwrap())
                .map(|n| get(app, &format!("/api/v1/tables/{t}/hands/{n}")))
                .collect();
            w.insert(format!("table {t}"), view);
            w.insert(format!("ledger {t}"), get(app, &format!("/api/v1/tables/{t}/ledger")));
            w.insert(format!("hands {t}"), Value::Array(hands));
        }
        for &p in &self.pools {
            w.insert(format!("pool {p}"), get(app, &format!("/api/v1/pools/{p}")));
        }
        Value::Object(w)
    }

    /// Sends a bad request: a 4xx JSON error naming `needles`, and nothing changed.
    fn refused(
        &self,
        method: &str,
        path: &str,
        body: &str,
        key: Option<&str>,
        statuses: &[u16],
        needles: &[&str],
    ) -> Value {
        let before = self.world();
        let (status, answer) = send(self.app, method, path, body, key);
        let shown: String = body.chars().take(300).collect();
        assert!(
            statuses.contains(&status),
            "{method} {path} {shown}\nanswered {status} (wanted {statuses:?}): {answer}"
        );
        assert_error(&answer, needles, &format!("{method} {path} {shown}"));
        assert_eq!(self.world(), before, "{method} {path} {shown}: a refused request changed something");
        answer
    }

    fn check(&mut self) {
        let app = self.app;
        let mut pool_sums: HashMap<i64, Decimal> = HashMap::new();
        let mut seen_pools: HashSet<i64> = HashSet::new();
        for &t in &self.tables.clone() {
            let view = get(app, &format!("/api/v1/tables/{t}"));
            let ledger = arr(&get(app, &format!("/api/v1/tables/{t}/ledger"))).clone();
            if let Some(p) = view["pool"]["id"].as_i64() {
                seen_pools.insert(p);
            }

            // Append-only: every earlier snapshot is still there, row for row.
            let snaps = self.snapshots.entry(t).or_default();
            for (i, earlier) in snaps.iter().enumerate() {
                let by_id: HashMap<i64, &Value> = ledger.iter().map(|r| (r["id"].as_i64().unwrap(), r)).collect();
                for row in earlier {
                    let id = row["id"].as_i64().unwrap();
                    assert_eq!(
                        by_id.get(&id).copied(),
                        Some(row),
                        "table {t}: ledger row {id} of snapshot {i} changed or disappeared"
                    );
                }
            }
            snaps.push(ledger.clone());

            let by_id: HashMap<i64, &Value> = ledger.iter().map(|r| (r["id"].as_i64().unwrap(), r)).collect();
            let mut ids: Vec<i64> = by_id.keys().copied().collect();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), ledger.len(), "table {t}: ledger ids are unique");

            let mut by_kind: HashMap<String, Decimal> = HashMap::new();
            let mut seatings: BTreeMap<i64, Decimal> = BTreeMap::new();
            let mut buy_ins: HashMap<i64, usize> = HashMap::new();
            let mut per_hand: BTreeMap<i64, (Decimal, Decimal)> = BTreeMap::new(); // (rake side, settlements)
            let mut reversed: HashSet<i64> = HashSet::new();
            let mut total = Decimal::ZERO;
            for row in &ledger {
                let kind = row["kind"].as_str().unwrap();
                let amount = dec(&row["amount"]);
                assert_eq!(row["table_id"], json!(t));
                total += amount;
                if kind == "contribution_refund" {
                    // A void of a hand whose contribution a later hit locked:
                    // the house refunds it (the pool keeps it in the hit).
                    let of = row["reverses_id"].as_i64().expect("a refund names the contribution");
                    let orig = by_id.get(&of).unwrap_or_else(|| panic!("refund of unknown row {of}"));
                    assert_eq!(orig["kind"], json!("jackpot_contribution"), "a refund of a contribution");
                    assert_eq!(amount, -dec(&orig["amount"]), "a refund negates its contribution");
                    assert_eq!(row["hand_id"], orig["hand_id"]);
                    assert!(row["seating_id"].is_null() && row["pool_id"].is_null(), "a refund is the house's");
                    assert!(reversed.insert(of), "row {of} reversed twice");
                }
                let original = if kind == "reversal" {
                    let of = row["reverses_id"].as_i64().expect("a reversal names its row");
                    let orig = by_id.get(&of).unwrap_or_else(|| panic!("reversal of unknown row {of}"));
                    assert_ne!(orig["kind"], json!("reversal"), "a reversal of a reversal");
                    assert!(of < row["id"].as_i64().unwrap());
                    assert_eq!(amount, -dec(&orig["amount"]), "a reversal negates its row");
                    assert!(
                        row["reason"].as_str().is_some_and(|r| !r.trim().is_empty()),
                        "a reversal has a reason: {row}"
                    );
                    for f in ["hand_id", "seating_id", "pool_id"] {
                        assert_eq!(row[f], orig[f]);
                    }
                    assert!(reversed.insert(of), "row {of} reversed twice");
                    orig["kind"].as_str().unwrap()
                } else {
                    assert!(row["reverses_id"].is_null() || kind == "contribution_refund");
                    kind
                };
                // Signs by kind.
                let positive = [
                    "buy_in",
                    "add_on",
                    "house_rake",
                    "jackpot_contribution",
                    "pool_seed",
                    "jackpot_return",
                    "jackpot_payout",
                ];
                let negative = ["cash_out", "rake", "jackpot_lock", "contribution_refund"];
                if kind != "reversal" {
                    if positive.contains(&kind) {
                        assert!(amount >= Decimal::ZERO, "{kind} row is negative: {row}");
                    }
                    if negative.contains(&kind) {
                        assert!(amount <= Decimal::ZERO, "{kind} row is positive: {row}");
                    }
                    assert!(
                        positive.contains(&kind)
                            || negative.contains(&kind)
                            || kind == "settlement"
                            || kind == "hand_result",
                        "unknown ledger kind {kind}"
                    );
                }
                // The rake in a hand result (its reversal's: the negative);
                // no other row carries one.
                let row_rake = match &row["rake"] {
                    Value::Null => {
                        assert_ne!(original, "hand_result", "a hand result without its rake: {row}");
                        Decimal::ZERO
                    }
                    r => {
                        assert_eq!(original, "hand_result", "a rake on a {original} row: {row}");
                        assert!((kind == "hand_result") == (dec(r) >= Decimal::ZERO), "the rake's sign: {row}");
                        dec(r)
                    }
                };
                *by_kind.entry(original.to_string()).or_default() += amount;
                match (row["seating_id"].as_i64(), row["pool_id"].as_i64()) {
                    (Some(s), None) => {
                        assert!(SEAT_KINDS.contains(&original), "a {original} row on a seat: {row}");
                        *seatings.entry(s).or_default() += amount;
                        if kind == "buy_in" {
                            *buy_ins.entry(s).or_default() += 1;
                        }
                    }
                    (None, Some(p)) => {
                        assert!(POOL_KINDS.contains(&original), "a {original} row on a pool: {row}");
                        *pool_sums.entry(p).or_default() += amount;
                    }
                    (None, None) => {
                        assert!(["house_rake", "contribution_refund"].contains(&original), "a row on nothing: {row}")
                    }
                    (Some(_), Some(_)) => panic!("a row on a seat and a pool: {row}"),
                }
                if let Some(h) = row["hand_id"].as_i64() {
                    let e = per_hand.entry(h).or_default();
                    match original {
                        "rake" | "house_rake" | "jackpot_contribution" | "contribution_refund" => e.0 += amount,
                        "settlement" => e.1 += amount,
                        // Its rake goes to the rake side, the rest is its net.
                        "hand_result" => {
                            e.0 -= row_rake;
                            e.1 += amount + row_rake;
                        }
                        _ => {}
                    }
                } else {
                    assert!(
                        ["buy_in", "add_on", "cash_out"].contains(&original)
                            || (["jackpot_payout", "jackpot_return"].contains(&original)
                                && row["jackpot_hit_id"].is_i64()),
                        "a {original} row outside a hand (or a hit): {row}"
                    );
                }
            }

            // Double entry: each hand's rake = house share + contribution; settlements net to zero.
            for (h, (rake_side, settled)) in &per_hand {
                assert!(rake_side.is_zero(), "table {t} hand id {h}: rake rows do not balance ({rake_side})");
                assert!(settled.is_zero(), "table {t} hand id {h}: settlement rows do not balance ({settled})");
            }
            // Overall: the ledger is the money brought in and taken out, plus the pool's seeds and locks.
            let external: Decimal = EXTERNAL_KINDS.iter().map(|k| by_kind.get(*k).copied().unwrap_or_default()).sum();
            assert_eq!(
                total, external,
                "table {t}: the ledger does not sum to buy-ins + add-ons − cash-outs + pool seeds − locks"
            );

            // Seat stacks from ledger rows by seating.
            let mut active = HashSet::new();
            for s in arr(&view["seats"]) {
                let seating = s["seating_id"].as_i64().unwrap();
                active.insert(seating);
                let stack = dec(&s["stack"]);
                assert!(stack >= Decimal::ZERO, "table {t} seat {}: a negative stack {stack}", s["seat"]);
                assert_eq!(
                    seatings.get(&seating).copied().unwrap_or_default(),
                    stack,
                    "table {t} seat {}: stack != buy-ins + add-ons − cash-outs − rake + settlements + payouts + reversals",
                    s["seat"]
                );
                assert_eq!(buy_ins.get(&seating), Some(&1), "one buy-in per seating");
            }
            for (seating, sum) in &seatings {
                assert_eq!(buy_ins.get(seating), Some(&1), "seating {seating} has one buy-in");
                if !active.contains(seating) {
                    assert!(sum.is_zero(), "table {t}: seating {seating} left with {sum} still on its books");
                }
            }

            // Hands: each committed hand's stacks against the ledger around its commit.
            let hands: Vec<Value> = (1..=view["hand_number"].as_i64().unwrap())
                .map(|n| get(app, &format!("/api/v1/tables/{t}/hands/{n}")))
                .collect();
            for (i, h) in hands.iter().enumerate() {
                assert_eq!(h["number"], json!(i + 1));
                match h["status"].as_str().unwrap() {
                    "open" => {
                        assert_eq!(i + 1, hands.len(), "only the last hand may be open");
                        assert_eq!(view["open_hand"], json!(i + 1));
                    }
                    "committed" | "voided" => {}
                    other => panic!("hand status {other}"),
                }
            }
            let mut hand_ids: Vec<i64> = Vec::new();
            for row in &ledger {
                if let Some(h) = row["hand_id"].as_i64() {
                    if !hand_ids.contains(&h) {
                        hand_ids.push(h);
                    }
                }
            }
            let with_result: Vec<&Value> = hands.iter().filter(|h| !h["result"].is_null()).collect();
            assert_eq!(
                hand_ids.len(),
                with_result.len(),
                "table {t}: every committed hand (all these tables rake) has ledger rows, and only those"
            );
            for (h, hid) in with_result.iter().zip(&hand_ids) {
                let rows: Vec<&Value> = ledger.iter().filter(|r| r["hand_id"].as_i64() == Some(*hid)).collect();
                let correction =
                    |r: &Value| r["kind"] == json!("reversal") || r["kind"] == json!("contribution_refund");
                let commit_rows: Vec<&&Value> = rows.iter().filter(|r| !correction(r)).collect();
                let first = commit_rows.iter().map(|r| r["id"].as_i64().unwrap()).min().unwrap();
                let last = commit_rows.iter().map(|r| r["id"].as_i64().unwrap()).max().unwrap();
                let result = &h["result"];
                let balance = |seating: i64, upto: &dyn Fn(i64) -> bool| -> Decimal {
                    ledger
                        .iter()
                        .filter(|r| r["seating_id"].as_i64() == Some(seating) && upto(r["id"].as_i64().unwrap()))
                        .map(|r| dec(&r["amount"]))
                        .sum()
                };
                for s in arr(&result["seats"]) {
                    let seat = s["seat"].as_i64().unwrap();
                    let hs = seat_of(&h["seats"], seat);
                    let seating = hs["seating_id"].as_i64().unwrap();
                    assert_eq!(dec(&hs["stack_start"]), dec(&s["stack_start"]));
                    assert_eq!(
                        balance(seating, &|id| id < first),
                        dec(&s["stack_start"]),
                        "table {t} hand {}: seat {seat}'s ledger stack before the commit",
                        h["number"]
                    );
                    assert_eq!(
                        balance(seating, &|id| id <= last),
                        dec(&s["stack_end"]),
                        "table {t} hand {}: seat {seat}'s ledger stack right after the commit",
                        h["number"]
                    );
                }
                let voided = h["status"] == json!("voided");
                let reversals = rows.len() - commit_rows.len();
                let moved = commit_rows.iter().filter(|r| !dec(&r["amount"]).is_zero()).count();
                assert_eq!(reversals, if voided { moved } else { 0 }, "hand {}: reversals", h["number"]);
                if voided {
                    for r in rows.iter().filter(|r| correction(r)) {
                        let reason =
                            format!("{}: {}", h["void_reason"].as_str().unwrap(), h["void_note"].as_str().unwrap());
                        assert_eq!(r["reason"], json!(reason));
                    }
                }
                // Hits against the lock rows.
                let locks: Vec<&&Value> =
                    commit_rows.iter().copied().filter(|r| r["kind"] == json!("jackpot_lock")).collect();
                let hits = arr(&h["jackpot_hits"]);
                assert_eq!(locks.len(), hits.len());
                for (lock, hit) in locks.iter().zip(hits) {
                    assert_eq!(lock["jackpot_hit_id"], hit["id"]);
                    assert_eq!(dec(&lock["amount"]), -dec(&hit["amount"]));
                    // A rejected hit's amount is back in the pool (one return row).
                    let returns: Vec<&Value> = ledger
                        .iter()
                        .filter(|r| r["kind"] == json!("jackpot_return") && r["jackpot_hit_id"] == hit["id"])
                        .collect();
                    match hit["status"].as_str().unwrap() {
                        "rejected" => {
                            assert!(!voided);
                            assert_eq!(returns.len(), 1);
                            assert_eq!(dec(&returns[0]["amount"]), dec(&hit["amount"]));
                        }
                        "paid" => {
                            // Paid by the pool's shares: positive payouts adding up to the hit.
                            assert!(!voided && returns.is_empty());
                            let payouts: Vec<Decimal> = ledger
                                .iter()
                                .filter(|r| r["kind"] == json!("jackpot_payout") && r["jackpot_hit_id"] == hit["id"])
                                .map(|r| dec(&r["amount"]))
                                .collect();
                            assert!(payouts.iter().all(|p| *p > Decimal::ZERO), "hit {}: {payouts:?}", hit["id"]);
                            assert_eq!(payouts.iter().sum::<Decimal>(), dec(&hit["amount"]));
                        }
                        status => {
                            let waiting = ["pending", "approved"].contains(&status);
                            assert!(if voided { status == "voided" } else { waiting }, "hit status {status}");
                            assert!(returns.is_empty());
                        }
                    }
                }
                assert_eq!(hits.len(), arr(&result["jackpot_triggers"]).len());
            }
        }
        // Pools: seed at creation + every pool row (contributions, restarts, locks, returns, reversals).
        for p in seen_pools {
            assert!(self.pools.contains(&p), "audit every pool a table feeds (pool {p})");
        }
        for &p in &self.pools {
            let pool = get(app, &format!("/api/v1/pools/{p}"));
            let balance = dec(&pool["balance"]);
            assert!(balance >= Decimal::ZERO);
            assert_eq!(
                balance,
                dec(&pool["seed"]) + pool_sums.get(&p).copied().unwrap_or_default(),
                "pool {p}: balance != seeds + contributions − locked hits + returned hits"
            );
        }
    }
}

/// Runs the scenario on every backend, each to its end; fails naming the
/// backends it failed on.
fn each_backend(scenario: fn(&str)) {
    let mut failed = Vec::new();
    for backend in backends() {
        eprintln!("-- backend {backend}");
        if let Err(e) = std::panic::catch_unwind(|| scenario(backend)) {
            let message = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failed.push(format!("[{backend}] {message}"));
        }
    }
    assert!(failed.is_empty(), "failed on {} backend(s):\n{}", failed.len(), failed.join("\n\n"));
}

// ---------------------------------------------------------------------------
// 2. A full table session
// ---------------------------------------------------------------------------

#[test]
fn a_full_table_session() {
    each_backend(full_session);
}

fn full_session(backend: &str) {
    let app = spawn_app(backend);
    let mut audit = Audit::new(&app);
    let pool = create_pool(&app, "bad beat", "500");
    audit.pool(pool);
    let t = Table::create(&app, "HG 1", Some(pool), "hawaiian-gardens", "1", "0.50", "0.10");
    audit.table(&t);
    t.seat(1, "Alice", "200");
    t.seat(2, "Bob", "200");
    t.seat(3, "Carol", "12");
    t.seat(4, "Dave", "200");
    audit.check();
    let all = [1, 2, 3, 4];

    // 1: Carol's short stack bounds the settlement; she ends with nothing.
    let h = t.start(None);
    assert_eq!(h["dealer_seat"], json!(1));
    let r = t.commit(1, &Showdown::deal(&DEAL_A, &all, 0));
    let carol = seat_of(&r["seats"], 3);
    assert_eq!(dec(&carol["stack_end"]), Decimal::ZERO, "Carol loses her whole exposure: {carol}");
    assert!(
        arr(&r["transactions"]).iter().any(|x| dec(&x["paid"]) < dec(&x["owed"])),
        "a chip-bounded transaction: {r}"
    );
    assert!(arr(&r["transactions"]).iter().any(|x| dec(&x["paid"]).is_zero()), "{r}");
    audit.check();

    // 2: Carol (stack 0) is not dealt in; the button goes to seat 2. No
    // add-on, cash-out or ruleset change while the hand is open.
    let h = t.start(None);
    assert_eq!(h["dealer_seat"], json!(2));
    audit.refused(
        "POST",
        &t.path("/seats/3/add-on"),
        r#"{"amount":"100"}"#,
        None,
        &[409],
        &["hand 2", "between hands"],
    );
    audit.refused("POST", &t.path("/seats/1/cash-out"), "", None, &[409], &["hand 2"]);
    audit.refused(
        "PUT",
        &t.path("/ruleset"),
        r#"{"preset":"simple","unit":"1","rake_per_seat":"0.50","jackpot_part":"0.10"}"#,
        None,
        &[409],
        &["between hands"],
    );
    t.commit(2, &Showdown::deal(&DEAL_B, &[1, 2, 4], 0));
    audit.check();

    // 3: the button skips empty seat 3; Bob surrenders.
    let h = t.start(None);
    assert_eq!(h["dealer_seat"], json!(4));
    t.commit(3, &Showdown::deal(&DEAL_A, &[1, 2, 4], 1).surrender(2));
    audit.check();

    // Between hands Carol adds on and is dealt in again.
    t.add_on(3, "100");
    audit.check();

    // 4: a dragon (claim best), the button wraps to seat 1.
    let h = t.start(None);
    assert_eq!(h["dealer_seat"], json!(1));
    let r = t.commit(4, &Showdown::deal(&DEAL_DRAGON, &all, 0));
    assert_eq!(seat_of(&r["seats"], 4)["special"], json!("dragon"));
    assert!(arr(&r["transactions"]).iter().any(|x| x["pass"] == json!("special")));
    audit.check();

    // 5: six pairs claimed by name.
    t.start(None);
    let r = t.commit(5, &Showdown::deal(&DEAL_B, &all, 1).claim(4, "six-pairs"));
    assert_eq!(seat_of(&r["seats"], 4)["special"], json!("six-pairs"));
    audit.check();

    // 6: a foul.
    t.start(None);
    t.commit(6, &Showdown::deal(&DEAL_A, &all, 2).foul(1));
    audit.check();

    // 7: a bad beat: seat 1 (straight flush, trips, pair) loses every row to
    // seat 2. The hit locks the pool including this hand's contributions and
    // the pool restarts from its seed.
    t.start(None);
    let before = pool_balance(&app, pool);
    let r = t.commit(7, &Showdown::deal(&DEAL_BAD_BEAT, &all, 0));
    assert_eq!(r["jackpot_triggers"], json!([{"kind": "bad-beat", "loser": 1, "winner": 2}]));
    let hit = &t.hand(7)["jackpot_hits"][0];
    assert_eq!(dec(&hit["amount"]), before + d("0.40"), "the hit locks the balance with this hand's 4 × 0.10");
    assert_eq!((hit["loser_seat"].as_i64(), hit["winner_seat"].as_i64()), (Some(1), Some(2)));
    assert_eq!(pool_balance(&app, pool), d("500"), "the pool restarts from its seed");
    audit.check();

    // 8: two surrenders (they exchange nothing between them).
    t.start(None);
    let r = t.commit(8, &Showdown::deal(&DEAL_B, &all, 2).surrender(2).surrender(3));
    // Between the two surrenders only the aces bet is exchanged.
    let p23 = arr(&r["pairs"]).iter().find(|p| p["seats"] == json!([2, 3]) || p["seats"] == json!([3, 2])).unwrap();
    let ace_value = |seat: i64| [0, 1, 2, 6, 8][seat_of(&r["seats"], seat)["aces"].as_u64().unwrap() as usize];
    let (a, b) = (p23["seats"][0].as_i64().unwrap(), p23["seats"][1].as_i64().unwrap());
    assert_eq!(p23["main_units"], json!(ace_value(a) - ace_value(b)), "{p23}");
    assert_eq!(p23["special_units"], json!(0));
    assert_eq!(pool_balance(&app, pool), d("500.40"), "contributions go to the restarted pool");
    audit.check();

    // 9: two fouls.
    t.start(None);
    t.commit(9, &Showdown::deal(&DEAL_A, &all, 3).foul(1).foul(4));
    audit.check();

    // 10: a dragon by name against a surrender.
    t.start(None);
    let r = t.commit(10, &Showdown::deal(&DEAL_DRAGON, &all, 1).claim(3, "dragon").surrender(1));
    assert_eq!(seat_of(&r["seats"], 3)["special"], json!("dragon"));
    audit.check();

    // 11: committed, then voided: reversing rows with the reason; stacks back.
    let h = t.start(None);
    let stacks_before: BTreeMap<i64, Decimal> =
        arr(&h["seats"]).iter().map(|s| (s["seat"].as_i64().unwrap(), dec(&s["stack_start"]))).collect();
    let pool_before = pool_balance(&app, pool);
    t.commit(11, &Showdown::deal(&DEAL_B, &all, 3));
    audit.check();
    t.void(11, "wrong hands were entered");
    assert_eq!(t.stacks(), stacks_before, "a void puts the stacks back");
    assert_eq!(pool_balance(&app, pool), pool_before, "a void takes the contribution back");
    audit.refused(
        "POST",
        &t.path("/hands/11/void"),
        r#"{"reason":"other","note":"again"}"#,
        None,
        &[409],
        &["already voided"],
    );
    audit.refused(
        "POST",
        &t.path("/hands/11/commit"),
        &Showdown::deal(&DEAL_B, &all, 3).json().to_string(),
        None,
        &[409],
        &["voided"],
    );
    audit.check();

    // 12, 13: Bob sits out two hands; the button skips him.
    let h = t.start(Some(&[1, 3, 4]));
    assert_eq!(h["dealer_seat"], json!(1));
    t.commit(12, &Showdown::deal(&DEAL_A, &[1, 3, 4], 0));
    let h = t.start(Some(&[1, 3, 4]));
    assert_eq!(h["dealer_seat"], json!(3));
    t.commit(13, &Showdown::deal(&DEAL_B, &[1, 3, 4], 1));
    audit.check();

    // 14: a foul and a surrender.
    let h = t.start(None);
    assert_eq!(h["dealer_seat"], json!(4));
    t.commit(14, &Showdown::deal(&DEAL_A, &all, 1).foul(3).surrender(4));
    audit.check();

    // 15: a second bad beat (seat 4 loses every row to seat 1).
    t.start(None);
    let before = pool_balance(&app, pool);
    let r = t.commit(15, &Showdown::deal(&DEAL_BAD_BEAT, &all, 1));
    assert_eq!(r["jackpot_triggers"], json!([{"kind": "bad-beat", "loser": 4, "winner": 1}]));
    assert_eq!(dec(&t.hand(15)["jackpot_hits"][0]["amount"]), before + d("0.40"));
    assert_eq!(pool_balance(&app, pool), d("500"));
    audit.check();

    // 16-20.
    t.start(None);
    t.commit(16, &Showdown::deal(&DEAL_DRAGON, &all, 2));
    t.start(None);
    t.commit(17, &Showdown::deal(&DEAL_B, &all, 0).claim(1, "best"));
    // 18: seats 1 and 3 play this hand at 5 a unit between themselves (the
    // floor sets it on the table's ruleset, and sets it back afterwards).
    let ruleset = t.view()["ruleset"].clone();
    let mut stakes = json!({
        "preset": ruleset["preset"], "unit": ruleset["unit"], "rake_per_seat": ruleset["rake_per_seat"],
        "jackpot_part": ruleset["jackpot_part"], "pair_units": [{"seats": [1, 3], "unit": "5"}],
    });
    expect(&app, "PUT", &t.path("/ruleset"), &stakes, 200);
    t.start(None);
    let body = Showdown::deal(&DEAL_A, &all, 2).json();
    let r = t.commit_body(18, &body, None);
    stakes["pair_units"] = json!([]);
    expect(&app, "PUT", &t.path("/ruleset"), &stakes, 200);
    let p13 = arr(&r["transactions"]).iter().find(|x| {
        let (a, b) = (x["payer"].as_i64().unwrap(), x["payee"].as_i64().unwrap());
        (a.min(b), a.max(b)) == (1, 3) && x["pass"] == json!("main")
    });
    if let Some(x) = p13 {
        let pair =
            arr(&r["pairs"]).iter().find(|p| p["seats"] == json!([1, 3]) || p["seats"] == json!([3, 1])).unwrap();
        let units = pair["main_units"].as_i64().unwrap().abs();
        assert_eq!(dec(&x["owed"]), Decimal::from(units * 5), "the pair's own unit: {x}");
    }
    t.start(None);
    t.commit(19, &Showdown::deal(&DEAL_B, &all, 2).foul(2));
    let h = t.start(None);
    assert_eq!(h["dealer_seat"], json!(2));
    t.commit(20, &Showdown::deal(&DEAL_DRAGON, &all, 3));
    audit.check();
    assert_eq!(pool_balance(&app, pool), d("502.00"), "the seed plus five hands of 4 × 0.10");

    // The hits still waiting are rejected (their players could not cash
    // out while a hit owed them a share); the money goes back to the pool.
    let open = expect(&app, "GET", "/api/v1/jackpots?status=open", &Value::Null, 200);
    assert_eq!(arr(&open).len(), 2, "hands 7 and 15: {open}");
    let pool_before = pool_balance(&app, pool);
    let mut returned = Decimal::ZERO;
    let boss = app.signed_in("boss");
    for hit in arr(&open) {
        let path = format!("/api/v1/jackpots/{}/reject", hit["id"]);
        let (status, _) = request(&app, "POST", &format!("/api/v1/tables/{}/seats/1/cash-out", t.id), "");
        assert_eq!(status, 409, "seat 1 is owed a share of hit {}", hit["id"]);
        expect(&boss, "POST", &path, &json!({"reason": "end of the session test"}), 200);
        returned += dec(&hit["amount"]);
    }
    assert_eq!(pool_balance(&app, pool), pool_before + returned);
    audit.check();

    // Cash-outs at the end.
    let view = t.view();
    assert_eq!(view["hand_number"], json!(20));
    let mut cashed = Decimal::ZERO;
    for seat in all {
        cashed += t.cash_out(seat);
    }
    assert_eq!(t.view()["seats"], json!([]));
    // Every chip came in as a buy-in or add-on and went out as a cash-out or rake.
    let ledger = t.ledger();
    let sum_kind =
        |k: &str| -> Decimal { ledger.iter().filter(|r| r["kind"] == json!(k)).map(|r| dec(&r["amount"])).sum() };
    let live_hands = 19; // hand 11 was voided
                         // The rake: on each seat's hand result, given back by a void's reversal.
    let rake_taken: Decimal = ledger.iter().filter(|r| !r["rake"].is_null()).map(|r| dec(&r["rake"])).sum();
    assert!(sum_kind("rake").is_zero() && sum_kind("settlement").is_zero(), "a hand writes one row a seat");
    assert_eq!(sum_kind("buy_in") + sum_kind("add_on"), d("712"));
    assert_eq!(cashed, d("712") - rake_taken, "cash-outs = buy-ins + add-ons − rake ({live_hands} hands)");
    audit.check();
}

// ---------------------------------------------------------------------------
// 3. Idempotency
// ---------------------------------------------------------------------------

#[test]
fn commits_are_idempotent_and_previews_write_nothing() {
    each_backend(idempotency);
}

fn idempotency(backend: &str) {
    let app = spawn_app(backend);
    let mut audit = Audit::new(&app);
    let pool = create_pool(&app, "p", "100");
    audit.pool(pool);
    let t = Table::create(&app, "idem", Some(pool), "hawaiian-gardens", "1", "0.50", "0.10");
    audit.table(&t);
    for (seat, name) in [(1, "A"), (2, "B"), (3, "C")] {
        t.seat(seat, name, "100");
    }
    t.start(None);
    let good = Showdown::deal(&DEAL_A, &[1, 2, 3], 0).json();
    let other = Showdown::deal(&DEAL_A, &[1, 2, 3], 1).json();
    let commit_path = t.path("/hands/1/commit");

    // Previews score and write nothing, however often.
    let world = audit.world();
    let p1 = expect(&app, "POST", &t.path("/hands/1/preview"), &good, 200);
    let p2 = expect(&app, "POST", &t.path("/hands/1/preview"), &other, 200);
    let p3 = expect(&app, "POST", &t.path("/hands/1/preview"), &good, 200);
    assert_eq!(p1, p3);
    assert_ne!(p1, p2);
    assert_eq!(audit.world(), world, "a preview wrote something");
    assert_eq!(t.hand(1)["status"], json!("open"));

    let result = t.commit_body(1, &good, Some("key-1"));
    assert_eq!(norm(&result), norm(&p1), "the commit is what the preview showed");
    let first = t.hand(1);
    audit.check();

    // Retries answer the first result with 200 and write nothing.
    let world = audit.world();
    for (body, key, why) in [
        (&good, Some("key-1"), "same key, same showdown"),
        (&good, None, "the same showdown again, no key"),
        (&good, Some("key-2"), "the same showdown again, another key"),
    ] {
        let (status, answer) = send(&app, "POST", &commit_path, &body.to_string(), key);
        assert_eq!(status, 200, "{why}: {answer}");
        assert_eq!(answer["created"], json!(false), "{why}");
        assert_eq!(answer["hand"], first, "{why}: not the first result");
        assert_eq!(audit.world(), world, "{why}: a retry wrote something");
    }
    // A different showdown for the committed hand is a conflict, with its
    // first key too (a correction is never dropped without a word).
    audit.refused("POST", &commit_path, &other.to_string(), Some("key-1"), &[409], &["already committed", "void"]);
    audit.refused("POST", &commit_path, &other.to_string(), None, &[409], &["already committed"]);
    audit.refused("POST", &commit_path, &other.to_string(), Some("key-3"), &[409], &["already committed"]);
    // A preview of the committed hand writes nothing either.
    let (status, _) = send(&app, "POST", &t.path("/hands/1/preview"), &other.to_string(), None);
    assert!(status < 500);
    assert_eq!(audit.world(), world);
    // Bad keys.
    audit.refused("POST", &commit_path, &good.to_string(), Some(&"k".repeat(201)), &[400, 422], &["Idempotency-Key"]);
    audit.check();

    // The next hand commits afresh, and a key from hand 1 does not answer for hand 2.
    t.start(None);
    let r2 = t.commit_body(2, &other, Some("key-1"));
    assert_ne!(norm(&r2), norm(&result));
    audit.check();
}

// ---------------------------------------------------------------------------
// 4. Ruleset versions
// ---------------------------------------------------------------------------

#[test]
fn rulesets_are_versioned_and_old_hands_rescore_exactly() {
    each_backend(ruleset_versions);
}

fn ruleset_versions(backend: &str) {
    let app = spawn_app(backend);
    let mut audit = Audit::new(&app);
    let t = Table::create(&app, "versions", None, "hawaiian-gardens", "1", "0.50", "0");
    audit.table(&t);
    for seat in 1..=4 {
        t.seat(seat, &format!("P{seat}"), "300");
    }
    let all = [1, 2, 3, 4];
    let deal = Showdown::deal(&DEAL_A, &all, 0);

    t.start(None);
    let r1 = t.commit(1, &deal);
    assert_eq!(r1["ruleset"], json!("hawaiian-gardens"));
    audit.check();

    let changed = expect(
        &app,
        "PUT",
        &t.path("/ruleset"),
        &json!({"preset": "simple", "unit": "2", "rake_per_seat": "1", "jackpot_part": "0"}),
        200,
    );
    assert_eq!(changed["ruleset"]["version"], json!(2));
    assert_eq!(changed["ruleset"]["preset"], json!("simple"));
    assert_eq!(dec(&changed["ruleset"]["unit"]), d("2"));

    // Hand 1 keeps version 1 and rescores exactly.
    let h1 = t.hand(1);
    assert_eq!(h1["ruleset"]["version"], json!(1));
    assert_eq!(h1["ruleset"]["preset"], json!("hawaiian-gardens"));
    let rescore = get(&app, &t.path("/hands/1/rescore"));
    assert_eq!(rescore["reproduced"], json!(true), "{rescore}");
    assert_eq!(rescore["rescored"], rescore["stored"]);
    assert_eq!(rescore["stored"], h1["result"]);
    // (Under the new version the same cards would score differently.)
    let mut under_v2 = h1.clone();
    under_v2["ruleset"] = changed["ruleset"].clone();
    let v2 = expect(&app, "POST", "/api/v1/score", &engine_showdown(&under_v2, &deal.json()), 200);
    assert_ne!(norm(&v2["transactions"]), norm(&h1["result"]["transactions"]));

    // Hand 2 uses version 2.
    let h2 = t.start(None);
    assert_eq!(h2["ruleset"]["version"], json!(2));
    let r2 = t.commit(2, &deal);
    assert_eq!(r2["ruleset"], json!("simple"));
    assert_eq!(dec(&r2["seats"][0]["rake"]), d("1"));
    assert_eq!(get(&app, &t.path("/hands/2/rescore"))["reproduced"], json!(true));
    audit.check();

    // No change while a hand is open; bad rulesets are refused.
    t.start(None);
    let body = r#"{"preset":"typical","unit":"1","rake_per_seat":"0.50"}"#;
    audit.refused("PUT", &t.path("/ruleset"), body, None, &[409], &["hand"]);
    audit.refused("GET", &t.path("/hands/3/rescore"), "", None, &[409], &["not committed"]);
    assert_eq!(t.hand(3)["ruleset"]["version"], json!(2));
    t.commit(3, &Showdown::deal(&DEAL_B, &all, 1));
    audit.refused(
        "PUT",
        &t.path("/ruleset"),
        r#"{"preset":"texas-holdem","unit":"1"}"#,
        None,
        &[422],
        &["texas-holdem"],
    );
    audit.refused("PUT", &t.path("/ruleset"), r#"{"preset":"HAWAIIAN-GARDENS","unit":"1"}"#, None, &[422], &["preset"]);
    audit.refused(
        "PUT",
        &t.path("/ruleset"),
        r#"{"preset":"simple","unit":"1","rake_per_seat":"0.10","jackpot_part":"0.20"}"#,
        None,
        &[422],
        &["jackpot_part"],
    );
    audit.refused("PUT", &t.path("/ruleset"), r#"{"preset":"simple","unit":"0"}"#, None, &[422], &["unit"]);

    // Version 3; the old hands still rescore under their own versions.
    let v3 = expect(
        &app,
        "PUT",
        &t.path("/ruleset"),
        &json!({"preset": "typical", "unit": "1", "rake_per_seat": "0.25"}),
        200,
    );
    assert_eq!(v3["ruleset"]["version"], json!(3));
    for n in 1..=3 {
        let r = get(&app, &t.path(&format!("/hands/{n}/rescore")));
        assert_eq!(r["reproduced"], json!(true), "hand {n}: {r}");
        assert_eq!(r["stored"], t.hand(n)["result"]);
    }
    assert_eq!(t.hand(1)["ruleset"]["version"], json!(1));
    assert_eq!(t.hand(3)["ruleset"]["version"], json!(2));
    t.start(None);
    let r4 = t.commit(4, &deal);
    assert_eq!(r4["ruleset"], json!("typical"));
    audit.refused("GET", &t.path("/hands/9/rescore"), "", None, &[404], &["9"]);
    audit.check();
}

// ---------------------------------------------------------------------------
// Jackpots: hits in settlement order, a void returns them; ofc fantasyland
// ---------------------------------------------------------------------------

#[test]
fn jackpot_hits_lock_in_settlement_order_and_a_void_returns_them() {
    each_backend(jackpot_hits);
}

fn jackpot_hits(backend: &str) {
    let app = spawn_app(backend);
    let mut audit = Audit::new(&app);
    let pool = create_pool(&app, "double", "500");
    audit.pool(pool);
    let t = Table::create(&app, "three", Some(pool), "hawaiian-gardens", "1", "0.50", "0.10");
    audit.table(&t);
    for seat in 1..=3 {
        t.seat(seat, &format!("P{seat}"), "300");
    }
    t.start(None);
    t.commit(1, &Showdown::deal(&DEAL_A, &[1, 2, 3], 0));
    assert_eq!(pool_balance(&app, pool), d("500.30"));

    // Hand 2 (button seat 2, pairs 2–3, 2–1, 3–1): seat 1 beats seats 2 and
    // 3 in every row, two triggers in settlement order: (2, 1) then (3, 1).
    let h = t.start(None);
    assert_eq!(h["dealer_seat"], json!(2));
    let r = t.commit(2, &Showdown::deal(&DEAL_DOUBLE_BEAT, &[1, 2, 3], 0));
    assert_eq!(
        r["jackpot_triggers"],
        json!([{"kind": "bad-beat", "loser": 2, "winner": 1}, {"kind": "bad-beat", "loser": 3, "winner": 1}])
    );
    let hand = t.hand(2);
    let hits = arr(&hand["jackpot_hits"]);
    assert_eq!(dec(&hits[0]["amount"]), d("500.60"), "the first hit locks the whole pool");
    assert_eq!(dec(&hits[1]["amount"]), d("500"), "the second gets the restarted pool");
    assert_eq!(pool_balance(&app, pool), d("500"));
    audit.check();

    // Voiding the hand reverses the locks and restarts: the pool is as before.
    t.void(2, "dealer exposed a card");
    assert_eq!(pool_balance(&app, pool), d("500.30"));
    audit.check();
    t.start(None);
    t.commit(3, &Showdown::deal(&DEAL_B, &[1, 2, 3], 2));
    audit.check();

    // A misdeal: an open hand voided moves no money, and play goes on.
    t.start(None);
    t.void(4, "misdeal");
    audit.refused(
        "POST",
        &t.path("/hands/4/commit"),
        &Showdown::deal(&DEAL_A, &[1, 2, 3], 0).json().to_string(),
        None,
        &[409],
        &["voided"],
    );
    t.start(None);
    t.commit(5, &Showdown::deal(&DEAL_A, &[1, 2, 3], 1));
    audit.check();
}

/// Voiding an earlier hand after its winner has lost the winnings again
/// must not leave a negative stack: the void is refused (4xx, nothing
/// written) or the books stay whole.
#[test]
fn voiding_an_earlier_hand_never_leaves_a_negative_stack() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let mut audit = Audit::new(&app);
        let t = Table::create(&app, "late void", None, "hawaiian-gardens", "1", "0.50", "0");
        audit.table(&t);
        t.seat(1, "Short", "10");
        t.seat(2, "B", "200");
        t.seat(3, "C", "200");
        // Hand 1: seat 1 (aces, kings, a straight flush) wins its whole exposure.
        t.start(None);
        let r1 = t.commit(1, &Showdown::deal(&DEAL_A, &[1, 2, 3], 0));
        let won = dec(&seat_of(&r1["seats"], 1)["net"]);
        assert!(won > Decimal::ZERO);
        // Hand 2: seat 1 fouls against a dragon and loses everything it has.
        t.start(None);
        let r2 = t.commit(2, &Showdown::deal(&DEAL_DRAGON, &[1, 2, 3], 2).foul(1));
        assert_eq!(dec(&seat_of(&r2["seats"], 1)["stack_end"]), Decimal::ZERO);
        audit.check();
        void_or_refuse(&mut audit, &t, 1);
    });
}

/// Voiding a hand after one of its players has cashed out must not leave
/// money on the books of a player who has left.
#[test]
fn voiding_a_hand_after_a_cash_out_strands_no_money() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let mut audit = Audit::new(&app);
        let t = Table::create(&app, "left", None, "hawaiian-gardens", "1", "0.50", "0");
        audit.table(&t);
        for seat in 1..=3 {
            t.seat(seat, &format!("P{seat}"), "100");
        }
        t.start(None);
        t.commit(1, &Showdown::deal(&DEAL_A, &[1, 2, 3], 0));
        t.cash_out(1);
        audit.check();
        void_or_refuse(&mut audit, &t, 1);
    });
}

fn void_or_refuse(audit: &mut Audit, t: &Table, number: i64) {
    let before = audit.world();
    let path = t.path(&format!("/hands/{number}/void"));
    let (status, answer) = request(audit.app, "POST", &path, r#"{"reason":"dispute","note":"late correction"}"#);
    if (400..500).contains(&status) {
        assert_error(&answer, &[], "a refused void");
        assert_eq!(audit.world(), before, "a refused void changed something");
    } else {
        assert_eq!(status, 200, "POST {path}: {answer}");
        audit.check();
    }
}

#[test]
fn ofc_fantasyland_is_carried_to_the_next_hand() {
    each_backend(fantasyland);
}

fn fantasyland(backend: &str) {
    let app = spawn_app(backend);
    let mut audit = Audit::new(&app);
    let t = Table::create(&app, "ofc", None, "ofc", "1", "0.50", "0");
    audit.table(&t);
    for seat in 1..=3 {
        t.seat(seat, &format!("P{seat}"), "500");
    }
    let h = t.start(None);
    assert!(arr(&h["seats"]).iter().all(|s| s["in_fantasyland"] == json!(false)));
    // Seat 1 sets aces in front, seat 2 queens: both qualify; seat 3 (jacks) does not.
    let r = t.commit(1, &Showdown::deal(&DEAL_A, &[1, 2, 3], 0));
    let next: Vec<bool> = arr(&r["seats"]).iter().map(|s| s["fantasyland_next"].as_bool().unwrap()).collect();
    assert_eq!(next, [true, true, false]);
    audit.check();
    // Seat 2's player leaves; a new player in seat 2 does not inherit it.
    t.cash_out(2);
    t.seat(2, "New", "500");
    let h = t.start(None);
    let fl: Vec<bool> = arr(&h["seats"]).iter().map(|s| s["in_fantasyland"].as_bool().unwrap()).collect();
    assert_eq!(fl, [true, false, false], "fantasyland carried to the same player only: {h}");
    // Seat 1 plays from fantasyland (the engine sees it) and does not stay.
    let r = t.commit(2, &Showdown::deal(&DEAL_A, &[1, 2, 3], 1));
    assert_eq!(seat_of(&r["seats"], 1)["fantasyland_next"], json!(false));
    let h = t.start(None);
    assert!(arr(&h["seats"]).iter().all(|s| s["in_fantasyland"] == json!(false)), "{h}");
    t.commit(3, &Showdown::deal(&DEAL_B, &[1, 2, 3], 3));
    audit.check();
}

// ---------------------------------------------------------------------------
// 5. Bad input: 4xx JSON naming the problem, nothing changed
// ---------------------------------------------------------------------------

/// A showdown body with one seat's field replaced.
fn with_seat(body: &Value, seat: i64, field: &str, value: Value) -> String {
    let mut b = body.clone();
    for s in b["seats"].as_array_mut().unwrap() {
        if s["seat"] == json!(seat) {
            s[field] = value.clone();
        }
    }
    b.to_string()
}

/// A pool, a table with players in seats 1 to 3 (seat 4 empty) and hand 1
/// open on them.
fn bad_input_table(app: &App) -> (Audit<'_>, Table<'_>, i64) {
    let mut audit = Audit::new(app);
    let pool = create_pool(app, "p", "500");
    audit.pool(pool);
    let t = Table::create(app, "bad", Some(pool), "hawaiian-gardens", "1", "0.50", "0.10");
    audit.table(&t);
    t.seat(1, "A", "100");
    t.seat(2, "B", "100");
    t.seat(3, "C", "100");
    t.start(None);
    audit.check();
    (audit, t, pool)
}

#[test]
fn bad_showdowns_are_refused_naming_the_problem_and_change_nothing() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let (mut audit, t, _) = bad_input_table(&app);
        let good = Showdown::deal(&DEAL_A, &[1, 2, 3], 0).json();
        // Preview and commit alike.
        for action in ["preview", "commit"] {
            let path = t.path(&format!("/hands/1/{action}"));
            let r = |body: &str, statuses: &[u16], needles: &[&str]| {
                audit.refused("POST", &path, body, None, statuses, needles);
            };
            // Seat 2's front takes seat 1's Ah.
            r(&with_seat(&good, 2, "front", json!("Ah Qh 3d")), &[422], &["Ah", "twice"]);
            r(&with_seat(&good, 1, "front", json!("Ah Ad 2c 3c")), &[422], &["seat 1", "front", "4 cards"]);
            r(&with_seat(&good, 3, "middle", json!("9d 9c 5c 5h")), &[422], &["seat 3", "middle"]);
            r(&with_seat(&good, 1, "back", json!("5s 6s 7s 8s Xx")), &[422], &["Xx"]);
            r(&with_seat(&good, 1, "back", json!("5s 6s 7s 8s 1s")), &[422], &["1s"]);
            r(&with_seat(&good, 2, "claim", json!("dragon")), &[422], &["seat 2", "dragon"]);
            r(&with_seat(&good, 2, "claim", json!("royal-straight")), &[422], &["royal-straight"]);
            let claimed: Value = serde_json::from_str(&with_seat(&good, 2, "claim", json!("best"))).unwrap();
            r(&with_seat(&claimed, 2, "surrender", json!(true)), &[422], &["seat 2"]);
            r(&with_seat(&good, 2, "cards", json!("2c 3d 4h 5s 6c 7d 8h 9s Tc Jc Qs Kd Ac")), &[422], &["seat 2"]);
            r(&with_seat(&good, 2, "stack", json!("1000")), &[422], &["stack"]);
            // Per-pair stakes are the floor's (on the ruleset), never a showdown's.
            let mut pairs = good.clone();
            pairs["pair_units"] = json!([{"seats": [1, 2], "unit": "10"}]);
            r(&pairs.to_string(), &[422], &["pair_units", "floor"]);
            // Seat 4 is not dealt in (there is nobody in it).
            let mut extra = good.clone();
            extra["seats"]
                .as_array_mut()
                .unwrap()
                .push(json!({"seat": 4, "cards": "2c 3d 4h 5s 6c 7d 8h 9s Tc Jc Qs Kd Ac", "surrender": true}));
            r(&extra.to_string(), &[422], &["seat 4", "not dealt in"]);
            // Seat 3 is dealt in but missing; seat 1 given twice.
            let mut missing = good.clone();
            missing["seats"].as_array_mut().unwrap().pop();
            r(&missing.to_string(), &[422], &["seat 3"]);
            let mut twice = good.clone();
            let first = twice["seats"][0].clone();
            twice["seats"].as_array_mut().unwrap().push(first);
            r(&twice.to_string(), &[422], &["seat 1"]);
            // Malformed JSON, unknown fields, wrong shapes, oversized.
            r(r#"{"seats": ["#, &[400, 422], &["body"]);
            r("not json at all", &[400, 422], &["body"]);
            let mut unknown = good.clone();
            unknown["colour"] = json!("red");
            r(&unknown.to_string(), &[422], &["colour"]);
            r("", &[422], &["seats"]);
            r("null", &[400, 422], &["body"]);
            r("[]", &[400, 422], &["body"]);
            r(r#"{"seats": []}"#, &[422], &["seat 1"]);
            r(&format!("{{\"seats\": [], \"pad\": \"{}\"}}", "x".repeat(70 * 1024)), &[413], &["larger than"]);
        }
        audit.check();
    });
}

#[test]
fn bad_money_and_configuration_are_refused_and_change_nothing() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let (mut audit, t, pool) = bad_input_table(&app);
        // Money: negative, malformed, three decimals, zero, too large.
        let seats = t.path("/seats");
        for (amount, needle) in [
            ("-5", "negative"),
            ("abc", "abc"),
            ("1.005", "decimal"),
            ("", "buy_in"),
            ("12,50", "12,50"),
            ("0", "buy_in"),
            ("100000000000000000000000", "buy_in"),
        ] {
            let body = json!({"seat": 4, "player": "D", "buy_in": amount}).to_string();
            audit.refused("POST", &seats, &body, None, &[422], &["buy_in", needle]);
        }
        audit.refused("POST", &seats, r#"{"seat": 4, "player": "D"}"#, None, &[422], &["buy_in"]);
        audit.refused(
            "POST",
            &seats,
            r#"{"seat": 4, "player": "D", "buy_in": "10", "vip": true}"#,
            None,
            &[422],
            &["vip"],
        );
        audit.refused("POST", &seats, r#"{"seat": 5, "player": "D", "buy_in": "10"}"#, None, &[422], &["seat 5"]);
        audit.refused("POST", &seats, r#"{"seat": 0, "player": "D", "buy_in": "10"}"#, None, &[422], &["seat 0"]);
        audit.refused("POST", &seats, r#"{"seat": 4, "player": "  ", "buy_in": "10"}"#, None, &[422], &["player"]);
        let long = json!({"seat": 4, "player": "x".repeat(81), "buy_in": "10"}).to_string();
        audit.refused("POST", &seats, &long, None, &[422], &["player"]);
        let huge = format!("{{\"seat\":4,\"player\":\"{}\",\"buy_in\":\"1\"}}", "y".repeat(100 * 1024));
        audit.refused("POST", &seats, &huge, None, &[413], &["larger than"]);
        for (amount, needle) in [("-1", "negative"), ("0.001", "decimal"), ("ten", "ten"), ("0", "amount")] {
            let body = json!({ "amount": amount }).to_string();
            audit.refused("POST", &t.path("/seats/1/add-on"), &body, None, &[422, 409], &[needle]);
        }
        audit.refused("POST", &t.path("/seats/1/add-on"), r#"{"amount": "10"}"#, None, &[409], &["between hands"]);

        // Tables and pools.
        let tables = "/api/v1/tables";
        let table = |over: Value| {
            let mut b = json!({"name": "T", "preset": "hawaiian-gardens", "unit": "1",
                               "rake_per_seat": "0.50", "jackpot_part": "0.10", "pool_id": pool});
            for (k, v) in over.as_object().unwrap() {
                b[k] = v.clone();
            }
            b.to_string()
        };
        for (over, needles) in [
            (json!({"preset": "texas-holdem"}), &["texas-holdem"][..]),
            (json!({"preset": "Simple"}), &["Simple"][..]),
            (json!({"unit": "-1"}), &["unit"][..]),
            (json!({"unit": "0.001"}), &["unit"][..]),
            (json!({"unit": "0"}), &["unit"][..]),
            (json!({"rake_per_seat": "0.505"}), &["rake_per_seat"][..]),
            (json!({"rake_per_seat": "x"}), &["rake_per_seat"][..]),
            (json!({"jackpot_part": "0.60"}), &["jackpot_part"][..]),
            (json!({"time_zone": "Mars/Olympus_Mons"}), &["time_zone"][..]),
            (json!({"gaming_day_cutoff": "25:61"}), &["gaming_day_cutoff"][..]),
            (json!({"seat_count": 9}), &["seat_count"][..]),
            (json!({"name": ""}), &["name"][..]),
        ] {
            audit.refused("POST", tables, &table(over), None, &[422], needles);
        }
        audit.refused("POST", tables, &table(json!({"pool_id": 999_999})), None, &[422, 404], &["999999"]);
        audit.refused("POST", tables, &table(json!({"name": "bad"})), None, &[409], &[]);
        audit.refused("POST", "/api/v1/pools", r#"{"name": "q", "seed": "-1"}"#, None, &[422], &["seed"]);
        audit.refused("POST", "/api/v1/pools", r#"{"name": "q", "seed": "1.234"}"#, None, &[422], &["seed"]);
        audit.refused("POST", "/api/v1/pools", r#"{"name": "q", "seed": "1", "x": 1}"#, None, &[422], &["x"]);
        audit.refused("POST", "/api/v1/pools", r#"{"name": "p", "seed": "1"}"#, None, &[409], &[]);
        expect(&app, "GET", &format!("/api/v1/pools/{}", pool + 1), &Value::Null, 404);
        audit.check();
    });
}

/// Unknown fields are refused naming them, also next to the flattened ruleset.
#[test]
fn an_unknown_table_field_is_refused() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let audit = Audit::new(&app);
        let body = r#"{"name":"T","preset":"simple","unit":"1","dealer":1}"#;
        audit.refused("POST", "/api/v1/tables", body, None, &[422], &["dealer"]);
    });
}

/// A wrongly typed field is a 422 that names the field (not only the
/// position in the body).
#[test]
fn a_wrongly_typed_field_is_named() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let (audit, t, _) = bad_input_table(&app);
        let good = Showdown::deal(&DEAL_A, &[1, 2, 3], 0).json();
        let mut failures = Vec::new();
        for (path, body, field) in [
            (t.path("/hands/1/preview"), with_seat(&good, 2, "seat", json!("two")), "seat"),
            (t.path("/hands/1/preview"), with_seat(&good, 2, "seat", json!(-2)), "seat"),
            (t.path("/hands/1/preview"), with_seat(&good, 2, "surrender", json!("yes")), "surrender"),
            (t.path("/seats"), r#"{"seat": 4, "player": "D", "buy_in": 100}"#.to_string(), "buy_in"),
            (t.path("/seats"), r#"{"seat": "4", "player": "D", "buy_in": "100"}"#.to_string(), "seat"),
            (t.path("/hands/1/void"), r#"{"reason": 7}"#.to_string(), "reason"),
        ] {
            let before = audit.world();
            let (status, answer) = request(&app, "POST", &path, &body);
            assert_eq!(status, 422, "POST {path} {body}: {answer}");
            assert_eq!(audit.world(), before);
            let message = answer["error"].as_str().unwrap_or_default();
            if !message.contains(field) {
                failures.push(format!("POST {path} {body}\n  -> {status} {message:?} does not name {field:?}"));
            }
        }
        let mut audit = audit;
        audit.check();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    });
}

#[test]
fn unknown_and_malformed_ids_are_404_json() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let (mut audit, t, _) = bad_input_table(&app);
        let good = Showdown::deal(&DEAL_A, &[1, 2, 3], 0).json().to_string();
        let tid = t.id;
        let commit = |table: &str| format!("/api/v1/tables/{table}/hands/1/commit");
        for (method, path, body) in [
            ("GET", "/api/v1/tables/999999".to_string(), ""),
            ("GET", "/api/v1/tables/999999/ledger".to_string(), ""),
            ("GET", "/api/v1/pools/999999".to_string(), ""),
            ("POST", "/api/v1/tables/999999/hands".to_string(), "{}"),
            ("POST", "/api/v1/tables/999999/seats".to_string(), r#"{"seat":1,"player":"X","buy_in":"1"}"#),
            ("POST", "/api/v1/tables/999999/seats/1/add-on".to_string(), r#"{"amount":"1"}"#),
            ("POST", "/api/v1/tables/999999/seats/1/cash-out".to_string(), ""),
            ("PUT", "/api/v1/tables/999999/ruleset".to_string(), r#"{"preset":"simple","unit":"1"}"#),
            ("GET", t.path("/hands/2"), ""),
            ("GET", t.path("/hands/0"), ""),
            ("GET", t.path("/hands/-1"), ""),
            ("POST", t.path("/hands/7/commit"), &good),
            ("POST", t.path("/hands/7/preview"), &good),
            ("POST", t.path("/hands/7/void"), r#"{"reason":"misdeal","note":"x"}"#),
            ("GET", t.path("/hands/7/rescore"), ""),
            ("POST", commit("999999"), &good),
            // Not numbers, or out of range.
            ("GET", "/api/v1/tables/abc".to_string(), ""),
            ("GET", "/api/v1/tables/abc/ledger".to_string(), ""),
            ("GET", "/api/v1/tables/1.5".to_string(), ""),
            ("GET", "/api/v1/tables/99999999999999999999999".to_string(), ""),
            ("GET", "/api/v1/tables/%20/ledger".to_string(), ""),
            ("GET", "/api/v1/pools/abc".to_string(), ""),
            ("GET", format!("/api/v1/tables/{tid}/hands/one"), ""),
            ("GET", format!("/api/v1/tables/{tid}/hands/99999999999/rescore"), ""),
            ("POST", format!("/api/v1/tables/{tid}/hands/x/commit"), &good),
            ("POST", commit("x"), &good),
            ("POST", format!("/api/v1/tables/{tid}/seats/first/add-on"), r#"{"amount":"1"}"#),
            ("POST", format!("/api/v1/tables/{tid}/seats/99999999999/cash-out"), ""),
            ("GET", "/api/v1/nothing/here".to_string(), ""),
        ] {
            audit.refused(method, &path, body, None, &[404], &[]);
        }
        audit.refused("DELETE", &t.path(""), "", None, &[405], &["DELETE"]);
        audit.refused("PUT", &t.path("/ledger"), "[]", None, &[405], &[]);
        audit.check();
    });
}

#[test]
fn hands_voids_and_seats_refuse_what_the_table_cannot_do() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let (mut audit, t, pool) = bad_input_table(&app);
        // While hand 1 is open: no second hand, no seating, no add-on.
        audit.refused("POST", &t.path("/hands"), "{}", None, &[409], &["hand 1"]);
        audit.refused(
            "POST",
            &t.path("/seats"),
            r#"{"seat": 4, "player": "D", "buy_in": "10"}"#,
            None,
            &[409],
            &["hand"],
        );
        // Voids need a reason.
        audit.refused("POST", &t.path("/hands/1/void"), "{}", None, &[422], &["reason"]);
        audit.refused("POST", &t.path("/hands/1/void"), r#"{"reason": "   ", "note": "n"}"#, None, &[422], &["reason"]);
        audit.refused(
            "POST",
            &t.path("/hands/1/void"),
            r#"{"reason": "whim", "note": "n"}"#,
            None,
            &[422],
            &["reason", "misdeal"],
        );
        audit.refused("POST", &t.path("/hands/1/void"), r#"{"reason": "misdeal"}"#, None, &[422], &["note"]);
        audit.refused(
            "POST",
            &t.path("/hands/1/void"),
            r#"{"reason": "misdeal", "note": " "}"#,
            None,
            &[422],
            &["note"],
        );
        audit.refused(
            "POST",
            &t.path("/hands/1/void"),
            r#"{"reason": "misdeal", "note": "n", "by": "me"}"#,
            None,
            &[422],
            &["by"],
        );
        t.commit(1, &Showdown::deal(&DEAL_A, &[1, 2, 3], 0));
        audit.refused("GET", &t.path("/hands/1/rescore/"), "", None, &[404], &[]);
        audit.check();

        // Starting hands: fewer than 2 funded seats, a stack below the rake, unknown or repeated seats.
        let t2 = Table::create(&app, "short", Some(pool), "hawaiian-gardens", "1", "0.50", "0.10");
        audit.table(&t2);
        let hands = t2.path("/hands");
        audit.refused("POST", &hands, "{}", None, &[422], &["at least 2"]);
        t2.seat(1, "Rich", "50");
        audit.refused("POST", &hands, "{}", None, &[422], &["at least 2"]);
        t2.seat(2, "Poor", "0.25");
        audit.refused("POST", &hands, "{}", None, &[422], &["at least 2"]);
        audit.refused("POST", &hands, r#"{"seats": [1, 2]}"#, None, &[422], &["seat 2", "rake"]);
        audit.refused("POST", &hands, r#"{"seats": [1]}"#, None, &[422], &["at least 2"]);
        audit.refused("POST", &hands, r#"{"seats": [1, 3]}"#, None, &[422], &["seat 3"]);
        audit.refused("POST", &hands, r#"{"seats": [1, 1]}"#, None, &[422], &["seat 1"]);
        audit.refused("POST", &hands, r#"{"dealer": 2}"#, None, &[422], &["dealer"]);
        // Seats: taken, empty.
        let taken = r#"{"seat": 1, "player": "D", "buy_in": "10"}"#;
        audit.refused("POST", &t2.path("/seats"), taken, None, &[409], &["seat 1", "taken"]);
        audit.refused("POST", &t2.path("/seats/3/add-on"), r#"{"amount":"1"}"#, None, &[404], &["seat 3"]);
        audit.refused("POST", &t2.path("/seats/4/cash-out"), "", None, &[404], &["seat 4"]);
        // A stack equal to the rake is dealt in with zero exposure and takes no part.
        t2.add_on(2, "0.25");
        let h = t2.start(None);
        assert_eq!(arr(&h["seats"]).len(), 2);
        let r = t2.commit(1, &Showdown::deal(&DEAL_A, &[1, 2], 0));
        assert_eq!(dec(&seat_of(&r["seats"], 2)["stack_end"]), Decimal::ZERO);
        for x in arr(&r["transactions"]) {
            if x["payer"] == json!(2) || x["payee"] == json!(2) {
                assert!(dec(&x["paid"]).is_zero(), "zero exposure pays and collects nothing: {x}");
            }
        }
        audit.check();
    });
}

/// A table whose ruleset takes a jackpot part but feeds no pool cannot
/// settle a hand (the contribution has nowhere to go): it must be refused
/// when the table is configured, not when a hand is committed.
#[test]
fn a_jackpot_part_without_a_pool_is_refused_up_front() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let mut failures = Vec::new();
        // At creation.
        let body =
            r#"{"name":"nopool","preset":"hawaiian-gardens","unit":"1","rake_per_seat":"0.50","jackpot_part":"0.10"}"#;
        let (status, answer) = request(&app, "POST", "/api/v1/tables", body);
        if status == 201 {
            let t = Table { app: &app, id: answer["id"].as_i64().unwrap(), pool: None };
            t.seat(1, "A", "100");
            t.seat(2, "B", "100");
            t.start(None);
            let sd = Showdown::deal(&DEAL_A, &[1, 2], 0).json().to_string();
            let (s, a) = request(&app, "POST", &t.path("/hands/1/commit"), &sd);
            failures.push(format!(
                "POST /api/v1/tables {body}\n  -> 201 (created); then POST {} -> {s} {a}",
                t.path("/hands/1/commit")
            ));
        } else {
            assert_eq!(status, 422, "{answer}");
            assert_error(&answer, &["pool"], "a jackpot part without a pool");
        }
        // By a ruleset change.
        let t = Table::create(&app, "nopool 2", None, "hawaiian-gardens", "1", "0.50", "0");
        let change = r#"{"preset":"hawaiian-gardens","unit":"1","rake_per_seat":"0.50","jackpot_part":"0.10"}"#;
        let (status, answer) = request(&app, "PUT", &t.path("/ruleset"), change);
        if status != 422 {
            failures.push(format!(
                "PUT {} {change}\n  -> {status} (version {})",
                t.path("/ruleset"),
                answer["ruleset"]["version"]
            ));
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    });
}

/// No input may produce a 500: amounts at the edge of the storable range
/// (i64::MAX cents is the largest amount the service accepts as a buy-in).
#[test]
fn no_500_on_extreme_amounts() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let max = "92233720368547758.07";
        let failures = std::cell::RefCell::new(Vec::new());
        let call = |method: &str, path: String, body: &str| -> u16 {
            let (status, answer) = request(&app, method, &path, body);
            if status >= 500 || answer["error"].is_null() && status >= 400 {
                failures.borrow_mut().push(format!("{method} {path} {body}\n  -> {status} {answer}"));
            }
            status
        };
        let t = Table::create(&app, "big", None, "hawaiian-gardens", "1", "0", "0");
        let seat = |s: i64| json!({"seat": s, "player": format!("Whale {s}"), "buy_in": max}).to_string();
        let over = json!({"seat": 3, "player": "X", "buy_in": "92233720368547758.08"}).to_string();
        assert_eq!(call("POST", t.path("/seats"), &over), 422, "one cent over the largest amount");
        call("POST", t.path("/seats"), &seat(1));
        // An add-on past the largest stack: refused, and nothing written.
        if call("POST", t.path("/seats/1/add-on"), r#"{"amount":"1"}"#) >= 400 {
            let ledger = get(&app, &t.path("/ledger"));
            if arr(&ledger).iter().any(|r| r["kind"] == json!("add_on")) {
                failures.borrow_mut().push("  the refused add-on was written to the ledger anyway".to_string());
            }
        }
        call("GET", t.path(""), "");
        call("GET", "/api/v1/tables".to_string(), "");
        // A settlement that takes a whale's stack past the largest amount.
        let t2 = Table::create(&app, "whales", None, "hawaiian-gardens", "1", "0", "0");
        call("POST", t2.path("/seats"), &seat(1));
        call("POST", t2.path("/seats"), &seat(2));
        if call("POST", t2.path("/hands"), "{}") == 201 {
            // A hand the service started with the stacks it accepted must be committable.
            let body = Showdown::deal(&DEAL_A, &[1, 2], 0).json().to_string();
            let (status, answer) = request(&app, "POST", &t2.path("/hands/1/commit"), &body);
            if status != 201 {
                failures.borrow_mut().push(format!(
                    "POST {} (stacks the service accepted as buy-ins)\n  -> {status} {answer}",
                    t2.path("/hands/1/commit")
                ));
            }
            call("GET", t2.path(""), "");
        }
        let failures = failures.into_inner();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        let mut audit = Audit::new(&app);
        audit.table(&t);
        audit.table(&t2);
        audit.check();
    });
}

// ---------------------------------------------------------------------------
// 6. Concurrency
// ---------------------------------------------------------------------------

#[test]
fn concurrent_commits_commit_once_and_tables_commit_in_parallel() {
    each_backend(concurrency);
}

/// Runs each request on its own thread, all released at once; answers in order.
fn race(app: &App, requests: &[(String, String, Option<String>)]) -> Vec<(u16, Value)> {
    let barrier = Barrier::new(requests.len());
    std::thread::scope(|s| {
        let handles: Vec<_> = requests
            .iter()
            .map(|(path, body, key)| {
                let barrier = &barrier;
                s.spawn(move || {
                    barrier.wait();
                    send(app, "POST", path, body, key.as_deref())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn concurrency(backend: &str) {
    let app = spawn_app(backend);
    let mut audit = Audit::new(&app);
    let pool = create_pool(&app, "shared", "1000");
    audit.pool(pool);
    let t = Table::create(&app, "race", Some(pool), "hawaiian-gardens", "1", "0.50", "0.10");
    audit.table(&t);
    for seat in 1..=4 {
        t.seat(seat, &format!("P{seat}"), "1000");
    }
    let all = [1, 2, 3, 4];
    let mut number = 0;
    for round in 0..4 {
        // Same showdown (with and without one key) from 2 and then 6 threads.
        for (threads, key) in [(2, Some("same")), (2, None), (6, None)] {
            t.start(None);
            number += 1;
            let body = Showdown::deal(&DEAL_A, &all, round).json().to_string();
            let path = t.path(&format!("/hands/{number}/commit"));
            let reqs: Vec<_> = (0..threads).map(|_| (path.clone(), body.clone(), key.map(str::to_string))).collect();
            let ledger0 = t.ledger();
            let answers = race(&app, &reqs);
            let mut statuses: Vec<u16> = answers.iter().map(|a| a.0).collect();
            statuses.sort_unstable();
            let mut want = vec![200; threads - 1];
            want.push(201);
            assert_eq!(statuses, want, "hand {number}: {answers:?}");
            let hand = t.hand(number);
            for (_, a) in &answers {
                assert_eq!(a["hand"], hand, "every answer is the one commit");
            }
            let rows = t.ledger().len() - ledger0.len();
            // A result per seat (each raked), the house's share, the pool's.
            assert_eq!(rows, 4 + 1 + 1, "hand {number}: one commit's rows");
            audit.check();
        }
        // Different showdowns at once: one wins, the other is a conflict.
        t.start(None);
        number += 1;
        let path = t.path(&format!("/hands/{number}/commit"));
        let bodies: Vec<String> =
            [round, round + 1].iter().map(|&r| Showdown::deal(&DEAL_B, &all, r).json().to_string()).collect();
        let reqs: Vec<_> = bodies.iter().map(|b| (path.clone(), b.clone(), None)).collect();
        let answers = race(&app, &reqs);
        let mut statuses: Vec<u16> = answers.iter().map(|a| a.0).collect();
        statuses.sort_unstable();
        assert_eq!(statuses, [201, 409], "hand {number}: {answers:?}");
        let winner = answers.iter().find(|a| a.0 == 201).unwrap();
        assert_eq!(winner.1["hand"], t.hand(number));
        assert_error(&answers.iter().find(|a| a.0 == 409).unwrap().1, &["already committed"], "the loser");
        audit.check();
    }

    // Two hands started at once: one starts, the other is a conflict.
    let answers = race(&app, &[(t.path("/hands"), "{}".into(), None), (t.path("/hands"), "{}".into(), None)]);
    let mut statuses: Vec<u16> = answers.iter().map(|a| a.0).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 409], "{answers:?}");
    number += 1;
    t.commit(number, &Showdown::deal(&DEAL_A, &all, 0));
    // Add-ons at once are all kept.
    let before = t.stack(2);
    let answers = race(&app, &vec![(t.path("/seats/2/add-on"), r#"{"amount":"1.25"}"#.to_string(), None); 5]);
    assert!(answers.iter().all(|a| a.0 == 200), "{answers:?}");
    assert_eq!(t.stack(2), before + d("6.25"));
    audit.check();

    // Seating races: one seat, several players at once: one sits, the rest are refused.
    let r = Table::create(&app, "seating race", None, "simple", "1", "0.50", "0");
    audit.table(&r);
    let body = |p: usize| format!(r#"{{"seat": 1, "player": "racer {p}", "buy_in": "50"}}"#);
    let answers = race(&app, &(0..4).map(|p| (r.path("/seats"), body(p), None)).collect::<Vec<_>>());
    let mut statuses: Vec<u16> = answers.iter().map(|a| a.0).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 409, 409, 409], "{answers:?}");
    assert_eq!(arr(&r.view()["seats"]).len(), 1);
    // Different seats at once: all sit.
    let body = |s: usize| format!(r#"{{"seat": {s}, "player": "P{s}", "buy_in": "50"}}"#);
    let answers = race(&app, &(2..=4).map(|s| (r.path("/seats"), body(s), None)).collect::<Vec<_>>());
    assert!(answers.iter().all(|a| a.0 == 201), "{answers:?}");
    // One cash-out twice at once: one pays out, the other finds nobody.
    let answers = race(&app, &vec![(r.path("/seats/2/cash-out"), String::new(), None); 2]);
    let mut statuses: Vec<u16> = answers.iter().map(|a| a.0).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 404], "{answers:?}");
    let cash_outs = r.ledger().iter().filter(|x| x["kind"] == json!("cash_out")).count();
    assert_eq!(cash_outs, 1);
    audit.check();

    // Several tables, one shared pool, committing at once: all succeed.
    let tables: Vec<Table> = (0..4)
        .map(|i| {
            let x = Table::create(&app, &format!("par {i}"), Some(pool), "hawaiian-gardens", "1", "0.50", "0.10");
            for seat in 1..=4 {
                x.seat(seat, &format!("T{i}P{seat}"), "500");
            }
            x
        })
        .collect();
    for x in &tables {
        audit.table(x);
    }
    for round in 1..=3 {
        let pool0 = pool_balance(&app, pool);
        for x in &tables {
            x.start(None);
        }
        let reqs: Vec<_> = tables
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let deal = if (i + round) % 2 == 0 { &DEAL_A } else { &DEAL_B };
                (
                    x.path(&format!("/hands/{round}/commit")),
                    Showdown::deal(deal, &all, i + round).json().to_string(),
                    Some(format!("t{i}r{round}")),
                )
            })
            .collect();
        let answers = race(&app, &reqs);
        for (i, (s, a)) in answers.iter().enumerate() {
            assert_eq!(*s, 201, "table {i} round {round}: {a}");
            assert_eq!(a["hand"], tables[i].hand(round as i64));
        }
        assert_eq!(pool_balance(&app, pool), pool0 + d("1.60"), "4 tables × 4 seats × 0.10");
        audit.check();
    }
}

/// Jackpot hits on several tables feeding one pool, committed at once: all
/// succeed; each hit takes the whole pool at its moment and the pool ends at
/// its seed; nothing is lost or made.
#[test]
fn concurrent_jackpot_hits_on_a_shared_pool_all_commit() {
    each_backend(concurrent_hits);
}

fn concurrent_hits(backend: &str) {
    let app = spawn_app(backend);
    let mut audit = Audit::new(&app);
    let pool = create_pool(&app, "shared", "1000");
    audit.pool(pool);
    let all = [1, 2, 3, 4];
    let tables: Vec<Table> = (0..4)
        .map(|i| {
            let x = Table::create(&app, &format!("hit {i}"), Some(pool), "hawaiian-gardens", "1", "0.50", "0.10");
            for seat in 1..=4 {
                x.seat(seat, &format!("T{i}P{seat}"), "500");
            }
            audit.table(&x);
            x
        })
        .collect();
    for round in 1..=3 {
        let pool0 = pool_balance(&app, pool);
        for x in &tables {
            x.start(None);
        }
        let reqs: Vec<_> = tables
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let body = Showdown::deal(&DEAL_BAD_BEAT, &all, i + round).json().to_string();
                (x.path(&format!("/hands/{round}/commit")), body, None)
            })
            .collect();
        let answers = race(&app, &reqs);
        let mut locked = Decimal::ZERO;
        for (i, (s, a)) in answers.iter().enumerate() {
            assert_eq!(*s, 201, "round {round}, table {i}: {a}");
            let hits = arr(&a["hand"]["jackpot_hits"]);
            assert_eq!(hits.len(), 1, "table {i}: {a}");
            assert!(dec(&hits[0]["amount"]) >= d("1000"));
            locked += dec(&hits[0]["amount"]);
        }
        assert_eq!(pool_balance(&app, pool), d("1000"));
        // Hits = pool before + contributions + the seeds of the 3 restarts that were hit again.
        assert_eq!(locked, pool0 + d("1.60") + d("3000"));
        audit.check();
    }
}

// ---------------------------------------------------------------------------
// The holes found from outside (issue 12)
// ---------------------------------------------------------------------------

mod holes;
