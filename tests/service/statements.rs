//! What a hand costs the database: the SQL statements a start and a commit
//! run, end to end through HTTP (signing in, the pool's connection check and
//! the transaction included), counted by diesel's instrumentation; and what
//! a write that could not take its turn leaves on its connection.

use diesel::connection::SimpleConnection;
use diesel::Connection;
use serde_json::json;

use crate::support::{backends, fresh_database, request, spawn_app};

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
            // pool's connections they happen to use), but on PostgreSQL the
            // one that begins each write and takes its table's lock in the
            // same round trip (`BEGIN; SELECT … FOR UPDATE`, two statements
            // of the simple protocol, parsed each time).
            let begun = u64::from(backend == "postgres");
            if n >= 3 {
                assert_eq!(
                    (start_unprepared, commit_unprepared),
                    (begun, begun),
                    "[{backend}] hand {n}: statements parsed and planned again (RUST_LOG=pitboss::sql=debug names them)"
                );
            }
        }
        assert!(worst.0 <= 10, "[{backend}] starting a hand ran {} statements", worst.0);
        assert!(worst.1 <= 10, "[{backend}] committing a hand ran {} statements", worst.1);
    }
}

/// On PostgreSQL a write's `BEGIN` and its lock go to the server as one
/// message. Where the lock fails (here a `lock_timeout`, while another app
/// server holds the turn), the transaction the server had begun is rolled
/// back: the pool's one connection serves the next write, with no
/// transaction left open on it (which would refuse every later statement of
/// that connection as "current transaction is aborted").
#[test]
fn a_write_that_cannot_take_its_turn_leaves_no_transaction_open() {
    if !backends().contains(&"postgres") {
        return;
    }
    let app = fresh_database("postgres");
    let name = app.database_url.rsplit('/').next().unwrap().to_string();
    let mut other = diesel::pg::PgConnection::establish(&app.database_url).unwrap();
    other.batch_execute(&format!("ALTER DATABASE {name} SET lock_timeout = '200ms'")).unwrap();
    let db = pitboss::db::connect(&app.database_url, 1).expect("database");
    // Another app server holds the turn of changes to no one table.
    other.batch_execute(&format!("SELECT pg_advisory_lock({})", pitboss::db::UNTABLED_TURN)).unwrap();
    let refused = db.write(None, |conn| conn.batch_execute("SELECT 1").map_err(Into::into)).unwrap_err();
    assert_eq!((refused.kind, refused.code), (pitboss::domain::Kind::Unavailable, "table_busy"), "{refused:?}");
    assert!(refused.message.contains("no one table") && refused.message.contains("lock timeout"), "{refused:?}");
    // A table's turn, held by a transaction of the other server.
    other.batch_execute(&format!("SELECT pg_advisory_unlock({})", pitboss::db::UNTABLED_TURN)).unwrap();
    let made = db.write(None, |conn| {
        conn.batch_execute(
            "INSERT INTO casino_tables (name, seat_count, time_zone, gaming_day_cutoff, created_at) \
             VALUES ('T', 4, 'UTC', '06:00', now())",
        )?;
        Ok(())
    });
    assert!(made.is_ok(), "{made:?}");
    other.batch_execute("BEGIN; SELECT 1 FROM casino_tables FOR UPDATE").unwrap();
    let table = pitboss::domain::TableId(1);
    let refused = db.write(Some(table), |conn| conn.batch_execute("SELECT 1").map_err(Into::into)).unwrap_err();
    assert_eq!((refused.kind, refused.code), (pitboss::domain::Kind::Unavailable, "table_busy"), "{refused:?}");
    assert!(refused.message.contains("table 1's turn") && refused.message.contains("lock timeout"), "{refused:?}");
    other.batch_execute("ROLLBACK").unwrap();
    // The same connection, the next write: it begins, runs and commits.
    let written = db.write(Some(table), |conn| {
        conn.batch_execute("UPDATE casino_tables SET name = 'T2'")?;
        Ok(())
    });
    assert!(written.is_ok(), "{written:?}");
    let mut check = diesel::pg::PgConnection::establish(&app.database_url).unwrap();
    let renamed: Vec<String> = diesel::RunQueryDsl::load(
        diesel::dsl::sql::<diesel::sql_types::Text>("SELECT name FROM casino_tables"),
        &mut check,
    )
    .unwrap();
    assert_eq!(renamed, ["T2"]);
}

/// Over HTTP: a change that waits for its table's turn past the database's
/// `lock_timeout` (another app server's transaction holds it) is answered
/// 503 `table_busy` with a `Retry-After`, naming the table, and writes
/// nothing; sent again once the turn is free, it is made once.
#[test]
fn a_change_that_cannot_take_its_turn_is_answered_503_and_can_be_sent_again() {
    if !backends().contains(&"postgres") {
        return;
    }
    let mut app = fresh_database("postgres");
    let name = app.database_url.rsplit('/').next().unwrap().to_string();
    let mut other = diesel::pg::PgConnection::establish(&app.database_url).unwrap();
    other.batch_execute(&format!("ALTER DATABASE {name} SET lock_timeout = '300ms'")).unwrap();
    let db = pitboss::db::connect(&app.database_url, 2).expect("database");
    let token = crate::support::make_user(&db, "boss", &["admin", "floor", "dealer"], &[]);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = listener.local_addr().unwrap().to_string();
    crate::support::serve(&mut app, pitboss::web::run(listener, db.clone()).unwrap());
    let client = crate::support::TestApp::at(&base).with_token(&token);
    let table = json!({"name": "T", "preset": "hawaiian-gardens", "unit": "1"});
    assert_eq!(request(&client, "POST", "/api/v1/tables", &table.to_string()).0, 201);
    let seat = json!({"seat": 1, "player": "Ann", "buy_in": "100"}).to_string();
    let auth =
        [("Authorization".to_string(), format!("Bearer {token}")), ("Content-Type".into(), "application/json".into())];

    other.batch_execute("BEGIN; SELECT 1 FROM casino_tables WHERE id = 1 FOR UPDATE").unwrap();
    let refused = crate::support::raw(&client, "POST", "/api/v1/tables/1/seats", &auth, &seat);
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert_eq!(refused.header("retry-after"), Some("1"));
    let body: serde_json::Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(body["code"], "table_busy", "{body}");
    assert!(body["error"].as_str().unwrap().contains("table 1's turn"), "{body}");
    other.batch_execute("ROLLBACK").unwrap();

    let (status, seated) = request(&client, "POST", "/api/v1/tables/1/seats", &seat);
    assert_eq!(status, 201, "{seated}");
    let (_, rows) = request(&client, "GET", "/api/v1/tables/1/ledger", "");
    let rows = rows.as_array().expect("the table's ledger");
    assert_eq!(rows.len(), 1, "one buy-in: the refused request wrote nothing: {rows:?}");
    assert_eq!(rows[0]["kind"], "buy_in", "{rows:?}");
}
