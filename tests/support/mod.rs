//! Test support: the real app on a free port, on a fresh database. SQLite by
//! default (a temporary file per test); PostgreSQL when
//! `PITBOSS_TEST_POSTGRES_URL` is set (a fresh database per test, dropped
//! afterwards).
#![allow(dead_code)]

use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};

use diesel::connection::SimpleConnection;
use diesel::Connection;

pub struct TestApp {
    pub base: String,
    pub database_url: String,
    /// The API token every `request` sends: the test superuser `boss`
    /// (every role), unless a test says otherwise.
    pub token: String,
    /// The database, for making more users.
    pub db: Option<pitboss::db::Database>,
    _dir: Option<tempfile::TempDir>,
    pg_admin: Option<(String, String)>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some((admin, name)) = &self.pg_admin {
            if let Ok(mut c) = diesel::pg::PgConnection::establish(admin) {
                let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
            }
        }
    }
}

impl TestApp {
    /// A client for a service some other way started at `base` (host:port).
    pub fn at(base: &str) -> TestApp {
        TestApp {
            base: base.to_string(),
            database_url: String::new(),
            token: String::new(),
            db: None,
            _dir: None,
            pg_admin: None,
        }
    }

    /// The same client with another API token.
    pub fn with_token(mut self, token: &str) -> TestApp {
        self.token = token.to_string();
        self
    }

    /// Makes a user with `roles` (dealer tables `tables`) and the password
    /// `PASSWORD`; answers an API token of theirs.
    pub fn user(&self, username: &str, roles: &[&str], tables: &[i64]) -> String {
        let db = self.db.as_ref().expect("a spawned app");
        make_user(db, username, roles, tables)
    }
}

/// The password of every test user.
pub const PASSWORD: &str = "correct horse battery";

pub fn make_user(db: &pitboss::db::Database, username: &str, roles: &[&str], tables: &[i64]) -> String {
    use pitboss::db::{audit::Actor, users};
    let actor = Actor::command_line();
    let req = users::NewUserRequest {
        username: username.to_string(),
        display_name: None,
        roles: roles.iter().map(|r| r.to_string()).collect(),
        password: PASSWORD.to_string(),
        tables: tables.to_vec(),
    };
    let user = users::create_user(db, &actor, &req, false).expect("make a test user");
    users::create_token(db, &actor, user.id, &users::NewTokenRequest { label: "tests".to_string() })
        .expect("make a test token")
        .token
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// The backends to run a scenario on: SQLite always, PostgreSQL when configured.
pub fn backends() -> Vec<&'static str> {
    let mut b = vec!["sqlite"];
    if std::env::var("PITBOSS_TEST_POSTGRES_URL").is_ok() {
        b.push("postgres");
    }
    b
}

pub fn spawn_app(backend: &str) -> TestApp {
    let (database_url, dir, pg_admin) = match backend {
        "postgres" => {
            let admin = std::env::var("PITBOSS_TEST_POSTGRES_URL").expect("PITBOSS_TEST_POSTGRES_URL");
            let name = format!("pitboss_t_{}_{}", std::process::id(), COUNTER.fetch_add(1, Ordering::SeqCst));
            let mut c = diesel::pg::PgConnection::establish(&admin).expect("connect to PostgreSQL");
            // Two statements: DROP DATABASE cannot run inside a transaction block.
            c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).expect("drop stale test database");
            c.batch_execute(&format!("CREATE DATABASE {name}")).expect("create test database");
            let (prefix, _) = admin.rsplit_once('/').expect("a database URL ends with /name");
            (format!("{prefix}/{name}"), None, Some((admin, name)))
        }
        _ => {
            let dir = tempfile::tempdir().unwrap();
            let url = dir.path().join("test.sqlite").to_string_lossy().to_string();
            (url, Some(dir), None)
        }
    };
    let db = pitboss::db::connect(&database_url, 8).expect("database");
    let token = make_user(&db, "boss", &["dealer", "floor", "accountant", "admin"], &[]);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = pitboss::web::run(listener, db.clone()).unwrap();
    std::thread::spawn(move || actix_web::rt::System::new().block_on(server));
    TestApp { base: format!("127.0.0.1:{port}"), database_url, token, db: Some(db), _dir: dir, pg_admin }
}

/// A minimal blocking HTTP/1.1 client: (status, JSON body or Null); status 0
/// when nothing answered.
pub fn request(app: &TestApp, method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
    request_with(app, method, path, body, &[])
}

pub fn request_with(
    app: &TestApp,
    method: &str,
    path: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> (u16, serde_json::Value) {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(&app.base) else {
        return (0, serde_json::Value::Null); // nothing listening
    };
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        app.base,
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    let says_who =
        headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("authorization") || k.eq_ignore_ascii_case("cookie"));
    if !says_who && !app.token.is_empty() {
        head.push_str(&format!("Authorization: Bearer {}\r\n", app.token));
    }
    head.push_str("\r\n");
    if stream.write_all(head.as_bytes()).is_err() {
        return (0, serde_json::Value::Null);
    }
    let _ = stream.write_all(body.as_bytes());
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let text = String::from_utf8_lossy(&response);
    let status: u16 = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(serde_json::Value::Null))
}
