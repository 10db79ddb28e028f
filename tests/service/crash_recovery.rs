//! The real binary on SQLite (and PostgreSQL), killed with SIGKILL in the middle of commits,
//! several times, and restarted: every acknowledged commit is still there, no
//! hand is half written or doubled, and the books reconcile. Also two app
//! servers on one PostgreSQL database committing at once, one killed
//! mid-burst.

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::{request, request_with, TestApp};
use serde_json::{json, Value};

pub(super) const TABLES: i64 = 4;
const KILLS: usize = 5;

pub(super) struct Server {
    pub(super) child: Child,
    pub(super) app: TestApp,
}

impl Drop for Server {
    /// A failing test leaves no server behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An API token for a new superuser, made with `pitboss admin create` and
/// `pitboss admin token` on the database file (as an operator would).
pub(super) fn admin_token(path: &str) -> String {
    use std::io::Write;
    let mut create = Command::new(env!("CARGO_BIN_EXE_pitboss"))
        .args(["admin", "create", "--username", "boss", "--role", "admin", "--role", "floor", "--role", "dealer"])
        .env("DATABASE_URL", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    create.stdin.take().unwrap().write_all(format!("{}\n", crate::support::PASSWORD).as_bytes()).unwrap();
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

pub(super) fn start(path: &str, token: &str) -> Server {
    start_with(path, token, &[])
}

pub(super) fn start_with(path: &str, token: &str, env: &[(&str, &str)]) -> Server {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(env!("CARGO_BIN_EXE_pitboss"))
        // The allocator as the binary sets it, not as this environment may.
        .env_remove("MIMALLOC_PURGE_DELAY")
        .envs(env.iter().copied())
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
pub(super) fn showdown(seats: &[i64], seed: u64) -> Value {
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

/// A showdown in which the first seat dealt in, with a straight-flush
/// back, a full house middle and a pair front, loses all three rows to the
/// second: a bad beat, a jackpot hit (RULES §5.1). The other seats are dealt
/// from the rest of the deck, seeded.
fn bad_beat(seats: &[i64], seed: u64) -> Value {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let loser = ["3s 3d Kc", "4s 4d 4c 2s 2d", "9h 8h 7h 6h 5h"];
    let winner = ["Kd Kh 7c", "Ac Ad Ah As 2h", "Ks Qs Js Ts 9s"];
    let used: Vec<&str> = loser.iter().chain(&winner).flat_map(|r| r.split(' ')).collect();
    let mut deck: Vec<String> = "23456789TJQKA"
        .chars()
        .flat_map(|r| "shdc".chars().map(move |s| format!("{r}{s}")))
        .filter(|c| !used.contains(&c.as_str()))
        .collect();
    deck.shuffle(&mut rand::rngs::SmallRng::seed_from_u64(seed));
    let rows: Vec<Value> = seats
        .iter()
        .enumerate()
        .map(|(i, seat)| match i {
            0 => json!({"seat": seat, "front": loser[0], "middle": loser[1], "back": loser[2]}),
            1 => json!({"seat": seat, "front": winner[0], "middle": winner[1], "back": winner[2]}),
            _ => {
                let cards = &deck[(i - 2) * 13..(i - 2) * 13 + 13];
                json!({"seat": seat, "front": cards[..3].join(" "), "middle": cards[3..8].join(" "), "back": cards[8..].join(" ")})
            }
        })
        .collect();
    json!({ "seats": rows })
}

/// A pool and `TABLES` tables of four funded seats.
pub(super) fn set_up(app: &TestApp) {
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
pub(super) fn dealers(
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
                        // Gone, or draining before it stops (SIGTERM): not acknowledged.
                        0 | 503 => return,
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
pub(super) fn check_books(app: &TestApp, acknowledged: &[(i64, i64)]) -> usize {
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
        let rows = &crate::support::ledger_rows(app, table);
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
                    assert_eq!(of_kind("hand_result"), 4, "table {table} hand {number}: one row a seat");
                    assert_eq!(of_kind("reversal"), 0);
                    let rake: i64 = own.iter().filter(|r| !r["rake"].is_null()).map(|r| cents(&r["rake"])).sum();
                    assert_eq!(net("hand_result") + rake, 0, "table {table} hand {number}: settlement nets to zero");
                    assert_eq!(rake, net("house_rake") + net("jackpot_contribution"));
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

/// The pool reconciles: its balance is its first seed plus every pool row
/// at the tables (contributions, locks and re-seeds, returns, reversals).
fn check_pool(app: &TestApp) {
    let cents = |v: &Value| -> i64 {
        let d: rust_decimal::Decimal = v.as_str().unwrap().parse().unwrap();
        i64::try_from(d * rust_decimal::Decimal::ONE_HUNDRED).unwrap()
    };
    let (status, pool) = request(app, "GET", "/api/v1/pools/1", "");
    assert_eq!(status, 200, "{pool}");
    let mut sum = cents(&pool["seed"]);
    for table in 1..=TABLES {
        sum += crate::support::ledger_rows(app, table)
            .iter()
            .filter(|r| r["pool_id"] == 1)
            .map(|r| cents(&r["amount"]))
            .sum::<i64>();
    }
    assert_eq!(sum, cents(&pool["balance"]), "the pool's rows add up to its balance");
}

/// On SQLite (WAL, `synchronous = FULL`) and, when configured, PostgreSQL.
#[test]
fn sigkill_during_commits_loses_no_acknowledged_hand() {
    for backend in crate::support::backends() {
        sigkill_during_commits(backend);
    }
}

fn sigkill_during_commits(backend: &str) {
    let database = crate::support::fresh_database(backend);
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
    check_pool(&server.app);
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
    // Under this load the binary's own allocations go to mimalloc (its
    // global allocator), which has committed memory for them (a binary
    // without it as its allocator shows next to nothing: the tests' own
    // program, tests/service/ops.rs).
    let metrics = crate::support::raw(&server.app, "GET", "/metrics", &[], "");
    assert_eq!(metrics.status, 200);
    let committed = crate::support::sample(&metrics.body, "pitboss_mimalloc_committed_bytes")
        .unwrap_or_else(|| panic!("no mimalloc figure: {}", metrics.body));
    assert!(committed > 4.0 * 1024.0 * 1024.0, "mimalloc committed {committed} bytes");
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

/// Commits whose server died before it answered.
static CUT_OFF: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Dealers for two app servers: tables 1 and 2 have one client on each
/// server racing for the same hands (whoever starts a hand, both commit it
/// with the same showdown and key); tables 3 and 4 have one client that
/// starts each hand on one server and commits it on the other, alternating.
/// A client whose server is gone goes to the other one; an open hand it
/// finds (left by a killed server) it commits. Acknowledged (table, hand)
/// pairs go to `acknowledged`, possibly twice.
fn two_server_dealers(
    bases: &[String; 2],
    token: &str,
    stop: &Arc<AtomicBool>,
    acknowledged: &Arc<Mutex<Vec<(i64, i64)>>>,
) -> Vec<std::thread::JoinHandle<()>> {
    let clients: Vec<(i64, usize, bool)> =
        vec![(1, 0, false), (1, 1, false), (2, 0, false), (2, 1, false), (3, 0, true), (4, 1, true)];
    clients
        .into_iter()
        .map(|(table, first, alternate)| {
            let (stop, acknowledged) = (stop.clone(), acknowledged.clone());
            let apps = [TestApp::at(&bases[0]).with_token(token), TestApp::at(&bases[1]).with_token(token)];
            std::thread::spawn(move || {
                // The server this client uses; `dead` marks one that stopped answering.
                let mut current = first;
                let mut dead = [false, false];
                let fail_over = |current: &mut usize, dead: &mut [bool; 2]| -> bool {
                    dead[*current] = true;
                    *current = 1 - *current;
                    !dead[*current]
                };
                while !stop.load(Ordering::Relaxed) {
                    let (status, view) = request(&apps[current], "GET", &format!("/api/v1/tables/{table}"), "");
                    match status {
                        200 => {}
                        0 if fail_over(&mut current, &mut dead) => continue,
                        0 => return,
                        other => panic!("table {table}: GET answered {other} {view}"),
                    }
                    let number = match view["open_hand"].as_i64() {
                        Some(open) => open,
                        None => {
                            let (status, hand) =
                                request(&apps[current], "POST", &format!("/api/v1/tables/{table}/hands"), "{}");
                            match status {
                                201 => hand["number"].as_i64().unwrap(),
                                409 => continue, // the other client started one
                                0 if fail_over(&mut current, &mut dead) => continue,
                                0 => return,
                                other => panic!("table {table}: start answered {other} {hand}"),
                            }
                        }
                    };
                    let (status, hand) =
                        request(&apps[current], "GET", &format!("/api/v1/tables/{table}/hands/{number}"), "");
                    match status {
                        200 => {}
                        0 if fail_over(&mut current, &mut dead) => continue,
                        0 => return,
                        other => panic!("table {table} hand {number}: GET answered {other} {hand}"),
                    }
                    let seats: Vec<i64> =
                        hand["seats"].as_array().unwrap().iter().map(|s| s["seat"].as_i64().unwrap()).collect();
                    // Started on one server, committed on the other.
                    if alternate && !dead[1 - current] {
                        current = 1 - current;
                    }
                    let key = format!("t{table}h{number}");
                    // Every fifth hand a bad beat: jackpot hits lock the pool the tables share.
                    let seed = (table * 100_000 + number) as u64;
                    let body = if number % 5 == 0 { bad_beat(&seats, seed) } else { showdown(&seats, seed) };
                    let (status, answer) = request_with(
                        &apps[current],
                        "POST",
                        &format!("/api/v1/tables/{table}/hands/{number}/commit"),
                        &body.to_string(),
                        &[("Idempotency-Key", &key)],
                    );
                    match status {
                        200 | 201 => acknowledged.lock().unwrap().push((table, number)),
                        0 => {
                            CUT_OFF.fetch_add(1, Ordering::Relaxed);
                            if !fail_over(&mut current, &mut dead) {
                                return;
                            }
                        }
                        other => panic!("table {table} hand {number}: commit answered {other} {answer}"),
                    }
                }
            })
        })
        .collect()
}

/// Waits until `acknowledged` holds `count` answers (at most 20 s).
fn wait_for(acknowledged: &Arc<Mutex<Vec<(i64, i64)>>>, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while acknowledged.lock().unwrap().len() < count && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Two app servers on one PostgreSQL database commit at once (tables served
/// by both, hands started on one and committed on the other); one is killed
/// with SIGKILL mid-burst and the other carries on, twice (each server is
/// killed once, and restarted). Every acknowledged hand is committed exactly
/// once, no hand is partial, every stack and the pool reconcile, and both
/// servers show the same books.
#[test]
fn two_servers_on_one_postgres_lose_no_acknowledged_hand() {
    if std::env::var("PITBOSS_TEST_POSTGRES_URL").is_err() {
        eprintln!("PITBOSS_TEST_POSTGRES_URL is not set: skipped");
        return;
    }
    let database = crate::support::fresh_database("postgres");
    let path = database.database_url.clone();
    let token = admin_token(&path);
    let env = [("DATABASE_POOL_SIZE", "8")];
    let mut servers = [start_with(&path, &token, &env), start_with(&path, &token, &env)];
    set_up(&servers[0].app);
    let acknowledged: Arc<Mutex<Vec<(i64, i64)>>> = Arc::default();
    for round in 0..2 {
        let victim = 1 - round; // the second server first, then the first
        let stop = Arc::new(AtomicBool::new(false));
        let bases = [servers[0].app.base.clone(), servers[1].app.base.clone()];
        let workers = two_server_dealers(&bases, &token, &stop, &acknowledged);
        // Until both servers have committed a good many hands (at most 20 s).
        let start = acknowledged.lock().unwrap().len();
        wait_for(&acknowledged, start + 30 + 20 * round);
        let before = acknowledged.lock().unwrap().len();
        servers[victim].child.kill().unwrap(); // SIGKILL, mid-burst
        servers[victim].child.wait().unwrap();
        wait_for(&acknowledged, before + 15);
        let after = acknowledged.lock().unwrap().len();
        assert!(after > before, "round {round}: the surviving server went on committing ({before} → {after})");
        stop.store(true, Ordering::Relaxed);
        for w in workers {
            w.join().unwrap();
        }
        servers[victim] = start_with(&path, &token, &env);
    }
    let mut acknowledged = acknowledged.lock().unwrap().clone();
    let answers = acknowledged.len();
    acknowledged.sort_unstable();
    acknowledged.dedup();
    assert!(acknowledged.len() > 40, "too few commits to mean anything: {}", acknowledged.len());
    let committed = check_books(&servers[0].app, &acknowledged);
    check_pool(&servers[0].app);
    assert!(committed >= acknowledged.len(), "every acknowledged hand is committed, once");
    for table in 1..=TABLES {
        let path = format!("/api/v1/tables/{table}");
        assert_eq!(request(&servers[0].app, "GET", &path, "").1, request(&servers[1].app, "GET", &path, "").1);
    }
    // Jackpot hits were locked through both servers, each worth something,
    // once per trigger of a committed bad beat.
    let (_, hits) = request(&servers[0].app, "GET", "/api/v1/jackpots", "");
    let hits = hits.as_array().unwrap();
    assert!(!hits.is_empty(), "no bad beat was committed");
    for hit in hits {
        assert!(hit["amount"].as_str().unwrap().parse::<f64>().unwrap() > 0.0, "{hit}");
        let path = format!("/api/v1/tables/{}/hands/{}", hit["table_id"], hit["hand_number"]);
        let (_, hand) = request(&servers[0].app, "GET", &path, "");
        assert_eq!(hand["status"], "committed");
        assert_eq!(
            hand["jackpot_hits"].as_array().unwrap().len(),
            hand["result"]["jackpot_triggers"].as_array().unwrap().len()
        );
    }
    eprintln!(
        "two servers, two kills: {answers} commit answers for {} hands acknowledged, {committed} hands committed, \
         {} jackpot hits; {} commits cut off by a kill",
        acknowledged.len(),
        hits.len(),
        CUT_OFF.load(Ordering::Relaxed)
    );
}
