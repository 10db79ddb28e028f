//! Load generator for a running pitboss service on loopback.
//!
//! `cargo run --release --example load -- commits BASE_URL TABLES SECONDS`
//!   sets up TABLES tables (4 players each, hawaiian-gardens, rake 0.50 with a
//!   jackpot part feeding one pool), then one client thread per table starts
//!   and commits hands for SECONDS seconds. Prints committed hands/s, commit
//!   latency p50/p99/max, then checks that every acknowledged hand is present
//!   exactly once and that stacks and the pool reconcile with the ledger.
//!
//! `cargo run --release --example load -- score BASE_URL THREADS SECONDS`
//!   posts showdowns to /api/v1/score with keep-alive and prints requests/s.
//!
//! Every loop is bounded by time and count; only the given base URL (a
//! loopback address) is contacted. `PITBOSS_TOKEN` is the API token of a user
//! with the admin and floor roles (`pitboss admin create … --role admin --role
//! floor`, then `pitboss admin token`); scoring needs none.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::{json, Value};

use pitboss::engine::card::{display_cards, Card};

const MAX_HANDS_PER_TABLE: usize = 100_000;

fn new_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

fn authorization() -> &'static str {
    static HEADER: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HEADER.get_or_init(|| format!("Bearer {}", std::env::var("PITBOSS_TOKEN").unwrap_or_default()))
}

fn call(agent: &ureq::Agent, method: &str, url: &str, body: Option<&Value>) -> (u16, Value) {
    let response = match (method, body) {
        ("GET", _) => agent.get(url).header("Authorization", authorization()).call(),
        (_, Some(b)) => agent.post(url).header("Authorization", authorization()).send_json(b),
        (_, None) => agent
            .post(url)
            .header("Authorization", authorization())
            .header("Content-Type", "application/json")
            .send("{}"),
    };
    match response {
        Ok(mut r) => {
            let status = r.status().as_u16();
            let value = r.body_mut().read_json::<Value>().unwrap_or(Value::Null);
            (status, value)
        }
        Err(e) => (0, json!({ "error": e.to_string() })),
    }
}

fn random_showdown(rng: &mut SmallRng, seats: &[i64]) -> Value {
    let mut deck: Vec<Card> = Card::deck().collect();
    deck.shuffle(rng);
    let seats: Vec<Value> = seats
        .iter()
        .enumerate()
        .map(|(i, &seat)| {
            let hand = &deck[i * 13..i * 13 + 13];
            json!({
                "seat": seat,
                "front": display_cards(&hand[..3]),
                "middle": display_cards(&hand[3..8]),
                "back": display_cards(&hand[8..]),
            })
        })
        .collect();
    json!({ "seats": seats })
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn commits(base: &str, tables: usize, seconds: u64) {
    let agent = new_agent();
    let api = format!("{base}/api/v1");
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis();
    let (status, pool) =
        call(&agent, "POST", &format!("{api}/pools"), Some(&json!({"name": format!("load {stamp}"), "seed": "1000"})));
    assert_eq!(status, 201, "create pool: {pool}");
    let pool_id = pool["id"].as_i64().unwrap();
    let mut table_ids = Vec::new();
    for t in 0..tables {
        let (status, table) = call(
            &agent,
            "POST",
            &format!("{api}/tables"),
            Some(&json!({"name": format!("load {stamp} #{t}"), "preset": "hawaiian-gardens", "unit": "1",
                         "rake_per_seat": "0.50", "jackpot_part": "0.10", "pool_id": pool_id})),
        );
        assert_eq!(status, 201, "create table: {table}");
        let id = table["id"].as_i64().unwrap();
        for seat in 1..=4 {
            let (status, body) = call(
                &agent,
                "POST",
                &format!("{api}/tables/{id}/seats"),
                Some(&json!({"seat": seat, "player": format!("P{seat}"), "buy_in": "1000000"})),
            );
            assert_eq!(status, 201, "seat: {body}");
        }
        table_ids.push(id);
    }
    println!("set up {tables} tables; committing for {seconds} s");
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let workers: Vec<_> = table_ids
        .iter()
        .enumerate()
        .map(|(i, &table)| {
            let api = api.clone();
            let stop = stop.clone();
            std::thread::spawn(move || {
                let agent = new_agent();
                let mut rng = SmallRng::seed_from_u64(i as u64);
                let mut latencies = Vec::new();
                let mut acknowledged = Vec::new();
                let mut errors = 0usize;
                while !stop.load(Ordering::Relaxed) && acknowledged.len() < MAX_HANDS_PER_TABLE {
                    let (status, hand) = call(&agent, "POST", &format!("{api}/tables/{table}/hands"), None);
                    if status != 201 {
                        errors += 1;
                        eprintln!("table {table}: start hand {status}: {hand}");
                        std::thread::sleep(Duration::from_millis(50));
                        continue;
                    }
                    let number = hand["number"].as_i64().unwrap();
                    let seats: Vec<i64> =
                        hand["seats"].as_array().unwrap().iter().map(|s| s["seat"].as_i64().unwrap()).collect();
                    let showdown = random_showdown(&mut rng, &seats);
                    let t0 = Instant::now();
                    let (status, body) =
                        call(&agent, "POST", &format!("{api}/tables/{table}/hands/{number}/commit"), Some(&showdown));
                    latencies.push(t0.elapsed());
                    if status == 201 {
                        acknowledged.push(number);
                    } else {
                        errors += 1;
                        eprintln!("table {table}: commit hand {number}: {status}: {body}");
                    }
                }
                (table, latencies, acknowledged, errors)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(seconds));
    stop.store(true, Ordering::Relaxed);
    let results: Vec<_> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    let elapsed = started.elapsed().as_secs_f64();
    let mut latencies: Vec<Duration> = results.iter().flat_map(|r| r.1.iter().copied()).collect();
    latencies.sort_unstable();
    let committed: usize = results.iter().map(|r| r.2.len()).sum();
    let errors: usize = results.iter().map(|r| r.3).sum();
    println!(
        "committed {committed} hands in {elapsed:.1} s: {:.0} hands/s; commit latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; errors {errors}",
        committed as f64 / elapsed,
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );

    // Every acknowledged hand is there exactly once, committed; stacks and the
    // pool reconcile with the ledger.
    let mut problems = 0;
    let mut contributions = 0i64;
    for (table, _, acknowledged, _) in &results {
        let (_, view) = call(&agent, "GET", &format!("{api}/tables/{table}"), None);
        let last = view["hand_number"].as_i64().unwrap_or(0);
        for number in acknowledged {
            let (status, hand) = call(&agent, "GET", &format!("{api}/tables/{table}/hands/{number}"), None);
            if status != 200 || hand["status"] != "committed" {
                problems += 1;
                eprintln!("table {table} hand {number} acknowledged but {status} {}", hand["status"]);
            }
        }
        let mut unique = acknowledged.clone();
        unique.dedup();
        if unique.len() != acknowledged.len() || acknowledged.iter().any(|&n| n > last) {
            problems += 1;
            eprintln!("table {table}: hand numbers out of order");
        }
        // The whole ledger, a page at a time, following each page's link.
        let mut rows: Vec<Value> = Vec::new();
        let mut next = Some(format!("/api/v1/tables/{table}/ledger"));
        while let Some(path) = next.take() {
            let url = format!("{base}{path}");
            let Ok(mut answer) = agent.get(&url).header("Authorization", authorization()).call() else {
                problems += 1;
                eprintln!("table {table}: {path} did not answer");
                break;
            };
            next = answer
                .headers()
                .get("link")
                .and_then(|l| l.to_str().ok())
                .and_then(|l| l.strip_prefix('<'))
                .and_then(|l| l.split('>').next())
                .map(str::to_string);
            let page = answer.body_mut().read_json::<Value>().unwrap_or(Value::Null);
            rows.extend(page.as_array().cloned().unwrap_or_default());
        }
        let ledger = Value::Array(rows);
        let cents = |v: &Value| -> i64 {
            let d: rust_decimal::Decimal = v.as_str().unwrap().parse().unwrap();
            i64::try_from(d * rust_decimal::Decimal::ONE_HUNDRED).unwrap()
        };
        for seat in view["seats"].as_array().unwrap() {
            let seating = seat["seating_id"].as_i64();
            let from_ledger: i64 = ledger
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["seating_id"].as_i64() == seating)
                .map(|e| cents(&e["amount"]))
                .sum();
            if from_ledger != cents(&seat["stack"]) {
                problems += 1;
                eprintln!("table {table} seat {}: stack {} but ledger {}", seat["seat"], seat["stack"], from_ledger);
            }
        }
        contributions += ledger
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "jackpot_contribution")
            .map(|e| cents(&e["amount"]))
            .sum::<i64>();
    }
    let (_, pool) = call(&agent, "GET", &format!("{api}/pools/{pool_id}"), None);
    println!("pool balance {} after {} contributions (cents) from {committed} hands", pool["balance"], contributions);
    println!("verification: {} problems", problems);
    if problems > 0 || errors > 0 {
        std::process::exit(1);
    }
}

fn score(base: &str, threads: usize, seconds: u64) {
    let url = format!("{base}/api/v1/score");
    let stop = Arc::new(AtomicBool::new(false));
    let workers: Vec<_> = (0..threads)
        .map(|i| {
            let url = url.clone();
            let stop = stop.clone();
            std::thread::spawn(move || {
                let agent = new_agent();
                let mut rng = SmallRng::seed_from_u64(i as u64);
                let mut body = random_showdown(&mut rng, &[1, 2, 3, 4]);
                for (k, s) in body["seats"].as_array_mut().unwrap().iter_mut().enumerate() {
                    s["stack"] = json!(format!("{}", 100 + k));
                }
                let text = body.to_string();
                let (mut ok, mut failed) = (0usize, 0usize);
                while !stop.load(Ordering::Relaxed) && ok < 10_000_000 {
                    match agent.post(&url).header("Content-Type", "application/json").send(&text) {
                        Ok(r) if r.status() == 200 => ok += 1,
                        _ => failed += 1,
                    }
                }
                (ok, failed)
            })
        })
        .collect();
    let started = Instant::now();
    std::thread::sleep(Duration::from_secs(seconds));
    stop.store(true, Ordering::Relaxed);
    let (ok, failed) = workers.into_iter().map(|w| w.join().unwrap()).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let elapsed = started.elapsed().as_secs_f64();
    println!("{ok} scored in {elapsed:.1} s: {:.0} requests/s; {failed} failed", ok as f64 / elapsed);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let base = arg(1, "http://127.0.0.1:8080");
    assert!(
        base.starts_with("http://127.") || base.starts_with("http://localhost"),
        "the load generator only talks to loopback"
    );
    let n: usize = arg(2, "32").parse().expect("a count");
    let seconds: u64 = arg(3, "30").parse::<u64>().expect("seconds").min(600);
    match arg(0, "commits").as_str() {
        "commits" => commits(&base, n, seconds),
        "score" => score(&base, n, seconds),
        other => panic!("unknown mode {other}: use commits or score"),
    }
}
