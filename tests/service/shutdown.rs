//! Graceful shutdown of the real binary: SIGTERM in the middle of a burst of
//! commits. A commit already in flight (its body still arriving) finishes
//! and is acknowledged; a new request is answered 503 `shutting_down` while
//! the service drains; the process then exits 0, and after a restart every
//! acknowledged hand is in the books.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::crash_recovery::{admin_token, check_books, dealers, set_up, showdown, start, TABLES};
use crate::support::{raw, request};

#[test]
fn sigterm_mid_burst_finishes_commits_in_flight_and_loses_no_acknowledged_hand() {
    for backend in crate::support::backends() {
        sigterm_mid_burst(backend);
    }
}

fn sigterm_mid_burst(backend: &str) {
    let database = crate::support::fresh_database(backend);
    let path = database.database_url.clone();
    let token = admin_token(&path);
    let mut server = start(&path, &token);
    let app = &server.app;
    set_up(app);
    // One more table, away from the burst, for the commit held in flight.
    let body = json!({"name": "Held", "preset": "hawaiian-gardens", "unit": "1"});
    let (status, table) = request(app, "POST", "/api/v1/tables", &body.to_string());
    assert_eq!(status, 201, "{table}");
    let held_table = table["id"].as_i64().unwrap();
    for seat in 1..=4 {
        let body = json!({"seat": seat, "player": format!("H{seat}"), "buy_in": "1000"});
        assert_eq!(request(app, "POST", &format!("/api/v1/tables/{held_table}/seats"), &body.to_string()).0, 201);
    }
    let (status, hand) = request(app, "POST", &format!("/api/v1/tables/{held_table}/hands"), "{}");
    assert_eq!(status, 201);
    let held_number = hand["number"].as_i64().unwrap();

    let acknowledged: Arc<Mutex<Vec<(i64, i64)>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let workers = dealers(&app.base, &token, &stop, &acknowledged);
    std::thread::sleep(Duration::from_millis(600));

    // A commit in flight: its head and half its body sent.
    let body = showdown(&[1, 2, 3, 4], 4242).to_string();
    let (first, second) = body.split_at(body.len() / 2);
    let mut held = std::net::TcpStream::connect(&app.base).unwrap();
    write!(
        held,
        "POST /api/v1/tables/{held_table}/hands/{held_number}/commit HTTP/1.1\r\nHost: {}\r\n\
         Content-Type: application/json\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{first}",
        app.base,
        body.len()
    )
    .unwrap();
    held.flush().unwrap();
    std::thread::sleep(Duration::from_millis(200));

    let sigterm = std::process::Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status();
    assert!(sigterm.unwrap().success());
    // Draining: a new request is refused with 503 `shutting_down`.
    let deadline = Instant::now() + Duration::from_secs(5);
    let refused = loop {
        let answer = raw(app, "GET", "/readyz", &[], "");
        if answer.status == 503 {
            break answer;
        }
        assert!(Instant::now() < deadline, "no 503 while draining: {} {}", answer.status, answer.body);
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(refused.body.contains("shutting_down"), "{}", refused.body);
    assert_eq!(refused.header("retry-after"), Some("5"));
    assert!(refused.header("x-request-id").is_some());
    // The commit in flight finishes and is acknowledged.
    held.write_all(second.as_bytes()).unwrap();
    let mut answer = String::new();
    held.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "the commit in flight: {answer}");
    // Then the process stops by itself, cleanly.
    let deadline = Instant::now() + Duration::from_secs(30);
    let exit = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the service did not stop after draining");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(exit.success(), "a drained service exits 0: {exit:?}");
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        w.join().unwrap();
    }

    // Restarted: every acknowledged hand is committed, the books reconcile.
    server = start(&path, &token);
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.len() > 5, "too few commits to mean anything: {}", acknowledged.len());
    let committed = check_books(&server.app, &acknowledged);
    assert!(committed >= acknowledged.len());
    let (status, hand) = request(&server.app, "GET", &format!("/api/v1/tables/{held_table}/hands/{held_number}"), "");
    assert_eq!((status, hand["status"].clone()), (200, Value::from("committed")));
    eprintln!(
        "{backend}: SIGTERM mid-burst over {TABLES} tables: {} commits acknowledged, all {committed} committed",
        acknowledged.len()
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}
