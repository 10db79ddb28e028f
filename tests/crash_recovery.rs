//! The real binary on SQLite (and PostgreSQL), killed with SIGKILL in the middle of commits,
//! several times, and restarted: every acknowledged commit is still there, no
//! hand is half written or doubled, and the books reconcile.

mod support;

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::{request, request_with, TestApp};

const TABLES: i64 = 4;
const KILLS: usize = 5;

struct Server {
    child: Child,
    app: TestApp,
}

/// An API token for a new superuser, made with `pitboss admin create` and
/// `pitboss admin token` on the database file (as an operator would).
fn admin_token(path: &str) -> String {
    use std::io::Write;
    let mut create = Command::new(env!("CARGO_BIN_EXE_pitboss"))
        .args(["admin", "create", "--username", "boss", "--role", "admin", "--role", "floor", "--role", "dealer"])
        .env("DATABASE_URL", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    create.stdin.take().unwrap().write_all(format!("{}\n", support::PASSWORD).as_bytes()).unwrap();
    let made = create.wait_with_output().unwrap();
    assert!(made.status.success(), "admin create: {}", String::from_utf8_lossy(&made.stdout));
    assert!(String::from_utf8_lossy(&made.stdout).contains("made user boss"));
    let token = Command::new(env!("CARGO_BIN_EXE_pitboss"))
        .args(["admin", "token", "--username", "boss", "--label", "crash test"])
        .env("DATABASE_URL", path)
        .output()
        .unwrap();
    assert!(token.status.success());
    let token = String::from_utf8(token.stdout).unwrap().trim().to_string();
    assert!(token.starts_with("pb_") && token.len() > 60, "{token}");
    token
}

fn start(path: &str, token: &str) -> Server {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(env!("CARGO_BIN_EXE_pitboss"))
        .env("DATABASE_URL", path)
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let app = TestApp::at(&format!("127.0.0.1:{port}")).with_token(token);
    let deadline = Instant::now() + Duration::from_secs(20);
    while request(&app, "GET", "/readyz", "").0 != 200 {
        assert!(Instant::now() < deadline, "the server did not come up");
        std::thread::sleep(Duration::from_millis(50));
    }
    Server { child, app }
}

/// A random, valid showdown for these seats (a shuffled deck, seeded).
fn showdown(seats: &[i64], seed: u64) -> Value {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut deck: Vec<String> =
        "23456789TJQKA".chars().flat_map(|r| "shdc".chars().map(move |s| format!("{r}{s}"))).collect();
    deck.shuffle(&mut rand::rngs::SmallRng::seed_from_u64(seed));
    let rows: Vec<Value> = seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            let cards = &deck[i * 13..i * 13 + 13];
            json!({"seat": seat, "front": cards[..3].join(" "), "middle": cards[3..8].join(" "), "back": cards[8..].join(" ")})
        })
        .collect();
    json!({ "seats": rows })
}

/// A pool and `TABLES` tables of four funded seats.
fn set_up(app: &TestApp) {
    let (status, pool) = request(app, "POST", "/api/v1/pools", r#"{"name":"pool","seed":"100"}"#);
    assert_eq!(status, 201, "{pool}");
    for t in 1..=TABLES {
        let body = json!({"name": format!("T{t}"), "preset": "hawaiian-gardens", "unit": "1",
                          "rake_per_seat": "0.50", "jackpot_part": "0.10", "pool_id": pool["id"]});
        assert_eq!(request(app, "POST", "/api/v1/tables", &body.to_string()).0, 201);
        for seat in 1..=4 {
            let body = json!({"seat": seat, "player": format!("P{seat}"), "buy_in": "100000"});
            assert_eq!(request(app, "POST", &format!("/api/v1/tables/{t}/seats"), &body.to_string()).0, 201);
        }
    }
}

/// One client thread per table starting and committing hands until `stop`
/// (or until the server is gone); acknowledged (table, hand) pairs go to
/// `acknowledged`.
fn dealers(
    base: &str,
    token: &str,
    stop: &Arc<AtomicBool>,
    acknowledged: &Arc<Mutex<Vec<(i64, i64)>>>,
) -> Vec<std::thread::JoinHandle<()>> {
    (1..=TABLES)
        .map(|table| {
            let (stop, acknowledged, base) = (stop.clone(), acknowledged.clone(), base.to_string());
            let token = token.to_string();
            std::thread::spawn(move || {
                let app = TestApp::at(&base).with_token(&token);
                while !stop.load(Ordering::Relaxed) {
                    let (status, hand) = request(&app, "POST", &format!("/api/v1/tables/{table}/hands"), "{}");
                    let number = match (status, &hand["number"]) {
                        (201, n) => n.as_i64().unwrap(),
                        (409, _) => {
                            // An open hand left by the last crash: void it as a misdeal.
                            let (_, t) = request(&app, "GET", &format!("/api/v1/tables/{table}"), "");
                            if let Some(open) = t["open_hand"].as_i64() {
                                request(
                                    &app,
                                    "POST",
                                    &format!("/api/v1/tables/{table}/hands/{open}/void"),
                                    r#"{"reason":"misdeal","note":"open after a restart"}"#,
                                );
                            }
                            continue;
                        }
                        _ => return, // the server is gone
                    };
                    let seats: Vec<i64> =
                        hand["seats"].as_array().unwrap().iter().map(|s| s["seat"].as_i64().unwrap()).collect();
                    let key = format!("t{table}h{number}");
                    let (status, _) = request_with(
                        &app,
                        "POST",
                        &format!("/api/v1/tables/{table}/hands/{number}/commit"),
                        &showdown(&seats, (table * 100_000 + number) as u64).to_string(),
                        &[("Idempotency-Key", &key)],
                    );
                    match status {
                        200 | 201 => acknowledged.lock().unwrap().push((table, number)),
                        0 => return,
                        other => panic!("commit answered {other}"),
                    }
                }
            })
        })
        .collect()
}

/// Checks the books: the `acknowledged` hands are committed; no hand is
/// partial or doubled; every stack is the sum of its rows. Returns the number
/// of committed hands.
fn check_books(app: &TestApp, acknowledged: &[(i64, i64)]) -> usize {
    for &(table, number) in acknowledged {
        let (status, hand) = request(app, "GET", &format!("/api/v1/tables/{table}/hands/{number}"), "");
        assert_eq!((status, hand["status"].as_str()), (200, Some("committed")), "table {table} hand {number}");
    }
    // No partial or doubled hand: an open hand has no rows; a committed one
    // has its rake once per seat and settlement rows that net to zero; a
    // voided one is reversed row for row. Every stack is the sum of its rows.
    let cents = |v: &Value| -> i64 {
        let d: rust_decimal::Decimal = v.as_str().unwrap().parse().unwrap();
        i64::try_from(d * rust_decimal::Decimal::ONE_HUNDRED).unwrap()
    };
    let mut committed = 0;
    for table in 1..=TABLES {
        let (_, view) = request(app, "GET", &format!("/api/v1/tables/{table}"), "");
        let (_, ledger) = request(app, "GET", &format!("/api/v1/tables/{table}/ledger"), "");
        let rows = ledger.as_array().unwrap();
        for number in 1..=view["hand_number"].as_i64().unwrap() {
            let (_, hand) = request(app, "GET", &format!("/api/v1/tables/{table}/hands/{number}"), "");
            let own: Vec<&Value> = rows.iter().filter(|r| r["hand_id"] == hand["id"]).collect();
            let of_kind = |kind: &str| own.iter().filter(|r| r["kind"] == kind).count();
            let net = |kind: &str| own.iter().filter(|r| r["kind"] == kind).map(|r| cents(&r["amount"])).sum::<i64>();
            let status = hand["status"].as_str().unwrap();
            match status {
                "open" => assert!(own.is_empty(), "table {table} hand {number}: open with rows"),
                "committed" => {
                    committed += 1;
                    assert_eq!(of_kind("rake"), 4, "table {table} hand {number}: rake once per seat");
                    assert_eq!(of_kind("reversal"), 0);
                    assert_eq!(net("settlement"), 0, "table {table} hand {number}: settlement nets to zero");
                    assert_eq!(net("rake") + net("house_rake") + net("jackpot_contribution"), 0);
                }
                "voided" => {
                    assert_eq!(of_kind("reversal") * 2, own.len(), "table {table} hand {number}: reversed row for row");
                    assert_eq!(own.iter().map(|r| cents(&r["amount"])).sum::<i64>(), 0);
                }
                other => panic!("table {table} hand {number}: status {other}"),
            }
        }
        for seat in view["seats"].as_array().unwrap() {
            let sum: i64 =
                rows.iter().filter(|r| r["seating_id"] == seat["seating_id"]).map(|r| cents(&r["amount"])).sum();
            assert_eq!(sum, cents(&seat["stack"]), "table {table} seat {}", seat["seat"]);
        }
    }
    committed
}

/// On SQLite (WAL, `synchronous = FULL`) and, when configured, PostgreSQL.
#[test]
fn sigkill_during_commits_loses_no_acknowledged_hand() {
    for backend in support::backends() {
        sigkill_during_commits(backend);
    }
}

fn sigkill_during_commits(backend: &str) {
    let database = support::fresh_database(backend);
    let path = database.database_url.clone();
    let token = admin_token(&path);
    let mut server = start(&path, &token);
    set_up(&server.app);
    let acknowledged: Arc<Mutex<Vec<(i64, i64)>>> = Arc::default();
    for round in 0..KILLS {
        let stop = Arc::new(AtomicBool::new(false));
        let workers = dealers(&server.app.base, &token, &stop, &acknowledged);
        std::thread::sleep(Duration::from_millis(300 + 150 * round as u64));
        server.child.kill().unwrap(); // SIGKILL
        server.child.wait().unwrap();
        stop.store(true, Ordering::Relaxed);
        for w in workers {
            w.join().unwrap();
        }
        server = start(&path, &token);
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.len() > 20, "too few commits to mean anything: {}", acknowledged.len());
    let committed = check_books(&server.app, &acknowledged);
    assert!(committed >= acknowledged.len(), "every acknowledged hand is committed, once");
    eprintln!("{backend}: {KILLS} kills: {} commits acknowledged, {committed} hands committed", acknowledged.len());
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}

#[test]
fn a_backup_taken_under_load_restores_with_the_books_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.sqlite").to_string_lossy().to_string();
    let copy = dir.path().join("backup.sqlite").to_string_lossy().to_string();
    let token = admin_token(&path);
    let mut server = start(&path, &token);
    set_up(&server.app);
    let acknowledged: Arc<Mutex<Vec<(i64, i64)>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let workers = dealers(&server.app.base, &token, &stop, &acknowledged);
    std::thread::sleep(Duration::from_millis(700));
    let before: Vec<(i64, i64)> = acknowledged.lock().unwrap().clone();
    let out = Command::new(env!("CARGO_BIN_EXE_pitboss"))
        .args(["backup", &copy])
        .env("DATABASE_URL", &path)
        .output()
        .unwrap();
    assert!(out.status.success(), "backup failed: {}", String::from_utf8_lossy(&out.stderr));
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        w.join().unwrap();
    }
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    // A second backup to the same file is refused.
    let again = Command::new(env!("CARGO_BIN_EXE_pitboss"))
        .args(["backup", &copy])
        .env("DATABASE_URL", &path)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    // Restore: serve the copy. Hands acknowledged before the backup began are in it.
    let mut restored = start(&copy, &token);
    assert!(!before.is_empty(), "no hand was committed before the backup");
    let committed = check_books(&restored.app, &before);
    assert!(committed >= before.len());
    restored.child.kill().unwrap();
    restored.child.wait().unwrap();
}
