//! What a hand costs the database: the SQL statements a start and a commit
//! run, end to end through HTTP (signing in, the pool's connection check and
//! the transaction included), counted by diesel's instrumentation.

use serde_json::json;

use crate::support::{backends, request, spawn_app};

fn deal(seats: &[i64]) -> serde_json::Value {
    let rows = [
        ("Ah Ad 2c", "Kh Kd Kc 3c 4d", "5s 6s 7s 8s 9s"),
        ("Qs Qh 3d", "Ts Th Td 5d 6d", "7h 8h 9h Jh 2h"),
        ("Js Jd 4c", "9d 9c 5c 5h 6c", "Ac Qc Tc 8c 7c"),
        ("As Ks Qd", "4s 4h 8d Jc 6h", "2s 2d 3s 3h 7d"),
    ];
    let seats: Vec<_> =
        seats.iter().zip(rows).map(|(s, (f, m, b))| json!({"seat": s, "front": f, "middle": m, "back": b})).collect();
    json!({ "seats": seats })
}

#[test]
fn a_hand_costs_at_most_ten_statements_to_start_and_ten_to_commit() {
    let _ = env_logger::builder().is_test(true).try_init();
    pitboss::db::watch_statements();
    for backend in backends() {
        let app = spawn_app(backend);
        let pool = request(&app, "POST", "/api/v1/pools", &json!({"name": "P", "seed": "100"}).to_string()).1;
        let table = json!({"name": "T", "preset": "hawaiian-gardens", "unit": "1", "rake_per_seat": "0.50",
                           "jackpot_part": "0.10", "pool_id": pool["id"]});
        assert_eq!(request(&app, "POST", "/api/v1/tables", &table.to_string()).0, 201);
        for seat in 1..=4 {
            let body = json!({"seat": seat, "player": format!("P{seat}"), "buy_in": "1000"});
            assert_eq!(request(&app, "POST", "/api/v1/tables/1/seats", &body.to_string()).0, 201);
        }
        let url = &app.database_url;
        let mut worst = (0, 0);
        for n in 1..=5 {
            let (before, unprepared) = (pitboss::db::statements(url), pitboss::db::unprepared(url));
            let (status, _) = request(&app, "POST", "/api/v1/tables/1/hands", "{}");
            assert_eq!(status, 201);
            let started = pitboss::db::statements(url) - before;
            let start_unprepared = pitboss::db::unprepared(url) - unprepared;
            let (before, unprepared) = (pitboss::db::statements(url), pitboss::db::unprepared(url));
            let (status, answer) =
                request(&app, "POST", &format!("/api/v1/tables/1/hands/{n}/commit"), &deal(&[1, 2, 3, 4]).to_string());
            assert_eq!(status, 201, "{answer}");
            let committed = pitboss::db::statements(url) - before;
            let commit_unprepared = pitboss::db::unprepared(url) - unprepared;
            eprintln!(
                "[{backend}] hand {n}: start {started} statements ({start_unprepared} prepared again), commit \
                 {committed} ({commit_unprepared} prepared again)"
            );
            worst = (worst.0.max(started), worst.1.max(committed));
            // From the third hand on, every statement is one the connections
            // keep prepared (the first hands prepare them, on each of the
            // pool's connections they happen to use).
            if n >= 3 {
                assert_eq!(
                    (start_unprepared, commit_unprepared),
                    (0, 0),
                    "[{backend}] hand {n}: statements parsed and planned again (RUST_LOG=pitboss::sql=debug names them)"
                );
            }
        }
        assert!(worst.0 <= 10, "[{backend}] starting a hand ran {} statements", worst.0);
        assert!(worst.1 <= 10, "[{backend}] committing a hand ran {} statements", worst.1);
    }
}
