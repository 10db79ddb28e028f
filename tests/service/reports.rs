//! The accountant's reports through HTTP, on each backend: rake by gaming day
//! and table, jackpots, player sessions; as JSON, CSV (parsed back and
//! compared with the JSON), SVG and pages. Every total is checked against
//! sums computed here, independently, from the table ledgers the API serves.
//!
//! Hands are committed through the API; to put them on chosen gaming days the
//! test then moves their commit time (`showdowns.committed_at`, which the
//! rake report buckets by) directly in the test database, to one second
//! before and exactly at a table's cutoff, and rebuilds the daily rollups the
//! reports read from the ledger (as after an upgrade); that the rollups kept
//! at each commit equal that rebuild is checked here first, and after random
//! commits and voids in the service tests.

use std::collections::HashMap;
use std::str::FromStr;

use crate::support::{backends, expect, request, spawn_app, TestApp};
use chrono::{Duration, NaiveDate, NaiveDateTime, TimeZone, Utc};
use diesel::prelude::*;
use rust_decimal::Decimal;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// HTTP helpers
// ---------------------------------------------------------------------------

fn get(app: &TestApp, path: &str) -> Value {
    expect(app, "GET", path, &Value::Null, 200)
}

/// A raw GET: (status, lower-cased headers, body text), for CSV, SVG and HTML
/// (a body sent in chunks put together).
fn get_raw(app: &TestApp, path: &str) -> (u16, HashMap<String, String>, String) {
    let answer =
        crate::support::raw(app, "GET", path, &[("Authorization".to_string(), format!("Bearer {}", app.token))], "");
    (answer.status, answer.headers.into_iter().collect(), answer.body)
}

fn dec(v: &Value) -> Decimal {
    match v {
        Value::String(s) => Decimal::from_str(s).unwrap_or_else(|_| panic!("not money: {s:?}")),
        other => panic!("money should be a string: {other}"),
    }
}

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

/// Money as the reports write it: digits, a point, exactly two decimals.
fn assert_two_decimals(text: &str, what: &str) {
    let t = text.strip_prefix('-').unwrap_or(text);
    let (whole, cents) = t.split_once('.').unwrap_or_else(|| panic!("{what}: {text:?} has no decimals"));
    assert!(
        !whole.is_empty()
            && whole.chars().all(|c| c.is_ascii_digit())
            && cents.len() == 2
            && cents.chars().all(|c| c.is_ascii_digit()),
        "{what}: {text:?} is not money with two decimals"
    );
}

fn arr(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}"))
}

/// A 422 whose JSON error names `needle`.
fn assert_invalid(app: &TestApp, path: &str, needle: &str) {
    let (status, answer) = request(app, "GET", path, "");
    assert_eq!(status, 422, "{path}: {answer}");
    let message = answer["error"].as_str().unwrap_or_else(|| panic!("{path}: not a JSON error: {answer}"));
    assert!(message.contains(needle), "{path}: the error {message:?} does not name {needle:?}");
}

// ---------------------------------------------------------------------------
// Setup: one pool, two tables in different time zones, hands through the API
// ---------------------------------------------------------------------------

const DEAL_A: [(&str, &str, &str); 4] = [
    ("Ah Ad 2c", "Kh Kd Kc 3c 4d", "5s 6s 7s 8s 9s"),
    ("Qs Qh 3d", "Ts Th Td 5d 6d", "7h 8h 9h Jh 2h"),
    ("Js Jd 4c", "9d 9c 5c 5h 6c", "Ac Qc Tc 8c 7c"),
    ("As Ks Qd", "4s 4h 8d Jc 6h", "2s 2d 3s 3h 7d"),
];
/// Seat 1 loses every row to seat 2 with a straight flush: a bad-beat hit.
const DEAL_BAD_BEAT: [(&str, &str, &str); 4] = [
    ("3c 3d 4c", "2h 2d 2c 4h 5d", "5s 6s 7s 8s 9s"),
    ("As Ad 8c", "Ks Kd Kc 6h 7h", "Th Jh Qh Kh Ah"),
    ("Qs Qd 2s", "Ts Td Tc 3s 4s", "4d 6d 7d 8d 9d"),
    ("8h 9h Qc", "Js Jd Jc 3h 5h", "5c 6c 7c 9c Ac"),
];

fn showdown(deal: &[(&str, &str, &str)], seats: &[i64], rot: usize) -> Value {
    let seats: Vec<Value> = seats
        .iter()
        .enumerate()
        .map(|(i, &seat)| {
            let (front, middle, back) = deal[(i + rot) % seats.len()];
            json!({"seat": seat, "front": front, "middle": middle, "back": back})
        })
        .collect();
    json!({ "seats": seats })
}

struct Setup {
    pool: i64,
    la: i64,
    macau: i64,
    /// Hand ids by (table, number).
    hands: HashMap<(i64, i64), i64>,
}

/// A hawaiian-gardens table, unit 1, rake 0.50 a seat: 0.10 of it to
/// `pool`, or none without a pool.
fn create_table(app: &TestApp, name: &str, pool: Option<i64>, tz: &str, cutoff: &str) -> i64 {
    let t = expect(
        app,
        "POST",
        "/api/v1/tables",
        &json!({"name": name, "preset": "hawaiian-gardens", "unit": "1", "rake_per_seat": "0.50",
                "jackpot_part": if pool.is_some() { "0.10" } else { "0" }, "pool_id": pool, "time_zone": tz,
                "gaming_day_cutoff": cutoff}),
        201,
    );
    t["id"].as_i64().unwrap()
}

/// A jackpot pool "p" seeded with 10; its id.
fn new_pool(app: &TestApp) -> i64 {
    expect(app, "POST", "/api/v1/pools", &json!({"name": "p", "seed": "10"}), 201)["id"].as_i64().unwrap()
}

fn seat(app: &TestApp, table: i64, seat: i64, player: &str, buy_in: &str) {
    expect(
        app,
        "POST",
        &format!("/api/v1/tables/{table}/seats"),
        &json!({"seat": seat, "player": player, "buy_in": buy_in}),
        201,
    );
}

/// Starts and commits the next hand; its number and id.
fn play(app: &TestApp, table: i64, body: &Value) -> (i64, i64) {
    let hand = expect(app, "POST", &format!("/api/v1/tables/{table}/hands"), &json!({}), 201);
    let number = hand["number"].as_i64().unwrap();
    let answer = expect(app, "POST", &format!("/api/v1/tables/{table}/hands/{number}/commit"), body, 201);
    assert_eq!(answer["hand"]["status"], json!("committed"));
    (number, hand["id"].as_i64().unwrap())
}

fn setup(app: &TestApp) -> Setup {
    let pool = expect(app, "POST", "/api/v1/pools", &json!({"name": "Bad beat <main>", "seed": "100"}), 201)["id"]
        .as_i64()
        .unwrap();
    let la = create_table(app, "LA 1", Some(pool), "America/Los_Angeles", "06:00");
    let macau = create_table(app, "Macau \"A\", 1", Some(pool), "Asia/Macau", "04:30");
    let mut hands = HashMap::new();

    for (s, p) in [(1, "Alice"), (2, "Bob"), (3, "Carol"), (4, "Dave")] {
        seat(app, la, s, p, "200");
    }
    let all = [1, 2, 3, 4];
    for (deal, rot) in [(&DEAL_A, 0), (&DEAL_BAD_BEAT, 0), (&DEAL_A, 1), (&DEAL_BAD_BEAT, 0)] {
        let (number, id) = play(app, la, &showdown(deal, &all, rot));
        hands.insert((la, number), id);
    }
    // Hand 4 (a second bad beat) is voided: its rake, contribution and hit vanish.
    let voided = expect(
        app,
        "POST",
        &format!("/api/v1/tables/{la}/hands/4/void"),
        &json!({"reason": "misdeal", "note": "cards exposed"}),
        200,
    );
    assert_eq!(voided["status"], json!("voided"));
    expect(app, "POST", &format!("/api/v1/tables/{la}/seats/2/add-on"), &json!({"amount": "50.25"}), 200);

    for (s, p) in [(1, "Eve"), (2, "Frank"), (3, "Grace")] {
        seat(app, macau, s, p, "150");
    }
    for rot in [0, 1, 2] {
        let (number, id) = play(app, macau, &showdown(&DEAL_A[..3], &[1, 2, 3], rot));
        hands.insert((macau, number), id);
    }
    expect(app, "POST", &format!("/api/v1/tables/{macau}/seats/3/cash-out"), &Value::Null, 200);
    Setup { pool, la, macau, hands }
}

/// The UTC instant of a local time in `tz` (not in a DST gap).
fn utc_of(tz: &str, local: NaiveDateTime) -> NaiveDateTime {
    let tz: chrono_tz::Tz = tz.parse().unwrap();
    tz.from_local_datetime(&local).earliest().unwrap().naive_utc()
}

/// Moves a commit in time (the test's time machine): the database refuses
/// to change a committed showdown, so its guard is lifted for this one change.
fn move_commit(app: &TestApp, hand_id: i64, at: NaiveDateTime) {
    use diesel::connection::SimpleConnection;
    use pitboss::db::schema::showdowns;
    let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
    let (lift, restore) = if app.database_url.starts_with("postgres") {
        (
            "ALTER TABLE showdowns DISABLE TRIGGER showdowns_append_only",
            "ALTER TABLE showdowns ENABLE TRIGGER showdowns_append_only",
        )
    } else {
        (
            "DROP TRIGGER showdowns_no_update",
            "CREATE TRIGGER showdowns_no_update BEFORE UPDATE ON showdowns \
             BEGIN SELECT RAISE(ABORT, 'books: committed showdowns are append-only'); END;",
        )
    };
    conn.batch_execute(lift).unwrap();
    let n = diesel::update(showdowns::table.filter(showdowns::hand_id.eq(hand_id)))
        .set(showdowns::committed_at.eq(at))
        .execute(&mut conn)
        .unwrap();
    conn.batch_execute(restore).unwrap();
    assert_eq!(n, 1);
}

// ---------------------------------------------------------------------------
// Independent sums from the ledger
// ---------------------------------------------------------------------------

/// Ledger rows of a table, as the API shows them.
fn ledger(app: &TestApp, table: i64) -> Vec<Value> {
    crate::support::ledger_rows(app, table)
}

/// Sums of the ledger rows by the kind they count as (a reversal counts as
/// the kind of the row it reverses), over the rows `keep` selects.
fn sums_by_kind(rows: &[Value], keep: impl Fn(&Value) -> bool) -> HashMap<String, Decimal> {
    let kinds: HashMap<i64, String> =
        rows.iter().map(|r| (r["id"].as_i64().unwrap(), r["kind"].as_str().unwrap().to_string())).collect();
    let mut sums = HashMap::new();
    for r in rows.iter().filter(|r| keep(r)) {
        let kind = match r["kind"].as_str().unwrap() {
            "reversal" => kinds[&r["reverses_id"].as_i64().expect("a reversal names its row")].clone(),
            k => k.to_string(),
        };
        if kind == "hand_result" {
            // A seat's result of a hand: its rake (the row's `rake`, a
            // reversal's the negative) and its settlement net, the rest of
            // its amount; summed as the two rows a hand wrote before.
            let rake = dec(&r["rake"]);
            *sums.entry("rake".to_string()).or_insert(Decimal::ZERO) -= rake;
            *sums.entry("settlement".to_string()).or_insert(Decimal::ZERO) += dec(&r["amount"]) + rake;
            continue;
        }
        *sums.entry(kind).or_insert(Decimal::ZERO) += dec(&r["amount"]);
    }
    sums
}

fn sum(sums: &HashMap<String, Decimal>, kind: &str) -> Decimal {
    sums.get(kind).copied().unwrap_or(Decimal::ZERO)
}

// ---------------------------------------------------------------------------
// The scenario
// ---------------------------------------------------------------------------

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn reports(backend: &str) {
    let app = spawn_app(backend);
    let s = setup(&app);
    let today = Utc::now().date_naive();
    // A day well before today: LA hands 1 and 2 straddle its 06:00 cutoff
    // (05:59:59 is still the day before), Macau hand 1 is one second before
    // its 04:30 cutoff.
    let base = today - Duration::days(10);
    let t = |h: u32, m: u32, s: u32| base.and_hms_opt(h, m, s).unwrap();
    let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
    let kept = pitboss::db::rollups::kept(&mut conn).unwrap();
    assert_eq!(kept, pitboss::db::rollups::recompute(&mut conn).unwrap(), "the rollups kept at each change");
    assert!(!kept.table_days.is_empty() && !kept.pool_days.is_empty() && !kept.seatings.is_empty());
    move_commit(&app, s.hands[&(s.la, 1)], utc_of("America/Los_Angeles", t(5, 59, 59)));
    move_commit(&app, s.hands[&(s.la, 2)], utc_of("America/Los_Angeles", t(6, 0, 0)));
    move_commit(&app, s.hands[&(s.macau, 1)], utc_of("Asia/Macau", t(4, 29, 59)));
    conn.transaction(pitboss::db::rollups::rebuild).unwrap();
    let before = base - Duration::days(1);

    let la_rows = ledger(&app, s.la);
    let macau_rows = ledger(&app, s.macau);
    let hand_of = |r: &Value| r["hand_id"].as_i64();

    // ---- rake, per table and day ----
    let from = before - Duration::days(1);
    let to = today + Duration::days(1);
    let range = format!("from={from}&to={to}");
    let rake = get(&app, &format!("/reports/rake.json?{range}"));
    assert_eq!(rake["from"], json!(from.to_string()));
    assert_eq!(rake["to"], json!(to.to_string()));
    let rows = arr(&rake["rows"]);
    for r in rows {
        for k in ["rake", "house", "jackpot"] {
            assert_two_decimals(r[k].as_str().unwrap(), k);
        }
        assert_eq!(dec(&r["rake"]), dec(&r["house"]) + dec(&r["jackpot"]), "rake = house + jackpot: {r}");
    }
    let row = |table: i64, gaming_day: NaiveDate| {
        rows.iter()
            .find(|r| r["table_id"] == json!(table) && r["gaming_day"] == json!(gaming_day.to_string()))
            .unwrap_or_else(|| panic!("no row for table {table} on {gaming_day}: {rake}"))
    };
    // LA hand 1: 4 seats × 0.50 rake, 4 × 0.10 to the pool, the day before.
    let r = row(s.la, before);
    assert_eq!((r["hands"].as_i64(), dec(&r["rake"]), dec(&r["jackpot"])), (Some(1), d("2.00"), d("0.40")));
    assert_eq!(r["table"], json!("LA 1"));
    let r = row(s.la, base);
    assert_eq!((r["hands"].as_i64(), dec(&r["rake"]), dec(&r["house"])), (Some(1), d("2.00"), d("1.60")));
    let r = row(s.macau, before);
    assert_eq!((r["hands"].as_i64(), dec(&r["rake"]), dec(&r["jackpot"])), (Some(1), d("1.50"), d("0.30")));
    // Hands are committed, not voided: LA 3 (hand 4 voided), Macau 3.
    let hands_of = |table: i64| -> i64 {
        rows.iter().filter(|r| r["table_id"] == json!(table)).map(|r| r["hands"].as_i64().unwrap()).sum()
    };
    assert_eq!((hands_of(s.la), hands_of(s.macau)), (3, 3));
    assert_eq!(rake["totals"]["hands"], json!(6));

    // Totals reconcile with the ledgers: rake rows (negative on the seats),
    // house shares and contributions, net of the void's reversals.
    let mut want = [Decimal::ZERO; 3];
    for rows in [&la_rows, &macau_rows] {
        let sums = sums_by_kind(rows, |_| true);
        want[0] -= sum(&sums, "rake");
        want[1] += sum(&sums, "house_rake");
        want[2] += sum(&sums, "jackpot_contribution");
    }
    let totals = &rake["totals"];
    assert_eq!([dec(&totals["rake"]), dec(&totals["house"]), dec(&totals["jackpot"])], want, "{totals}");
    assert_eq!(want[0], d("6.00") + d("4.50"), "3 LA hands × 4 seats + 3 Macau hands × 3 seats, × 0.50");
    assert_eq!(dec(&totals["rake"]), dec(&totals["house"]) + dec(&totals["jackpot"]));
    let column = |k: &str| rows.iter().map(|r| dec(&r[k])).sum::<Decimal>();
    assert_eq!(column("rake"), dec(&totals["rake"]), "the rows add up to the totals");
    // One day entry per gaming day of the range, adding up to the totals.
    let days = arr(&rake["days"]);
    assert_eq!(days.len() as i64, (to - from).num_days() + 1);
    assert_eq!(days.iter().map(|d| dec(&d["rake"])).sum::<Decimal>(), dec(&totals["rake"]));

    // Only the day before: LA hand 1 and Macau hand 1; one table: only its rows.
    let one = get(&app, &format!("/reports/rake.json?from={before}&to={before}"));
    assert_eq!((one["totals"]["hands"].as_i64(), dec(&one["totals"]["rake"])), (Some(2), d("3.50")));
    let la_only = get(&app, &format!("/reports/rake.json?{range}&table={}", s.la));
    assert!(arr(&la_only["rows"]).iter().all(|r| r["table_id"] == json!(s.la)));
    let la_sums = sums_by_kind(&la_rows, |_| true);
    assert_eq!(dec(&la_only["totals"]["rake"]), -sum(&la_sums, "rake"));
    // The voided hand's rows are in the ledger and net to nothing.
    let voided = sums_by_kind(&la_rows, |r| hand_of(r) == Some(s.hands[&(s.la, 4)]));
    assert!(voided.values().all(|v| v.is_zero()), "{voided:?}");

    // CSV: the same rows and totals, money with two decimals.
    let (status, headers, body) = get_raw(&app, &format!("/reports/rake.csv?{range}"));
    assert_eq!(status, 200, "{body}");
    assert_eq!(headers["content-type"], "text/csv; charset=utf-8");
    assert_eq!(headers["content-disposition"], format!("attachment; filename=\"rake-{from}-{to}.csv\""));
    let body = body.strip_prefix('\u{feff}').expect("a report CSV begins with the BOM");
    let mut reader = csv::ReaderBuilder::new().from_reader(body.as_bytes());
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        ["Gaming day", "Table", "Hands", "Rake", "House", "Jackpot", "Day"]
    );
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), rows.len() + 1, "a row per JSON row and a totals row");
    for (rec, r) in records.iter().zip(rows) {
        let fields = ["gaming_day", "table", "hands", "rake", "house", "jackpot", "day_status"].map(|k| match &r[k] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        assert_eq!(rec.iter().collect::<Vec<_>>(), fields, "CSV row equals the JSON row");
    }
    let total = records.last().unwrap();
    assert_eq!(&total[0], "Total");
    assert_eq!(total[2], totals["hands"].to_string());
    for (i, k) in [(3, "rake"), (4, "house"), (5, "jackpot")] {
        assert_two_decimals(&total[i], k);
        assert_eq!(total[i], *totals[k].as_str().unwrap());
    }
    assert!(body.contains("\"Macau \"\"A\"\", 1\""), "RFC 4180 quoting of a name with quotes and a comma");

    // SVG: one bar per gaming day.
    let (status, headers, svg) = get_raw(&app, &format!("/reports/rake.svg?{range}"));
    assert_eq!(status, 200);
    assert!(headers["content-type"].starts_with("image/svg+xml"));
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=") && svg.ends_with("</svg>"));
    assert!(svg.contains("<title id=\"rake-chart-title\">Rake per gaming day"));
    assert_eq!(svg.matches("class=\"bar\"").count(), days.len());
    assert_eq!(svg.matches("<svg").count(), 1);
    assert_eq!(svg.matches("<title").count(), svg.matches("</title>").count());
    assert!(svg.contains(&format!("{before}: 3.50")), "the day before's bar");

    // ---- jackpots ----
    let jp = get(&app, &format!("/reports/jackpots.json?{range}"));
    let pools = arr(&jp["pools"]);
    assert_eq!(pools.len(), 1);
    let p = &pools[0];
    assert_eq!(p["pool"], json!("Bad beat <main>"));
    let pool_rows: Vec<Value> =
        la_rows.iter().chain(&macau_rows).filter(|r| r["pool_id"] == json!(s.pool)).cloned().collect();
    let ps = sums_by_kind(&pool_rows, |_| true);
    assert_eq!(dec(&p["opening"]), Decimal::ZERO, "the range starts before the pool");
    assert_eq!(dec(&p["seeds"]), d("100") + sum(&ps, "pool_seed"), "the first seed and one restart");
    assert_eq!(dec(&p["seeds"]), d("200"));
    assert_eq!(dec(&p["contributions"]), sum(&ps, "jackpot_contribution"));
    assert_eq!(dec(&p["contributions"]), d("1.20") + d("0.90"));
    assert_eq!(dec(&p["locked"]), -sum(&ps, "jackpot_lock"));
    assert_eq!(dec(&p["locked"]), d("100.80"), "the seed and hands 1 and 2 (hand 4's hit was voided)");
    assert_eq!((dec(&p["returned"]), dec(&p["other"]), dec(&p["paid_out"])), (d("0"), d("0"), d("0")));
    let balance = dec(&get(&app, &format!("/api/v1/pools/{}", s.pool))["balance"]);
    assert_eq!(dec(&p["closing"]), balance, "the closing balance is the pool's balance");
    assert_eq!(
        dec(&p["closing"]),
        dec(&p["opening"]) + dec(&p["seeds"]) + dec(&p["contributions"]) - dec(&p["locked"]) + dec(&p["returned"])
    );
    assert_eq!(jp["totals"]["closing"], p["closing"]);
    for k in ["opening", "seeds", "contributions", "locked", "returned", "paid_out", "closing"] {
        assert_two_decimals(p[k].as_str().unwrap(), k);
    }
    let hits = arr(&jp["hits"]);
    assert_eq!(hits.len(), 2, "{jp}");
    let status_of = |hand: i64| hits.iter().find(|h| h["hand"] == json!(hand)).unwrap()["status"].clone();
    assert_eq!((status_of(2), status_of(4)), (json!("pending"), json!("voided")));
    assert!(hits.iter().all(|h| h["table_id"] == json!(s.la) && h["loser_seat"] == json!(1)));
    assert_eq!(dec(&hits[0]["amount"]), d("100.80"));
    // A day after every row: everything is in the opening balance. (Not the
    // range's last day: from 20:30 UTC the Macau table's gaming day (04:30
    // cutoff, UTC+8) is already tomorrow's date, so its rows fall on `to`.)
    let after = to + Duration::days(1);
    let later = get(&app, &format!("/reports/jackpots.json?from={after}&to={after}"));
    assert_eq!(later["pools"][0]["opening"], p["closing"]);
    assert_eq!(later["pools"][0]["closing"], p["closing"]);
    assert_eq!(later["hits"], json!([]));

    let (status, headers, body) = get_raw(&app, &format!("/reports/jackpots.csv?{range}"));
    assert_eq!(status, 200, "{body}");
    assert_eq!(headers["content-disposition"], format!("attachment; filename=\"jackpots-{from}-{to}.csv\""));
    let body = body.strip_prefix('\u{feff}').expect("a report CSV begins with the BOM");
    let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(body.as_bytes());
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(&records[0][0], "Pool");
    assert_eq!(&records[1][0], "Bad beat <main>");
    assert_eq!(&records[1][4], &format!("-{}", p["locked"].as_str().unwrap()), "locked: taken out, as on the page");
    assert_eq!(&records[1][7], p["closing"].as_str().unwrap());
    assert_eq!(&records[2][0], "Total");
    assert_eq!(records.len(), 3, "the pools only: the hits have a file of their own");
    let (status, headers, body) = get_raw(&app, &format!("/reports/jackpot-hits.csv?{range}"));
    assert_eq!(status, 200, "{body}");
    assert_eq!(headers["content-disposition"], format!("attachment; filename=\"jackpot-hits-{from}-{to}.csv\""));
    let body = body.strip_prefix('\u{feff}').expect("a report CSV begins with the BOM");
    let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(body.as_bytes());
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(&records[0][0], "Hit");
    assert_eq!(records.len(), 1 + hits.len() + 1);
    assert_eq!(&records[1][11], hits[0]["status"].as_str().unwrap());
    assert_eq!(&records.last().unwrap()[9], "201.60", "two hits of 100.80");

    let (status, headers, svg) = get_raw(&app, &format!("/reports/jackpots.svg?{range}"));
    assert_eq!(status, 200);
    assert!(headers["content-type"].starts_with("image/svg+xml"));
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
    assert_eq!(svg.matches("class=\"series\"").count(), 1);
    assert!(svg.contains("Bad beat &lt;main&gt;") && !svg.contains("<main>"), "escaped pool name");

    // ---- sessions ----
    let sessions = get(&app, &format!("/reports/sessions.json?{range}"));
    let list = arr(&sessions["sessions"]);
    assert_eq!(list.len(), 7);
    let mut totals = [Decimal::ZERO; 4];
    for session in list {
        let seating = session["seating_id"].clone();
        let rows: Vec<Value> =
            la_rows.iter().chain(&macau_rows).filter(|r| r["seating_id"] == seating).cloned().collect();
        let k = sums_by_kind(&rows, |_| true);
        let stack: Decimal = rows.iter().map(|r| dec(&r["amount"])).sum();
        assert_eq!(dec(&session["buy_in"]), sum(&k, "buy_in"), "{session}");
        assert_eq!(dec(&session["add_ons"]), sum(&k, "add_on"), "{session}");
        assert_eq!(dec(&session["cash_out"]), -sum(&k, "cash_out"), "{session}");
        assert_eq!(dec(&session["rake"]), -sum(&k, "rake"), "{session}");
        assert_eq!(dec(&session["stack"]), stack, "{session}");
        // The net is what the hands did to the stack: settlement and rake.
        assert_eq!(dec(&session["net"]), sum(&k, "settlement") + sum(&k, "rake"), "{session}");
        assert_eq!(
            dec(&session["net"]),
            dec(&session["cash_out"]) + dec(&session["stack"]) - dec(&session["buy_in"]) - dec(&session["add_ons"])
        );
        totals[0] += dec(&session["buy_in"]);
        totals[1] += dec(&session["add_ons"]);
        totals[2] += dec(&session["cash_out"]);
        totals[3] += dec(&session["net"]);
        for k in ["buy_in", "add_ons", "cash_out", "rake", "jackpot_payouts", "stack", "net"] {
            assert_two_decimals(session[k].as_str().unwrap(), k);
        }
    }
    let st = &sessions["totals"];
    assert_eq!([dec(&st["buy_in"]), dec(&st["add_ons"]), dec(&st["cash_out"]), dec(&st["net"])], totals);
    assert_eq!((dec(&st["buy_in"]), dec(&st["add_ons"])), (d("1250"), d("50.25")));
    let grace = list.iter().find(|x| x["player"] == json!("Grace")).unwrap();
    assert_eq!(grace["status"], json!("cashed out"));
    assert_eq!(dec(&grace["stack"]), Decimal::ZERO);
    // Everyone's net plus the rake is zero: the players' money only moved
    // between them and to the rake.
    assert_eq!(dec(&st["net"]) + dec(&st["rake"]), Decimal::ZERO);
    assert_eq!(
        dec(&st["rake"]),
        -sum(&sums_by_kind(&la_rows, |_| true), "rake") - sum(&sums_by_kind(&macau_rows, |_| true), "rake")
    );

    let (status, _, body) = get_raw(&app, &format!("/reports/sessions.csv?{range}"));
    assert_eq!(status, 200);
    let body = body.strip_prefix('\u{feff}').expect("a report CSV begins with the BOM");
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), list.len() + 1);
    for (rec, session) in records.iter().zip(list) {
        for (i, name) in header.iter().enumerate() {
            let key = match name.as_str() {
                "Seated (UTC)" => "seated_at",
                "Gaming day" => "gaming_day",
                "Table" => "table",
                "Seat" => "seat",
                "Player" => "player",
                "Status" => "status",
                "Buy-in" => "buy_in",
                "Add-ons" => "add_ons",
                "Cash-out" => "cash_out",
                "Stack" => "stack",
                "Rake" => "rake",
                "Jackpot" => "jackpot_payouts",
                "Net" => "net",
                other => panic!("sessions CSV column {other:?}"),
            };
            let want = match key {
                "seated_at" => session["seated_at"].as_str().unwrap().replace('T', " ")[..16].to_string(),
                other => match &session[other] {
                    Value::String(s) => s.clone(),
                    v => v.to_string(),
                },
            };
            assert_eq!(rec[i], want, "sessions CSV column {name}");
        }
    }
    let total = records.last().unwrap();
    assert_eq!(&total[0], "Total");
    let net_at = header.iter().position(|h| h == "Net").unwrap();
    assert_eq!(&total[net_at], st["net"].as_str().unwrap());

    // ---- the sessions a page at a time ----
    // In order of gaming day, table and seating; every page carries the
    // totals of the whole range.
    let key =
        |s: &Value| (s["gaming_day"].as_str().unwrap().to_string(), s["table_id"].as_i64(), s["seating_id"].as_i64());
    assert!(list.windows(2).all(|w| key(&w[0]) < key(&w[1])), "sessions by day, table and seating");
    let ids: Vec<i64> = list.iter().map(|s| s["seating_id"].as_i64().unwrap()).collect();
    let page_ids = |page: &Value| -> Vec<i64> {
        arr(&page["sessions"]).iter().map(|s| s["seating_id"].as_i64().unwrap()).collect()
    };
    let (mut walked, mut after, mut pages) = (Vec::new(), None::<i64>, 0);
    loop {
        let cursor = after.map(|a| format!("&after={a}")).unwrap_or_default();
        let page = get(&app, &format!("/reports/sessions.json?{range}&limit=3{cursor}"));
        assert_eq!(page["totals"], sessions["totals"], "a page's totals are the range's");
        assert_eq!(page["limit"], 3);
        assert_eq!(page["previous"].as_i64(), if pages == 0 { None } else { page_ids(&page).first().copied() });
        assert!(arr(&page["sessions"]).len() <= 3);
        walked.extend(arr(&page["sessions"]).iter().cloned());
        pages += 1;
        match page["next"].as_i64() {
            Some(n) => {
                assert_eq!(Some(n), page_ids(&page).last().copied());
                after = Some(n);
            }
            None => break,
        }
    }
    assert_eq!((pages, &walked), (3, list), "7 sessions: pages of 3, 3 and 1, the same rows");
    // Back from the last session: the three before it, then the first three.
    let back = get(&app, &format!("/reports/sessions.json?{range}&limit=3&before={}", ids[6]));
    assert_eq!(page_ids(&back), ids[3..6]);
    assert_eq!((back["previous"].as_i64(), back["next"].as_i64()), (Some(ids[3]), Some(ids[5])));
    let first = get(&app, &format!("/reports/sessions.json?{range}&limit=3&before={}", ids[3]));
    assert_eq!(page_ids(&first), ids[0..3]);
    assert_eq!((first["previous"].as_i64(), first["next"].as_i64()), (None, Some(ids[2])));
    // One table's sessions, paged within the table.
    let macau_list = get(&app, &format!("/reports/sessions.json?{range}&table={}&limit=1", s.macau));
    let macau_ids: Vec<i64> =
        list.iter().filter(|x| x["table_id"] == s.macau).map(|s| s["seating_id"].as_i64().unwrap()).collect();
    assert_eq!(page_ids(&macau_list), macau_ids[..1]);
    assert_eq!(macau_list["totals"]["sessions"], macau_ids.len());
    // The page links to the pages beside it and says what it shows.
    let (_, _, html) = get_raw(&app, &format!("/reports/sessions?{range}&limit=3&after={}", ids[2]));
    let html = html.replace("&#38;", "&amp;");
    assert!(html.contains(&format!("&amp;before={}&amp;limit=3", ids[3])), "a link to the earlier page: {html}");
    assert!(html.contains(&format!("&amp;after={}&amp;limit=3", ids[5])), "a link to the later page");
    assert!(html.contains("3 of 7 sessions shown"), "{html}");

    // ---- pages ----
    for page in ["/reports", "/reports/rake", "/reports/jackpots", "/reports/sessions"] {
        let (status, headers, html) = get_raw(&app, &format!("{page}?{range}"));
        assert_eq!(status, 200, "{page}: {html}");
        assert!(headers["content-type"].starts_with("text/html"), "{page}");
        assert!(html.contains("<form") && html.contains(&format!("value=\"{from}\"")), "{page} keeps the range");
        assert!(!html.contains("Bad beat <main>"), "{page}: names are escaped");
    }
    let (_, _, html) = get_raw(&app, &format!("/reports/rake?{range}"));
    assert!(html.contains("<svg") && html.contains("LA 1") && html.contains("10.50"));
    let (_, _, html) = get_raw(&app, &format!("/reports/jackpots?{range}"));
    assert!(html.contains("<svg") && html.contains("100.80") && html.contains("voided"));

    // ---- the default range: the last 7 gaming days ----
    let default = get(&app, "/reports/rake.json");
    let (dfrom, dto) = (day(default["from"].as_str().unwrap()), day(default["to"].as_str().unwrap()));
    assert_eq!((dto - dfrom).num_days(), 6);
    assert!(dto == today || dto == today + Duration::days(1) || dto == today - Duration::days(1));
}

#[test]
fn reports_reconcile_with_the_ledger() {
    for backend in backends() {
        reports(backend);
    }
}

#[test]
fn bad_parameters_are_422_naming_them() {
    let app = spawn_app("sqlite");
    let pool = new_pool(&app);
    create_table(&app, "t", Some(pool), "UTC", "06:00");
    for report in ["rake", "jackpots", "sessions"] {
        for ext in ["json", "csv"] {
            let path = format!("/reports/{report}.{ext}");
            assert_invalid(&app, &format!("{path}?from=2026-13-01"), "from");
            assert_invalid(&app, &format!("{path}?from=yesterday"), "from");
            assert_invalid(&app, &format!("{path}?to=2026-11-31"), "to");
            assert_invalid(&app, &format!("{path}?from=2026-11-21&to=2026-11-20"), "from 2026-11-21 is after to");
            assert_invalid(&app, &format!("{path}?from=2025-11-01&to=2026-11-21"), "at most 366");
            assert_invalid(&app, &format!("{path}?table=999"), "table 999");
            assert_invalid(&app, &format!("{path}?table=one"), "table");
            assert_invalid(&app, &format!("{path}?form=2026-11-01"), "form");
        }
    }
    assert_invalid(&app, "/reports/rake.svg?to=nope", "to");
    // Dates chrono would read, but no gaming day: a year of more or fewer
    // than four digits (a day added to the last one chrono holds panics),
    // or a day or month without its leading zero.
    for (path, field) in [
        ("/reports/sessions.json?to=-262143-01-03", "to"),
        ("/reports/jackpots.json?from=%2B262142-12-31&to=%2B262142-12-31", "from"),
        ("/reports/rake.csv?from=10000-01-01", "from"),
        ("/reports/rake.svg?to=0999-12-31", "to"),
        ("/reports/rake.json?from=2026-1-05", "from"),
        ("/exceptions.csv?from=-262143-01-01&to=-262143-01-01", "from"),
        ("/api/v1/exceptions?from=%2B262142-12-31&to=%2B262142-12-31", "from"),
        ("/api/v1/gaming-days?to=%2B262142-12-31", "to"),
        ("/api/v1/gaming-days/-262143-01-01", "date"),
    ] {
        let (status, answer) = request(&app, "GET", path, "");
        assert_eq!((status, answer["code"].as_str()), (422, Some("bad_date")), "{path}: {answer}");
        assert_eq!(answer["field"].as_str(), Some(field), "{path}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains("years 1900 to 9999"), "{path}: {answer}");
    }
    // The sessions report's pages: after or before a session, at most 1000 rows.
    for bad in ["limit=0", "limit=1001", "limit=ten", "after=abc", "after=0", "before=-3"] {
        let name = bad.split('=').next().unwrap();
        assert_invalid(&app, &format!("/reports/sessions.json?{bad}"), name);
    }
    assert_invalid(&app, "/reports/sessions.json?after=1&before=2", "not both");
    assert_invalid(&app, "/reports/sessions.json?after=999999", "after 999999: there is no such session");
    // The other reports and the sessions file are not paged.
    assert_invalid(&app, "/reports/rake.json?after=1", "not paged");
    assert_invalid(&app, "/reports/jackpots.csv?limit=5", "not paged");
    assert_invalid(&app, "/reports/sessions.csv?limit=5", "not paged");
    let (status, _, html) = get_raw(&app, "/reports?after=3");
    assert_eq!(status, 422);
    assert!(html.contains("not paged") && html.contains("<form"), "{html}");
    // 366 gaming days is allowed.
    get(&app, "/reports/rake.json?from=2025-11-21&to=2026-11-21");
    // Pages answer 422 too, with the problem in words and the form.
    let (status, headers, html) = get_raw(&app, "/reports/rake?from=2026-02-30");
    assert_eq!(status, 422);
    assert!(headers["content-type"].starts_with("text/html"));
    assert!(html.contains("2026-02-30") && html.contains("is not a date YYYY-MM-DD"), "{html}");
    assert!(html.contains("<form"));
    let (status, _, _) = get_raw(&app, "/reports/nothing");
    assert_eq!(status, 404);
}

/// The rows the jackpot sign-offs write (`jackpot_payout` on seatings,
/// `jackpot_return` on the pool, both naming the hit), made through the
/// sign-off API: one hit approved and verified by two people, one rejected.
fn payouts_and_returns(backend: &str) {
    let app = spawn_app(backend);
    let pool = expect(&app, "POST", "/api/v1/pools", &json!({"name": "p", "seed": "100"}), 201)["id"].as_i64().unwrap();
    let table = create_table(&app, "t", Some(pool), "Europe/London", "06:00");
    for (s, p) in [(1, "Ann"), (2, "Ben"), (3, "Cat"), (4, "Dan")] {
        seat(&app, table, s, p, "200");
    }
    let all = [1, 2, 3, 4];
    play(&app, table, &showdown(&DEAL_BAD_BEAT, &all, 0));
    play(&app, table, &showdown(&DEAL_BAD_BEAT, &all, 0));
    let hit = |n: i64| get(&app, &format!("/api/v1/tables/{table}/hands/{n}"))["jackpot_hits"][0].clone();
    let (paid_hit, rejected_hit) = (hit(1), hit(2));
    let paid_amount = dec(&paid_hit["amount"]);
    assert_eq!(paid_amount, d("100.40"));
    // Sign-offs are people's: signed in, not tokens.
    let floor = app.person("fl", &["floor"], &[]);
    let admin = app.person("ad", &["admin"], &[]);
    let (a, v) = (paid_hit["id"].as_i64().unwrap(), rejected_hit["id"].as_i64().unwrap());
    expect(&floor, "POST", &format!("/api/v1/jackpots/{a}/approve"), &json!({}), 200);
    expect(&admin, "POST", &format!("/api/v1/jackpots/{a}/verify"), &json!({}), 200);
    expect(&floor, "POST", &format!("/api/v1/jackpots/{v}/reject"), &json!({"reason": "not a bad beat"}), 200);
    let rejected = dec(&rejected_hit["amount"]);

    let today = Utc::now().date_naive();
    let range = format!("from={}&to={}", today - Duration::days(1), today + Duration::days(1));
    let jp = get(&app, &format!("/reports/jackpots.json?{range}"));
    let p = &jp["pools"][0];
    assert_eq!(dec(&p["paid_out"]), paid_amount);
    assert_eq!(dec(&p["returned"]), rejected);
    assert_eq!(dec(&p["closing"]), dec(&get(&app, &format!("/api/v1/pools/{pool}"))["balance"]));
    assert_eq!(
        dec(&p["closing"]),
        dec(&p["opening"]) + dec(&p["seeds"]) + dec(&p["contributions"]) - dec(&p["locked"]) + dec(&p["returned"])
    );
    let hits = arr(&jp["hits"]);
    assert_eq!((hits[0]["status"].as_str(), dec(&hits[0]["paid"])), (Some("paid"), paid_amount));
    assert_eq!((hits[1]["status"].as_str(), dec(&hits[1]["paid"])), (Some("rejected"), Decimal::ZERO));

    let sessions = get(&app, &format!("/reports/sessions.json?{range}"));
    let list = arr(&sessions["sessions"]);
    let rows = ledger(&app, table);
    for session in list {
        let mine: Vec<Value> = rows.iter().filter(|r| r["seating_id"] == session["seating_id"]).cloned().collect();
        let k = sums_by_kind(&mine, |_| true);
        assert_eq!(dec(&session["jackpot_payouts"]), sum(&k, "jackpot_payout"));
        assert_eq!(dec(&session["net"]), sum(&k, "settlement") + sum(&k, "rake") + sum(&k, "jackpot_payout"));
    }
    assert_eq!(dec(&sessions["totals"]["jackpot_payouts"]), paid_amount);
}

#[test]
fn jackpot_payouts_and_returns_by_kind() {
    for backend in backends() {
        payouts_and_returns(backend);
    }
}

/// A database from before the daily rollups (books, no rollup): the first
/// process to open it builds them from the ledger, and the reports read the
/// same as from the rollups kept hand by hand.
#[test]
fn rollups_are_built_for_a_database_from_before_them() {
    for backend in backends() {
        let app = spawn_app(backend);
        setup(&app);
        let today = format!("to={}", Utc::now().date_naive() + Duration::days(1));
        let before = ["rake", "jackpots", "sessions"].map(|r| get(&app, &format!("/reports/{r}.json?{today}")));
        let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
        use diesel::connection::SimpleConnection;
        conn.batch_execute("DELETE FROM table_days; DELETE FROM pool_days; DELETE FROM seating_totals;").unwrap();
        assert_ne!(get(&app, &format!("/reports/rake.json?{today}")), before[0], "the reports read the rollups");
        drop(pitboss::db::connect(&app.database_url, 1).expect("the database opens again"));
        let after = ["rake", "jackpots", "sessions"].map(|r| get(&app, &format!("/reports/{r}.json?{today}")));
        assert_eq!(after, before, "[{backend}] the reports from the built rollups");
        assert_eq!(pitboss::db::rollups::kept(&mut conn).unwrap(), pitboss::db::rollups::recompute(&mut conn).unwrap());
        // An upgrade that emptied only the seatings' totals (the migration
        // that gave them their gaming day): they and the session days are
        // built again, by the database's sums, the same as kept.
        conn.batch_execute("DELETE FROM seating_totals; DELETE FROM session_days;").unwrap();
        assert_ne!(get(&app, &format!("/reports/sessions.json?{today}")), before[2]);
        drop(pitboss::db::connect(&app.database_url, 1).expect("the database opens again"));
        assert_eq!(get(&app, &format!("/reports/sessions.json?{today}")), before[2], "[{backend}] sessions rebuilt");
        assert_eq!(pitboss::db::rollups::kept(&mut conn).unwrap(), pitboss::db::rollups::recompute(&mut conn).unwrap());
    }
}

/// More sessions than two parts of the CSV file (a thousand each; each part
/// read while the one before is written): the file is sent in parts and is
/// still one table: the BOM and the header once, every session once, in
/// order, then the totals of them all.
#[test]
fn the_sessions_file_of_a_long_range_is_sent_in_parts() {
    for backend in backends() {
        let app = spawn_app(backend);
        let pool = new_pool(&app);
        let table = create_table(&app, "t", Some(pool), "UTC", "06:00");
        let sessions: usize = 2_003;
        for n in 0..sessions {
            let s = (n % 4 + 1) as i64;
            seat(&app, table, s, &format!("P{n:04}"), "10");
            expect(&app, "POST", &format!("/api/v1/tables/{table}/seats/{s}/cash-out"), &Value::Null, 200);
        }
        let (status, headers, body) = get_raw(&app, &format!("/reports/sessions.csv?table={table}"));
        assert_eq!(status, 200);
        assert_eq!(headers.get("transfer-encoding").map(String::as_str), Some("chunked"), "[{backend}] sent in parts");
        let body = body.strip_prefix('\u{feff}').expect("the BOM first");
        assert!(!body.contains('\u{feff}'), "[{backend}] the BOM once");
        let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(body.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), sessions + 1, "[{backend}] every session and the totals");
        let player = header.iter().position(|h| h == "Player").unwrap();
        let names: Vec<String> = records[..sessions].iter().map(|r| r[player].to_string()).collect();
        let want: Vec<String> = (0..sessions).map(|n| format!("P{n:04}")).collect();
        assert_eq!(names, want, "[{backend}] each session once, in the order seated");
        let total = records.last().unwrap();
        assert_eq!((&total[0], &total[1]), ("Total", format!("{sessions} sessions").as_str()));
        let buy_in = header.iter().position(|h| h == "Buy-in").unwrap();
        assert_eq!(&total[buy_in], format!("{}.00", sessions * 10).as_str());
    }
}

/// The sessions' pages go by gaming day, then table, then seating, not by
/// seating alone: a seating at a later table made earlier comes after a
/// seating at an earlier table made later, and the pages keep that order
/// forwards and backwards.
#[test]
fn sessions_pages_follow_day_table_and_seating() {
    for backend in backends() {
        let app = spawn_app(backend);
        let pool = new_pool(&app);
        let (t1, t2) =
            (create_table(&app, "A", Some(pool), "UTC", "06:00"), create_table(&app, "B", Some(pool), "UTC", "06:00"));
        seat(&app, t2, 1, "first at B", "10");
        seat(&app, t1, 1, "then at A", "10");
        seat(&app, t2, 2, "last at B", "10");
        let all = get(&app, "/reports/sessions.json");
        let list = arr(&all["sessions"]);
        let key = |s: &Value| {
            (s["gaming_day"].as_str().unwrap().to_string(), s["table_id"].as_i64(), s["seating_id"].as_i64())
        };
        let mut sorted = list.clone();
        sorted.sort_by_key(key);
        assert_eq!(list, &sorted, "[{backend}] by day, table, seating");
        let ids: Vec<i64> = list.iter().map(|s| s["seating_id"].as_i64().unwrap()).collect();
        if list.iter().all(|s| s["gaming_day"] == list[0]["gaming_day"]) {
            assert_eq!(ids, [2, 1, 3], "[{backend}] table A's seating first though made second");
        }
        let one = |q: &str| {
            let page = get(&app, &format!("/reports/sessions.json?limit=1&{q}"));
            let got: Vec<i64> = arr(&page["sessions"]).iter().map(|s| s["seating_id"].as_i64().unwrap()).collect();
            assert_eq!(page["totals"]["sessions"], 3);
            (got, page["previous"].as_i64(), page["next"].as_i64())
        };
        assert_eq!(one(""), (vec![ids[0]], None, Some(ids[0])));
        assert_eq!(one(&format!("after={}", ids[0])), (vec![ids[1]], Some(ids[1]), Some(ids[1])));
        assert_eq!(one(&format!("after={}", ids[1])), (vec![ids[2]], Some(ids[2]), None));
        assert_eq!(one(&format!("before={}", ids[2])), (vec![ids[1]], Some(ids[1]), Some(ids[1])));
        assert_eq!(one(&format!("before={}", ids[1])), (vec![ids[0]], None, Some(ids[0])));
        // Before the first: an empty page with no way on but the first page.
        assert_eq!(one(&format!("before={}", ids[0])), (vec![], None, None));
        assert_eq!(one(&format!("after={}", ids[2])), (vec![], None, None));
        // One table's pages go on only from one of its own sessions: from
        // B's, A's page would skip A's sessions of that day.
        let (status, answer) = request(&app, "GET", &format!("/reports/sessions.json?table={t1}&after={}", ids[1]), "");
        assert_eq!((status, answer["code"].as_str(), answer["field"].as_str()), (422, Some("bad_page"), Some("after")));
        assert!(answer["error"].as_str().unwrap().contains("another table"), "{answer}");
        assert_eq!(
            arr(&get(&app, &format!("/reports/sessions.json?table={t1}&after={}", ids[0]))["sessions"]).len(),
            0
        );
        // The CSV file's rows come in the same order.
        let (status, _, body) = get_raw(&app, "/reports/sessions.csv");
        assert_eq!(status, 200);
        let mut reader = csv::ReaderBuilder::new().from_reader(body.strip_prefix('\u{feff}').unwrap().as_bytes());
        let player = reader.headers().unwrap().iter().position(|h| h == "Player").unwrap();
        let names: Vec<String> = reader.records().map(|r| r.unwrap()[player].to_string()).collect();
        let want: Vec<String> = list.iter().map(|s| s["player"].as_str().unwrap().to_string()).collect();
        assert_eq!(names[..3], want[..], "[{backend}] the file in the pages' order");
        // A file holds the sessions there were when it began: one seated
        // while it is sent is in none of its parts, though at table A its
        // place comes before the last session's.
        use pitboss::web::sessions_file::FileOf;
        let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
        let today = list[0]["gaming_day"].as_str().unwrap().parse().unwrap();
        let last = list[2]["gaming_day"].as_str().unwrap().parse().unwrap();
        let range = pitboss::db::reports::Range { from: today, to: last, table: None };
        let rows_of = |conn: &mut pitboss::db::DbConnection, file: &FileOf| {
            let (mut text, mut day) = (String::new(), Some(today));
            while let Some(first) = day {
                let part = file.part(conn, first).unwrap();
                part.pieces.iter().for_each(|p| text.push_str(std::str::from_utf8(p.as_ref()).unwrap()));
                day = part.next;
            }
            text
        };
        let file = FileOf::new(&mut conn, range.clone(), chrono_tz::UTC).unwrap().expect("sessions");
        seat(&app, t1, 2, "seated meanwhile at A", "10");
        let rows = rows_of(&mut conn, &file);
        assert_eq!(rows.lines().count(), 3, "[{backend}] {rows}");
        assert!(!rows.contains("seated meanwhile"), "[{backend}] {rows}");
        let again = FileOf::new(&mut conn, range, chrono_tz::UTC).unwrap().expect("sessions");
        assert_eq!(rows_of(&mut conn, &again).lines().count(), 4, "[{backend}] a file begun now has the new session");
    }
}

/// A page asked for after (or before) a session outside the range starts
/// at the range's first session (or ends at its last): the seek to the
/// place never stands for the range's own bound when the place lies beyond
/// it. Two tables 25 hours apart are always on different gaming days.
#[test]
fn a_page_beyond_a_session_outside_the_range_stays_in_the_range() {
    for backend in backends() {
        let app = spawn_app(backend);
        let pool = new_pool(&app);
        let west = create_table(&app, "W", Some(pool), "Pacific/Pago_Pago", "06:00");
        let east = create_table(&app, "E", Some(pool), "Pacific/Kiritimati", "06:00");
        for (table, name) in [(west, "w1"), (west, "w2"), (east, "e1"), (east, "e2")] {
            seat(&app, table, if name.ends_with('1') { 1 } else { 2 }, name, "10");
        }
        let all = get(&app, "/reports/sessions.json");
        let list = arr(&all["sessions"]).clone();
        let find = |name: &str| list.iter().find(|s| s["player"] == name).unwrap_or_else(|| panic!("{name}: {all}"));
        let (w1, w2, e1, e2) = (find("w1"), find("w2"), find("e1"), find("e2"));
        let day = |s: &Value| s["gaming_day"].as_str().unwrap().to_string();
        let id = |s: &Value| s["seating_id"].as_i64().unwrap();
        assert!(day(w1) < day(e1), "[{backend}] the western table's day is the earlier: {all}");
        assert_eq!((day(w1), day(e1)), (day(w2), day(e2)), "[{backend}] each table's two sessions on one day");
        let ids = |q: String| -> Vec<i64> {
            arr(&get(&app, &format!("/reports/sessions.json?{q}"))["sessions"]).iter().map(id).collect()
        };
        // After a session of the day before the range: the range's sessions.
        assert_eq!(ids(format!("from={0}&to={0}&after={1}", day(e1), id(w1))), [id(e1), id(e2)], "[{backend}] after");
        // Before a session of the day after the range: the range's sessions.
        assert_eq!(ids(format!("from={0}&to={0}&before={1}", day(w1), id(e2))), [id(w1), id(w2)], "[{backend}] before");
        // Within the range, on from a place or back from one.
        let both = format!("from={}&to={}", day(w1), day(e1));
        assert_eq!(ids(format!("{both}&after={}", id(w2))), [id(e1), id(e2)], "[{backend}] after, in range");
        assert_eq!(ids(format!("{both}&before={}", id(e1))), [id(w1), id(w2)], "[{backend}] before, in range");
    }
}

/// A pool counts its money on its own clock, set when it is made: its seed
/// goes on the pool's gaming day, a table of another zone joining it later
/// (made before it, or after) moves nothing, and a recount from the ledger
/// books every row where it was kept. The zones are 25 hours apart, so at
/// any time of day the two clocks name different dates.
#[test]
fn a_pool_keeps_its_own_clock() {
    for backend in backends() {
        let app = spawn_app(backend);
        let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
        let same = |conn: &mut pitboss::db::DbConnection, what: &str| {
            let kept = pitboss::db::rollups::kept(conn).unwrap();
            assert_eq!(kept, pitboss::db::rollups::recompute(conn).unwrap(), "[{backend}] {what}");
        };
        // A bad clock is refused, naming the field, and makes no pool.
        for (field, body) in [
            ("time_zone", json!({"name": "p", "seed": "10", "time_zone": "Mars/Olympus"})),
            ("gaming_day_cutoff", json!({"name": "p", "seed": "10", "gaming_day_cutoff": "25:00"})),
        ] {
            let e = expect(&app, "POST", "/api/v1/pools", &body, 422);
            assert_eq!(e["field"], field, "[{backend}] {e}");
        }
        assert_eq!(expect(&app, "GET", "/api/v1/pools", &Value::Null, 200).as_array().unwrap().len(), 0);
        // A table made before the pool, in a zone 14 hours ahead of UTC.
        let early = create_table(&app, "early", None, "Pacific/Kiritimati", "06:00");
        let pago_day = || {
            let local = Utc::now().with_timezone(&chrono_tz::Pacific::Pago_Pago).naive_local();
            (local - Duration::hours(6)).date().to_string()
        };
        let before = pago_day();
        let pool = expect(
            &app,
            "POST",
            "/api/v1/pools",
            &json!({"name": "pago", "seed": "10", "time_zone": " Pacific/Pago_Pago ", "gaming_day_cutoff": "06:00"}),
            201,
        );
        let after = pago_day();
        assert_eq!(
            (pool["time_zone"].as_str(), pool["gaming_day_cutoff"].as_str()),
            (Some("Pacific/Pago_Pago"), Some("06:00"))
        );
        let pool = pool["id"].as_i64().unwrap();
        let days = |conn: &mut pitboss::db::DbConnection| {
            pitboss::db::rollups::pool_days(conn, Some(pitboss::domain::PoolId(pool)))
                .unwrap()
                .into_iter()
                .map(|d| (d.gaming_day, d.seeds.to_string()))
                .collect::<Vec<_>>()
        };
        let seeded = days(&mut conn);
        assert_eq!(seeded.len(), 1, "[{backend}] {seeded:?}");
        assert!(seeded[0].0 == before || seeded[0].0 == after, "[{backend}] the seed on {seeded:?}, not {before}");
        assert_eq!(seeded[0].1, "10.00");
        same(&mut conn, "seeded");
        // The earlier table joins it; a later one is made feeding it.
        expect(&app, "PATCH", &format!("/api/v1/tables/{early}"), &json!({"pool_id": pool}), 200);
        same(&mut conn, "an earlier table joined");
        create_table(&app, "late", Some(pool), "Pacific/Kiritimati", "06:00");
        same(&mut conn, "a later table made for it");
        assert_eq!(days(&mut conn), seeded, "[{backend}] the seed stays on the pool's day");
        // The database keeps the clock as made.
        for sql in ["UPDATE pools SET time_zone = 'UTC'", "UPDATE pools SET gaming_day_cutoff = '00:00'"] {
            assert!(diesel::sql_query(sql).execute(&mut conn).is_err(), "[{backend}] the database took: {sql}");
        }
    }
}

/// A migration's SQL as the binary embeds it (`up.sql` or `down.sql`).
fn migration_sql(backend: &str, migration: &str, file: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(backend).join(migration);
    std::fs::read_to_string(path.join(file)).unwrap()
}

/// The upgrade that gave pools their own clock: a pool made before takes
/// its first table's clock (by id), or UTC midnight without a table, and its
/// days, whose first seed the releases before kept on the UTC day, are
/// booked again from the ledger on that clock at the first start, so that
/// they agree with a recount. Two pools whose first tables are 25 hours
/// apart: at any time of day one of them is on another date than UTC.
#[test]
fn the_upgrade_gives_a_pool_its_first_tables_clock() {
    for backend in backends() {
        let app = spawn_app(backend);
        let pool = |name: &str| {
            expect(&app, "POST", "/api/v1/pools", &json!({"name": name, "seed": "10"}), 201)["id"].as_i64().unwrap()
        };
        let (east, west, alone) = (pool("east"), pool("west"), pool("alone"));
        create_table(&app, "kiritimati", Some(east), "Pacific/Kiritimati", "00:00");
        create_table(&app, "macau", Some(east), "Asia/Macau", "07:00");
        create_table(&app, "pago", Some(west), "Pacific/Pago_Pago", "00:00");
        let sql = |file: &str| migration_sql(backend, "2026-11-27-000200_pool_clock", file);
        let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
        use diesel::connection::SimpleConnection;
        // The database as the release before left it: no pool clock, each
        // pool's seed on the UTC day it was written.
        conn.batch_execute(&sql("down.sql")).unwrap();
        let seeded: Vec<(i64, NaiveDateTime)> = pitboss::db::schema::ledger_entries::table
            .filter(pitboss::db::schema::ledger_entries::kind.eq(pitboss::domain::EntryKind::PoolSeed))
            .select((
                pitboss::db::schema::ledger_entries::pool_id.assume_not_null(),
                pitboss::db::schema::ledger_entries::created_at,
            ))
            .load::<(pitboss::domain::PoolId, NaiveDateTime)>(&mut conn)
            .unwrap()
            .into_iter()
            .map(|(p, at)| (p.get(), at))
            .collect();
        conn.batch_execute("DELETE FROM pool_days").unwrap();
        for (p, at) in &seeded {
            conn.batch_execute(&format!(
                "INSERT INTO pool_days (pool_id, gaming_day, seeds_cents, locked_cents, returned_cents, other_cents, \
                 paid_out_cents) VALUES ({p}, '{}', 1000, 0, 0, 0, 0)",
                at.date()
            ))
            .unwrap();
        }
        conn.batch_execute(&sql("up.sql")).unwrap();
        drop(pitboss::db::connect(&app.database_url, 1).expect("the database opens again"));
        let clock = |id: i64| {
            let p = expect(&app, "GET", &format!("/api/v1/pools/{id}"), &Value::Null, 200);
            (p["time_zone"].as_str().unwrap().to_string(), p["gaming_day_cutoff"].as_str().unwrap().to_string())
        };
        assert_eq!(clock(east), ("Pacific/Kiritimati".to_string(), "00:00".to_string()), "[{backend}]");
        assert_eq!(clock(west), ("Pacific/Pago_Pago".to_string(), "00:00".to_string()), "[{backend}]");
        assert_eq!(clock(alone), ("UTC".to_string(), "00:00".to_string()), "[{backend}]");
        // Each seed on its pool's day, as a recount books it.
        let kept = pitboss::db::rollups::kept(&mut conn).unwrap();
        assert_eq!(kept, pitboss::db::rollups::recompute(&mut conn).unwrap(), "[{backend}]");
        let local = |at: NaiveDateTime, tz: chrono_tz::Tz| Utc.from_utc_datetime(&at).with_timezone(&tz).date_naive();
        let day_of = |p: i64| kept.pool_days.iter().find(|d| d.pool_id.get() == p).map(|d| d.gaming_day.clone());
        let at = |p: i64| seeded.iter().find(|s| s.0 == p).unwrap().1;
        assert_eq!(day_of(east), Some(local(at(east), chrono_tz::Pacific::Kiritimati).to_string()), "[{backend}]");
        assert_eq!(day_of(west), Some(local(at(west), chrono_tz::Pacific::Pago_Pago).to_string()), "[{backend}]");
        assert_eq!(day_of(alone), Some(at(alone).date().to_string()), "[{backend}]");
    }
}

/// A hand committed by the release before one ledger row per seat (a `rake`
/// and a `settlement` row per seat and the house's share, written here as it
/// wrote them, after a hand committed now whose results they copy) is voided
/// after the upgrade: each of its rows is reversed, without a rake, the
/// stacks are back where the hand found them, and the rollups, built from
/// the ledger as at the upgrade, agree with a recount before and after.
#[test]
fn a_hand_committed_before_hand_results_is_voided_after_the_upgrade() {
    use diesel::connection::SimpleConnection;
    use rust_decimal::prelude::ToPrimitive;
    for backend in backends() {
        let app = spawn_app(backend);
        let t = create_table(&app, "Old", None, "UTC", "00:00");
        seat(&app, t, 1, "Ann", "100");
        seat(&app, t, 2, "Bob", "100");
        let stacks = || -> Vec<Decimal> {
            arr(&get(&app, &format!("/api/v1/tables/{t}"))["seats"]).iter().map(|s| dec(&s["stack"])).collect()
        };
        let (_, first) = play(&app, t, &showdown(&DEAL_A, &[1, 2], 0));
        let after_first = stacks();
        let rows = ledger(&app, t);
        let results: Vec<&Value> =
            rows.iter().filter(|r| r["hand_id"] == json!(first) && r["kind"] == json!("hand_result")).collect();
        assert_eq!(results.len(), 2, "[{backend}] {rows:?}");
        let second =
            expect(&app, "POST", &format!("/api/v1/tables/{t}/hands"), &json!({}), 201)["id"].as_i64().unwrap();

        // Hand 2 as the release before committed it.
        let cents = |v: &Value| (dec(v) * Decimal::from(100)).to_i64().unwrap();
        let at = format!("'{}'", Utc::now().naive_utc().format("%Y-%m-%d %H:%M:%S"));
        let columns = "table_id, hand_id, seating_id, kind, amount_cents, created_at, balance_after_cents";
        let mut sql = format!(
            "INSERT INTO showdowns (hand_id, committed_at, showdown_z) \
             SELECT {second}, committed_at, showdown_z FROM showdowns WHERE hand_id = {first};"
        );
        let mut old_rows = 0;
        let mut house = 0;
        for r in &results {
            let (seating, amount, rake, start) =
                (r["seating_id"].as_i64().unwrap(), cents(&r["amount"]), cents(&r["rake"]), cents(&r["stack_after"]));
            sql += &format!(
                "INSERT INTO ledger_entries ({columns}) VALUES ({t}, {second}, {seating}, 'rake', {}, {at}, {});",
                -rake,
                start - rake
            );
            old_rows += 1;
            if amount + rake != 0 {
                sql += &format!(
                    "INSERT INTO ledger_entries ({columns}) VALUES ({t}, {second}, {seating}, 'settlement', {}, {at}, \
                     {});",
                    amount + rake,
                    start + amount
                );
                old_rows += 1;
            }
            house += rake;
        }
        sql += &format!(
            "INSERT INTO ledger_entries ({columns}) VALUES ({t}, {second}, NULL, 'house_rake', {house}, {at}, NULL);"
        );
        old_rows += 1;
        let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
        conn.batch_execute(&sql).unwrap();
        // The rollups as the upgrade finds them: built from the ledger.
        conn.batch_execute("DELETE FROM table_days; DELETE FROM pool_days; DELETE FROM seating_totals;").unwrap();
        drop(pitboss::db::connect(&app.database_url, 1).expect("the database opens again"));
        let kept = pitboss::db::rollups::kept(&mut conn).unwrap();
        assert_eq!(kept, pitboss::db::rollups::recompute(&mut conn).unwrap(), "[{backend}]");
        let day = kept.table_days.iter().find(|r| r.table_id.get() == t).unwrap();
        assert_eq!((day.hands, day.rake), (2, pitboss::domain::Money::from_cents(200)), "[{backend}] {day:?}");
        assert_ne!(stacks(), after_first, "[{backend}] hand 2 moved money");

        expect(
            &app,
            "POST",
            &format!("/api/v1/tables/{t}/hands/2/void"),
            &json!({"reason": "other", "note": "old shape"}),
            200,
        );
        let now = ledger(&app, t);
        let reversals = &now[rows.len() + old_rows..];
        assert_eq!(reversals.len(), old_rows, "[{backend}] row for row: {reversals:?}");
        for r in reversals {
            assert_eq!((r["kind"].as_str(), &r["rake"]), (Some("reversal"), &Value::Null), "[{backend}] {r}");
            let reversed = now.iter().find(|o| o["id"] == r["reverses_id"]).expect("the row it reverses");
            assert_eq!(reversed["hand_id"], json!(second));
            assert_eq!(dec(&r["amount"]), -dec(&reversed["amount"]));
        }
        assert_eq!(stacks(), after_first, "[{backend}] the stacks are back");
        let kept = pitboss::db::rollups::kept(&mut conn).unwrap();
        assert_eq!(kept, pitboss::db::rollups::recompute(&mut conn).unwrap(), "[{backend}]");
        let day = kept.table_days.iter().find(|r| r.table_id.get() == t).unwrap();
        assert_eq!((day.hands, day.rake), (1, pitboss::domain::Money::from_cents(100)), "[{backend}] {day:?}");
    }
}

#[derive(QueryableByName, Debug, PartialEq)]
struct KindRow {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    id: i64,
    #[diesel(sql_type = diesel::sql_types::Text)]
    kind: String,
}

/// The upgrade that keeps a ledger row's kind in a type of its own on
/// PostgreSQL (`ledger_entry_kind`, 2026-11-28-000600): on a database whose
/// kinds are text (seeds, hand results, a void's reversals, a jackpot's lock,
/// an add-on, a cash-out), every row keeps its kind, the tables' ledgers and
/// the rollups read the same, the partial indexes, checks and the cash-out's
/// trigger are back, and the service plays, voids and cashes out after it.
#[test]
fn the_upgrade_keeps_every_ledger_rows_kind() {
    use diesel::connection::SimpleConnection;
    for backend in backends().into_iter().filter(|b| *b == "postgres") {
        let mut app = spawn_app(backend);
        let s = setup(&app);
        let sql = |file: &str| migration_sql(backend, "2026-11-28-000600_ledger_kind_enum", file);
        let mut conn = diesel::pg::PgConnection::establish(&app.database_url).expect("the test database");
        let kinds = |conn: &mut diesel::pg::PgConnection| -> Vec<KindRow> {
            diesel::sql_query("SELECT id, kind::text AS kind FROM ledger_entries ORDER BY id").load(conn).unwrap()
        };
        let column_type = |conn: &mut diesel::pg::PgConnection| -> String {
            #[derive(QueryableByName)]
            struct Udt {
                #[diesel(sql_type = diesel::sql_types::Text)]
                udt_name: String,
            }
            let found: Vec<Udt> = diesel::sql_query(
                "SELECT udt_name::text AS udt_name FROM information_schema.columns \
                 WHERE table_name = 'ledger_entries' AND column_name = 'kind'",
            )
            .load(conn)
            .unwrap();
            found[0].udt_name.clone()
        };
        #[derive(QueryableByName)]
        struct Definition {
            #[diesel(sql_type = diesel::sql_types::Text)]
            def: String,
        }
        // The ledger's checks, indexes and triggers, as the database shows them.
        let definitions = |conn: &mut diesel::pg::PgConnection| -> Vec<String> {
            let found: Vec<Definition> = diesel::sql_query(
                "SELECT conname || ': ' || pg_get_constraintdef(oid) AS def FROM pg_constraint \
                 WHERE conrelid = 'ledger_entries'::regclass \
                 UNION ALL SELECT indexname || ': ' || indexdef FROM pg_indexes WHERE tablename = 'ledger_entries' \
                 UNION ALL SELECT tgname || ': ' || pg_get_triggerdef(oid) FROM pg_trigger \
                 WHERE tgrelid = 'ledger_entries'::regclass AND NOT tgisinternal ORDER BY 1",
            )
            .load(conn)
            .unwrap();
            found.into_iter().map(|d| d.def).collect()
        };
        let before = kinds(&mut conn);
        let defined = definitions(&mut conn);
        assert!(defined.iter().any(|d| d.starts_with("ledger_cash_out_frees_the_seat: ")), "{defined:?}");
        assert!(!defined.iter().any(|d| d.starts_with("ledger_kind: ")), "the type is the check now: {defined:?}");
        let ledgers = (ledger(&app, s.la), ledger(&app, s.macau));
        for kind in ["pool_seed", "hand_result", "house_rake", "jackpot_contribution", "reversal", "add_on", "cash_out"]
        {
            assert!(before.iter().any(|r| r.kind == kind), "the setup writes a {kind} row: {before:?}");
        }
        assert_eq!(column_type(&mut conn), "ledger_entry_kind");

        // The database as the release before left it: the kind as text.
        conn.batch_execute(&sql("down.sql")).unwrap();
        assert_eq!(column_type(&mut conn), "text");
        assert_eq!(kinds(&mut conn), before);
        assert!(definitions(&mut conn).iter().any(|d| d.starts_with("ledger_kind: CHECK")), "the check of before");
        conn.batch_execute(&sql("up.sql")).unwrap();
        assert_eq!(column_type(&mut conn), "ledger_entry_kind");
        assert_eq!(kinds(&mut conn), before, "every row keeps its kind");
        assert_eq!(definitions(&mut conn), defined, "every check, index and trigger as it was");
        // The service started again on the upgraded database, as after an
        // upgrade (the first server's connections know the type of before).
        crate::support::restart(&mut app);
        assert_eq!((ledger(&app, s.la), ledger(&app, s.macau)), ledgers, "the ledgers read the same");
        let mut multi = pitboss::db::DbConnection::establish(&app.database_url).unwrap();
        let kept = pitboss::db::rollups::kept(&mut multi).unwrap();
        assert_eq!(kept, pitboss::db::rollups::recompute(&mut multi).unwrap());
        // The service after it: a hand, its void, a cash-out that frees the seat.
        let (number, _) = play(&app, s.macau, &showdown(&DEAL_A[..2], &[1, 2], 0));
        expect(
            &app,
            "POST",
            &format!("/api/v1/tables/{}/hands/{number}/void", s.macau),
            &json!({"reason": "misdeal", "note": "after the upgrade"}),
            200,
        );
        expect(&app, "POST", &format!("/api/v1/tables/{}/seats/2/cash-out", s.macau), &Value::Null, 200);
        seat(&app, s.macau, 2, "Heidi", "10");
        let after = kinds(&mut conn);
        assert!(after.len() > before.len() + 4, "{after:?}");
        assert_eq!(after[..before.len()], before[..]);
        let kept = pitboss::db::rollups::kept(&mut multi).unwrap();
        assert_eq!(kept, pitboss::db::rollups::recompute(&mut multi).unwrap());
    }
}

#[derive(QueryableByName, Debug)]
struct GuardRow {
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    by_key: bool,
}

/// The books' guards on PostgreSQL find rows by their keys whatever the
/// planner's statistics say (2026-12-02-000100): every PL/pgSQL function
/// that reads or writes a table runs with sequential scans off, so a plan
/// made while a table was small does not read the whole table once it has
/// grown (a new database, a server with autovacuum off). The migration's
/// down and up again leave them as they were.
#[test]
fn the_books_guards_find_rows_by_key_on_postgres() {
    use diesel::connection::SimpleConnection;
    for backend in backends().into_iter().filter(|b| *b == "postgres") {
        let app = spawn_app(backend);
        let mut conn = diesel::pg::PgConnection::establish(&app.database_url).expect("the test database");
        // Functions whose body (outside its quoted texts) reads a table: a
        // FROM (a SELECT, a DELETE) or an UPDATE of a table (not an upsert's
        // DO UPDATE, whose conflict is found through its unique index).
        let guards = |conn: &mut diesel::pg::PgConnection| -> Vec<GuardRow> {
            diesel::sql_query(
                "SELECT p.proname::text AS name, \
                     COALESCE('enable_seqscan=off' = ANY(p.proconfig), false) AS by_key \
                 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace \
                 WHERE n.nspname = 'public' AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql') \
                     AND regexp_replace(p.prosrc, '''[^'']*''', '', 'g') \
                         ~* '\\mfrom\\M|\\mupdate\\s+\\w+\\s+set\\M' ORDER BY 1",
            )
            .load(conn)
            .unwrap()
        };
        let found = guards(&mut conn);
        let names: Vec<&str> = found.iter().map(|g| g.name.as_str()).collect();
        for name in ["ledger_guard", "seating_stacks_checked", "pool_balances_checked", "hands_seats_guard"] {
            assert!(names.contains(&name), "{name} reads a table: {names:?}");
        }
        for name in ["open_seating", "ledger_pool_balance", "seating_totals_made"] {
            assert!(!names.contains(&name), "{name} only inserts: {names:?}");
        }
        let scanning: Vec<&str> = found.iter().filter(|g| !g.by_key).map(|g| g.name.as_str()).collect();
        assert!(scanning.is_empty(), "guards that may plan a full read: {scanning:?}");

        let sql = |file: &str| migration_sql(backend, "2026-12-02-000100_guards_by_key", file);
        conn.batch_execute(&sql("down.sql")).unwrap();
        assert!(guards(&mut conn).iter().all(|g| !g.by_key), "down: the planner's own choice again");
        conn.batch_execute(&sql("up.sql")).unwrap();
        assert!(guards(&mut conn).iter().all(|g| g.by_key), "up again: every guard by key");
        // (That the guards still refuse what they refused is every other
        // test's on PostgreSQL, run on databases with this migration:
        // holes.rs writes wrong rows straight to the database.)
    }
}

/// One statement that changes the totals of many seatings (two tables, two
/// gaming days) moves each table's day (`session_days`) by the sum of its
/// own seatings' changes, and counts a change for each seating's row; a
/// statement that would move a seating to another day or table changes
/// nothing. (On PostgreSQL the trigger runs once a statement, over its rows.)
#[test]
fn a_statement_over_many_seatings_totals_moves_each_tables_day_by_its_own() {
    use diesel::connection::SimpleConnection;
    #[derive(QueryableByName, Debug, PartialEq)]
    struct DayRow {
        #[diesel(sql_type = diesel::sql_types::Text)]
        gaming_day: String,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        table_id: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        sessions: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        buy_in_cents: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        rake_cents: i64,
    }
    for backend in backends() {
        let app = spawn_app(backend);
        setup(&app);
        // A seating of another gaming day, with its totals, at a third table.
        let other = create_table(&app, "other", None, "UTC", "06:00");
        let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
        let at = if backend == "sqlite" { "'2026-01-05T12:00:00.000'" } else { "'2026-01-05 12:00:00'" };
        conn.batch_execute(&format!(
            "INSERT INTO seatings (id, table_id, seat, player, seated_at) VALUES (9999, {other}, 1, 'Old', {at}); \
             INSERT INTO seating_totals (seating_id, table_id, gaming_day, seat, player, seated_at, buy_in_cents, \
             rake_cents) VALUES (9999, {other}, '2026-01-05', 1, 'Old', {at}, 5000, 300)"
        ))
        .unwrap();
        let sums = |conn: &mut pitboss::db::DbConnection| -> Vec<DayRow> {
            diesel::sql_query(
                "SELECT gaming_day, table_id, CAST(COUNT(*) AS BIGINT) AS sessions, \
                     CAST(SUM(buy_in_cents) AS BIGINT) AS buy_in_cents, CAST(SUM(rake_cents) AS BIGINT) AS rake_cents \
                 FROM seating_totals GROUP BY gaming_day, table_id ORDER BY gaming_day, table_id",
            )
            .load(conn)
            .unwrap()
        };
        let days = |conn: &mut pitboss::db::DbConnection| -> Vec<DayRow> {
            diesel::sql_query(
                "SELECT gaming_day, table_id, sessions, buy_in_cents, rake_cents FROM session_days \
                 ORDER BY gaming_day, table_id",
            )
            .load(conn)
            .unwrap()
        };
        let changes = |conn: &mut pitboss::db::DbConnection| -> i64 {
            #[derive(QueryableByName)]
            struct Changes {
                #[diesel(sql_type = diesel::sql_types::BigInt)]
                n: i64,
            }
            diesel::sql_query("SELECT CAST(SUM(changes) AS BIGINT) AS n FROM session_days")
                .get_result::<Changes>(conn)
                .unwrap()
                .n
        };
        let before = days(&mut conn);
        assert_eq!(before, sums(&mut conn), "[{backend}] the days are their seatings' sums");
        let tables: std::collections::BTreeSet<i64> = before.iter().map(|d| d.table_id).collect();
        let day_names: std::collections::BTreeSet<&str> = before.iter().map(|d| d.gaming_day.as_str()).collect();
        assert!(tables.len() >= 3 && day_names.len() >= 2, "[{backend}] tables {tables:?}, days {day_names:?}");
        let rows = before.iter().map(|d| d.sessions).sum::<i64>();
        let counted = changes(&mut conn);

        // Each row its own change: 7 cents of rake, its id's remainder of buy-in.
        conn.batch_execute(
            "UPDATE seating_totals SET rake_cents = rake_cents + 7, buy_in_cents = buy_in_cents + seating_id % 5",
        )
        .unwrap();
        let after = days(&mut conn);
        assert_eq!(after, sums(&mut conn), "[{backend}] each day moved by its own seatings' changes");
        for (was, now) in before.iter().zip(&after) {
            assert_eq!(now.rake_cents - was.rake_cents, 7 * was.sessions, "[{backend}] {now:?}");
        }
        assert_eq!(changes(&mut conn), counted + rows, "[{backend}] one change a seating's row");

        // A seating moved to another day or table: refused, nothing changed.
        for sql in [
            "UPDATE seating_totals SET gaming_day = '2026-01-06' WHERE seating_id = 9999",
            "UPDATE seating_totals SET table_id = NULL WHERE seating_id = 9999",
            "UPDATE seating_totals SET table_id = (SELECT MIN(id) FROM casino_tables), rake_cents = rake_cents + 1",
        ] {
            let e = pitboss::domain::AppError::from(conn.batch_execute(sql).expect_err(sql));
            assert!(
                e.code == "books_refused" && e.to_string().contains("table and gaming day do not change"),
                "[{backend}] {sql}: {e:?}"
            );
            assert_eq!(days(&mut conn), after, "[{backend}] {sql}: nothing changed");
        }
    }
}

/// The upgrade that gave each seating's totals its session's seat, player
/// and time seated (the sessions report reads a session's row from its
/// totals alone): every seating's totals get what its seating and player
/// say, the report reads the same before and after, and a recount agrees
/// (it compares the copies with the seatings and players too).
#[test]
fn the_upgrade_copies_each_sessions_seat_and_player_into_its_totals() {
    use diesel::connection::SimpleConnection;
    for backend in backends() {
        let mut app = spawn_app(backend);
        let s = setup(&app);
        expect(
            &app,
            "POST",
            &format!("/api/v1/tables/{}/seats", s.macau),
            &json!({"seat": 3, "player": "Heidi", "member_no": "M-77", "buy_in": "40"}),
            201,
        );
        // The report as a file and as JSON (which names member numbers too).
        let file = |app: &TestApp| {
            let (status, _, body) = get_raw(app, "/reports/sessions.csv");
            assert_eq!(status, 200, "[{backend}] {body}");
            (body, get(app, "/reports/sessions.json").to_string())
        };
        let before = file(&app);
        for said in ["Alice", "Dave", "Grace", "Heidi", "cashed out", "seated"] {
            assert!(before.0.contains(said) && before.1.contains(said), "[{backend}] {said:?}: {before:?}");
        }
        assert!(before.1.contains("\"member_no\":\"M-77\""), "[{backend}] {}", before.1);
        let sql = |file: &str| migration_sql(backend, "2026-11-28-000700_sessions_with_totals", file);
        let mut conn = pitboss::db::DbConnection::establish(&app.database_url).unwrap();
        let recount = |conn: &mut pitboss::db::DbConnection| {
            let kept = pitboss::db::rollups::kept(conn).unwrap();
            assert_eq!(kept, pitboss::db::rollups::recompute(conn).unwrap(), "[{backend}] the rollups as recounted");
            kept
        };
        let kept = recount(&mut conn);
        let heidi = kept.seatings.iter().find(|t| t.player.as_deref() == Some("Heidi")).unwrap();
        assert_eq!((heidi.member_no.as_deref(), heidi.seat.map(|s| s.get())), (Some("M-77"), Some(3)));

        // The database as the release before left it: totals without them.
        conn.batch_execute(&sql("down.sql")).unwrap();
        assert!(conn.batch_execute("SELECT player FROM seating_totals").is_err(), "[{backend}] no copies before");
        conn.batch_execute(&sql("up.sql")).unwrap();
        crate::support::restart(&mut app);
        assert_eq!(file(&app), before, "[{backend}] the sessions file reads the same");
        assert_eq!(recount(&mut conn), kept, "[{backend}] every seating's totals as they were made");
        // The service after it: a new session, a hand, a cash-out.
        seat(&app, s.macau, 4, "Ivan", "60");
        play(&app, s.macau, &showdown(&DEAL_A, &[1, 2, 3, 4], 0));
        expect(&app, "POST", &format!("/api/v1/tables/{}/seats/4/cash-out", s.macau), &Value::Null, 200);
        let after = file(&app);
        assert!(after.0.contains("Ivan") && after.1.contains("Ivan"), "[{backend}] {after:?}");
        assert_eq!(recount(&mut conn).seatings.len(), kept.seatings.len() + 1);
    }
}

// ---------------------------------------------------------------------------
// The sessions file's gaming days kept ready (issue 17)
// ---------------------------------------------------------------------------

/// Keeps the sessions file's groups as the server's keeper does, in the
/// server's zone (the tests' app shows times in UTC), as if it were `now`.
fn keep_at(app: &TestApp, now: NaiveDateTime) -> (usize, bool) {
    pitboss::web::sessions_file::keep(app.db.as_ref().unwrap(), chrono_tz::UTC, now, 1_000).expect("keep")
}

/// Two days from now: every table's gaming day of today has ended.
fn two_days_on() -> NaiveDateTime {
    pitboss::db::now() + Duration::days(2)
}

/// What the database keeps of a table's groups: (gaming day, sessions).
fn kept_groups(app: &TestApp, table: i64) -> Vec<(String, i64)> {
    use pitboss::db::schema::session_files;
    let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
    session_files::table
        .filter(session_files::table_id.eq(table))
        .order(session_files::gaming_day)
        .select((session_files::gaming_day, session_files::sessions))
        .load(&mut conn)
        .unwrap()
}

/// Puts `rows` (packed as the keeper packs them, or as given) in place of a
/// table's kept rows, and `layout` as their layout.
fn tamper(app: &TestApp, table: i64, rows: &[u8], packed: bool, layout: i32) {
    use pitboss::db::schema::session_files;
    let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
    let blob = if packed { lz4_flex::block::compress_prepend_size(rows) } else { rows.to_vec() };
    let n = diesel::update(session_files::table.filter(session_files::table_id.eq(table)))
        .set((session_files::rows_lz4.eq(blob), session_files::layout.eq(layout)))
        .execute(&mut conn)
        .unwrap();
    assert!(n > 0, "table {table} has kept groups");
}

/// The file with nothing kept: every group read from the seatings' totals.
fn file_as_read(app: &TestApp, path: &str) -> String {
    let mut conn = pitboss::db::DbConnection::establish(&app.database_url).expect("the test database");
    pitboss::db::session_files::clear(&mut conn).unwrap();
    get_raw(app, path).2
}

/// A table's gaming day whose sessions have all ended is kept by the
/// keeper once the day is over, and the file sends it as kept while it is
/// true; once anything it was made from changes (a player seated again, the
/// table's name, the zone of the times, the layout of a row) or its rows do
/// not unpack, it is read from the seatings' totals as before, and kept
/// again. Either way the file reads the same, byte for byte. Two tables 25
/// hours apart are on different gaming days, so the file has several parts.
#[test]
fn the_sessions_file_sends_ended_gaming_days_as_kept() {
    let marker = b"MARKER,kept,rows\r\n";
    for backend in backends() {
        let app = spawn_app(backend);
        let pool = new_pool(&app);
        let east = create_table(&app, "=East \"A\", 1", Some(pool), "Pacific/Kiritimati", "00:00");
        let west = create_table(&app, "West", Some(pool), "Pacific/Pago_Pago", "00:00");
        for (s, p) in [(1, "=cmd|' /C calc'!A0"), (2, "O'Neil, Jr."), (3, "Zoë \"Z\""), (4, "Dave")] {
            seat(&app, east, s, p, "200");
        }
        for (s, p) in [(1, "W1"), (2, "W2"), (3, "W3")] {
            seat(&app, west, s, p, "100");
        }
        for rot in [0, 1] {
            play(&app, east, &showdown(&DEAL_A, &[1, 2, 3, 4], rot));
            play(&app, west, &showdown(&DEAL_A[..3], &[1, 2, 3], rot));
        }
        expect(&app, "POST", &format!("/api/v1/tables/{east}/seats/2/add-on"), &json!({"amount": "12.34"}), 200);
        for s in 1..=4 {
            expect(&app, "POST", &format!("/api/v1/tables/{east}/seats/{s}/cash-out"), &Value::Null, 200);
        }
        for s in 1..=2 {
            expect(&app, "POST", &format!("/api/v1/tables/{west}/seats/{s}/cash-out"), &Value::Null, 200);
        }
        let today = Utc::now().date_naive();
        let path = format!("/reports/sessions.csv?from={}&to={}", today - Duration::days(2), today + Duration::days(2));
        let file = || {
            let (status, _, body) = get_raw(&app, &path);
            assert_eq!(status, 200);
            body
        };
        let read = file_as_read(&app, &path);
        assert_eq!(read.lines().count(), 1 + 7 + 1, "[{backend}] the header, seven sessions, the totals:\n{read}");
        // Today has ended at no table: nothing is kept.
        assert_eq!(keep_at(&app, pitboss::db::now()), (0, false), "[{backend}]");
        assert_eq!(file(), read);
        // Two days on, East's day (every player gone) is kept; West's, with
        // a player still seated, is not.
        assert_eq!(keep_at(&app, two_days_on()), (1, false), "[{backend}]");
        assert_eq!(kept_groups(&app, east).iter().map(|g| g.1).collect::<Vec<_>>(), [4], "[{backend}]");
        assert!(kept_groups(&app, west).is_empty(), "[{backend}]");
        assert_eq!(file(), read, "[{backend}] the file with East's day kept");
        // Kept true, it is sent as kept: rows put in its place show.
        tamper(&app, east, marker, true, pitboss::web::sessions_file::LAYOUT);
        assert!(file().contains("MARKER,kept,rows"), "[{backend}] sent as kept");
        // Kept again as it is: nothing to do.
        assert_eq!(keep_at(&app, two_days_on()), (0, false), "[{backend}]");
        // West's last player leaves: its day is kept too.
        expect(&app, "POST", &format!("/api/v1/tables/{west}/seats/3/cash-out"), &Value::Null, 200);
        let read = file_as_read(&app, &path);
        assert_eq!(keep_at(&app, two_days_on()), (2, false), "[{backend}] East's and West's");
        assert_eq!(file(), read, "[{backend}] both kept");
        // A player seated again at East the same day: its day has changed.
        tamper(&app, east, marker, true, pitboss::web::sessions_file::LAYOUT);
        seat(&app, east, 1, "Late, Lou", "50");
        let now_read = file();
        assert!(!now_read.contains("MARKER") && now_read.contains("\"Late, Lou\""), "[{backend}] {now_read}");
        assert_eq!(now_read, file_as_read(&app, &path), "[{backend}] read as before");
        // Not ended while Lou is seated; kept once Lou has gone.
        assert_eq!(keep_at(&app, two_days_on()), (1, false), "[{backend}] West's again (cleared above)");
        assert!(kept_groups(&app, east).is_empty(), "[{backend}]");
        expect(&app, "POST", &format!("/api/v1/tables/{east}/seats/1/cash-out"), &Value::Null, 200);
        let read = file_as_read(&app, &path);
        assert_eq!(keep_at(&app, two_days_on()), (2, false), "[{backend}]");
        assert_eq!(kept_groups(&app, east).iter().map(|g| g.1).collect::<Vec<_>>(), [5], "[{backend}]");
        assert_eq!(file(), read, "[{backend}] East's five sessions kept");
        // Renamed: its rows name it as it was; read as before, kept again.
        tamper(&app, east, marker, true, pitboss::web::sessions_file::LAYOUT);
        expect(&app, "PATCH", &format!("/api/v1/tables/{east}"), &json!({"name": "East, renamed"}), 200);
        let renamed = file();
        assert!(!renamed.contains("MARKER") && renamed.contains("\"East, renamed\""), "[{backend}] {renamed}");
        assert_eq!(keep_at(&app, two_days_on()), (1, false), "[{backend}] East's (West's is still true)");
        assert_eq!(file(), renamed, "[{backend}] kept under its new name");
        assert_eq!(renamed, file_as_read(&app, &path), "[{backend}]");
        assert_eq!(keep_at(&app, two_days_on()), (2, false), "[{backend}]");
        // Kept for another zone than the server's, or in another layout of a
        // row: not sent.
        tamper(&app, east, marker, true, pitboss::web::sessions_file::LAYOUT + 1);
        assert_eq!(file(), renamed, "[{backend}] another layout");
        let macau: chrono_tz::Tz = "Asia/Macau".parse().unwrap();
        let db = app.db.as_ref().unwrap();
        assert_eq!(pitboss::web::sessions_file::keep(db, macau, two_days_on(), 1_000).unwrap(), (2, false));
        tamper(&app, east, marker, true, pitboss::web::sessions_file::LAYOUT);
        assert_eq!(file(), renamed, "[{backend}] kept in Macau's time");
        // Rows that do not unpack: read as before (and logged).
        assert_eq!(keep_at(&app, two_days_on()), (2, false), "[{backend}]");
        tamper(&app, east, b"\x40\x00\x00\x00\xff\xff", false, pitboss::web::sessions_file::LAYOUT);
        assert_eq!(file(), renamed, "[{backend}] broken rows read as before");
        tamper(&app, east, b"\xff\xff\xff\xff", false, pitboss::web::sessions_file::LAYOUT);
        assert_eq!(file(), renamed, "[{backend}] a length past the limit");
        // One table's file: its groups alone.
        let one = format!("{path}&table={west}");
        let west_read = file_as_read(&app, &one);
        assert_eq!(keep_at(&app, two_days_on()), (2, false), "[{backend}]");
        let (status, _, west_file) = get_raw(&app, &one);
        assert_eq!((status, west_file.lines().count()), (200, 1 + 3 + 1), "[{backend}] {west_file}");
        assert_eq!(west_file, west_read, "[{backend}]");
    }
}

/// The keeper of a running server keeps ended groups by itself, on its
/// clock, and stops when it is dropped.
#[test]
fn the_keeper_keeps_ended_gaming_days_by_itself() {
    for backend in backends() {
        let app = spawn_app(backend);
        let table = create_table(&app, "K", None, "UTC", "06:00");
        seat(&app, table, 1, "Kim", "10");
        expect(&app, "POST", &format!("/api/v1/tables/{table}/seats/1/cash-out"), &Value::Null, 200);
        let db = app.db.clone().unwrap();
        let keeper = pitboss::web::sessions_file::Keeper::start(
            db,
            chrono_tz::UTC,
            std::time::Duration::from_millis(100),
            two_days_on,
        );
        let started = std::time::Instant::now();
        while kept_groups(&app, table).is_empty() {
            assert!(started.elapsed() < std::time::Duration::from_secs(30), "[{backend}] kept within 30 s");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        drop(keeper);
        assert_eq!(kept_groups(&app, table).iter().map(|g| g.1).collect::<Vec<_>>(), [1], "[{backend}]");
    }
}
