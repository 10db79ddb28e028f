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
    /// A session cookie (`pitboss_session=…`) every `request` sends instead
    /// of the token, when set (`signed_in`).
    pub cookie: String,
    /// The database, for making more users.
    pub db: Option<pitboss::db::Database>,
    _dir: Option<tempfile::TempDir>,
    pg_admin: Option<(String, String)>,
    /// The server this app started (`serve`), stopped when it is dropped.
    server: Option<(actix_web::dev::ServerHandle, std::thread::JoinHandle<()>)>,
}

impl Drop for TestApp {
    /// Stops the server, then lets go of the database (its pool), then drops
    /// a PostgreSQL database. A server left running kept its pool alive for
    /// the rest of the run, and a pool whose database was dropped under it
    /// dials it again every few seconds in its own threads until the process
    /// ends, which is a load on the whole run, and a crash at its exit when a
    /// dial is in OpenSSL while the exit handlers tear OpenSSL down.
    fn drop(&mut self) {
        if let Some((handle, thread)) = self.server.take() {
            // On a thread of its own: a browser test drops its app inside
            // its own runtime, which cannot start another.
            let _ = std::thread::spawn(move || actix_web::rt::System::new().block_on(handle.stop(false))).join();
            let _ = thread.join();
        }
        self.db = None;
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
            cookie: String::new(),
            db: None,
            _dir: None,
            pg_admin: None,
            server: None,
        }
    }

    /// The same client with another API token.
    pub fn with_token(mut self, token: &str) -> TestApp {
        self.token = token.to_string();
        self
    }

    /// A client signed in as `username` (password `PASSWORD`) through the
    /// sign-in page: its requests carry the session cookie, as a person's
    /// browser would (jackpot sign-offs need a person, not a token).
    pub fn signed_in(&self, username: &str) -> TestApp {
        let cookie = Browser::signed_in(self, username).cookie;
        let mut app = TestApp::at(&self.base);
        app.cookie = cookie;
        app
    }

    /// Makes a user with `roles` (dealer tables `tables`) and signs them in.
    pub fn person(&self, username: &str, roles: &[&str], tables: &[i64]) -> TestApp {
        self.user(username, roles, tables);
        self.signed_in(username)
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
    use pitboss::domain::{Actor, TableId};
    use pitboss::service::users;
    let actor = Actor::command_line();
    let req = users::NewUserRequest {
        username: username.to_string(),
        display_name: None,
        roles: roles.iter().map(|r| r.to_string()).collect(),
        password: PASSWORD.to_string(),
        tables: tables.iter().copied().map(TableId).collect(),
    };
    let user = users::create_user(db, &actor, req, false).expect("make a test user");
    users::create_token(
        db,
        &actor,
        user.id,
        users::NewTokenRequest { label: "tests".to_string(), ..Default::default() },
    )
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
    spawn_app_with(backend, true)
}

/// A new installation: no user at all.
pub fn spawn_empty_app(backend: &str) -> TestApp {
    spawn_app_with(backend, false)
}

/// A fresh, empty database for `backend` (no server): SQLite in a temporary
/// directory, or a new PostgreSQL database dropped with the returned value.
pub fn fresh_database(backend: &str) -> TestApp {
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
    TestApp {
        base: String::new(),
        database_url,
        token: String::new(),
        cookie: String::new(),
        db: None,
        _dir: dir,
        pg_admin,
        server: None,
    }
}

fn spawn_app_with(backend: &str, boss: bool) -> TestApp {
    let mut app = fresh_database(backend);
    let db = pitboss::db::connect(&app.database_url, 8).expect("database");
    let token =
        if boss { make_user(&db, "boss", &["dealer", "floor", "accountant", "admin"], &[]) } else { String::new() };
    start_server(&mut app, db);
    app.token = token;
    app
}

/// A server on `db` for `app` (its address, its database handle).
fn start_server(app: &mut TestApp, db: pitboss::db::Database) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    serve(app, pitboss::web::run(listener, db.clone()).unwrap());
    app.base = format!("127.0.0.1:{port}");
    app.db = Some(db);
}

/// The service started again on `app`'s database, as after an upgrade: a
/// new pool (new connections) and a new server; tokens and users stay.
pub fn restart(app: &mut TestApp) {
    let db = pitboss::db::connect(&app.database_url, 8).expect("the database opens again");
    start_server(app, db);
}

/// Runs `server` on a thread of its own, for as long as `app` lives.
pub fn serve(app: &mut TestApp, server: actix_web::dev::Server) {
    let handle = server.handle();
    let thread = std::thread::spawn(move || {
        let _ = actix_web::rt::System::new().block_on(server);
    });
    app.server = Some((handle, thread));
}

/// A JSON request (`Null`: no body) answered with `status`; its answer.
pub fn expect(app: &TestApp, method: &str, path: &str, body: &serde_json::Value, status: u16) -> serde_json::Value {
    let text = if body.is_null() { String::new() } else { body.to_string() };
    let (got, answer) = request(app, method, path, &text);
    assert_eq!(got, status, "{method} {path} {text}\nanswered {got}: {answer}");
    answer
}

/// A JSON request refused with `status` and the error `code`; its answer.
pub fn refused(
    app: &TestApp,
    method: &str,
    path: &str,
    body: &serde_json::Value,
    status: u16,
    code: &str,
) -> serde_json::Value {
    let answer = expect(app, method, path, body, status);
    assert_eq!(answer["code"], code, "{answer}");
    answer
}

/// Every ledger row of a table, oldest first, read a page at a time: each
/// page from the `Link` of the one before, until a page without one.
pub fn ledger_rows(app: &TestApp, table: i64) -> Vec<serde_json::Value> {
    let auth = if app.token.is_empty() {
        ("Cookie".to_string(), app.cookie.clone())
    } else {
        ("Authorization".to_string(), format!("Bearer {}", app.token))
    };
    let mut rows: Vec<serde_json::Value> = Vec::new();
    let mut next = Some(format!("/api/v1/tables/{table}/ledger?limit=100"));
    while let Some(path) = next {
        let page = raw(app, "GET", &path, std::slice::from_ref(&auth), "");
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        let found: Vec<serde_json::Value> = serde_json::from_str(&page.body).expect("a page of rows");
        rows.extend(found);
        next = page.header("link").map(|l| l.trim_start_matches('<').split('>').next().unwrap().to_string());
    }
    rows
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
    if !says_who && !app.cookie.is_empty() {
        head.push_str(&format!("Cookie: {}\r\n", app.cookie));
    } else if !says_who && !app.token.is_empty() {
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

/// A raw HTTP answer.
pub struct Answer {
    pub status: u16,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn location(&self) -> &str {
        self.header("location").unwrap_or("")
    }
}

/// A sample's value in Prometheus text: the line that starts with `series`.
pub fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find(|l| l.starts_with(series)).and_then(|l| l.rsplit(' ').next()).and_then(|v| v.parse().ok())
}

/// Sends one request with exactly these headers (no token added).
pub fn raw(app: &TestApp, method: &str, path: &str, headers: &[(String, String)], body: &str) -> Answer {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(&app.base).expect("the app listens");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        app.base,
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let end = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(response.len());
    let head = String::from_utf8_lossy(&response[..end]).to_string();
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let body = response.get(end + 4..).unwrap_or_default();
    let chunked = headers.iter().any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked { unchunk(body) } else { body.to_vec() };
    Answer { status, headers, body: String::from_utf8_lossy(&body).to_string() }
}

/// A body sent in chunks (`Transfer-Encoding: chunked`), put together;
/// panics on a body cut short (an answer that stopped part way).
pub fn unchunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line = body.windows(2).position(|w| w == b"\r\n").expect("a chunk's size line");
        let size = std::str::from_utf8(&body[..line]).unwrap().split(';').next().unwrap().trim().to_string();
        let size = usize::from_str_radix(&size, 16).expect("a chunk's size in hex");
        body = &body[line + 2..];
        if size == 0 {
            return out;
        }
        assert!(body.len() >= size + 2, "a chunk cut short: the answer stopped part way");
        out.extend_from_slice(&body[..size]);
        body = &body[size + 2..];
    }
}

pub fn form_encode(fields: &[(&str, &str)]) -> String {
    let enc = |s: &str| -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
                b' ' => "+".to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    fields.iter().map(|(k, v)| format!("{}={}", enc(k), enc(v))).collect::<Vec<_>>().join("&")
}

/// A browser without JavaScript: keeps the session cookie, reads the form
/// token from the pages it gets, and posts forms from this site (Origin).
pub struct Browser<'a> {
    pub app: &'a TestApp,
    pub cookie: String,
    pub csrf: String,
}

impl<'a> Browser<'a> {
    pub fn new(app: &'a TestApp) -> Browser<'a> {
        Browser { app, cookie: String::new(), csrf: String::new() }
    }

    fn remember(&mut self, answer: &Answer) {
        for (k, v) in &answer.headers {
            if k == "set-cookie" {
                let pair = v.split(';').next().unwrap_or("").trim().to_string();
                let removed = v.to_ascii_lowercase().contains("max-age=0") || pair.ends_with('=');
                self.cookie = if removed { String::new() } else { pair };
            }
        }
        if let Some(at) = answer.body.find("name=\"csrf_token\" value=\"") {
            let rest = &answer.body[at + 25..];
            self.csrf = rest[..rest.find('"').unwrap_or(0)].to_string();
        }
    }

    fn headers(&self) -> Vec<(String, String)> {
        let mut h = Vec::new();
        if !self.cookie.is_empty() {
            h.push(("Cookie".to_string(), self.cookie.clone()));
        }
        h
    }

    pub fn get(&mut self, path: &str) -> Answer {
        let answer = raw(self.app, "GET", path, &self.headers(), "");
        self.remember(&answer);
        answer
    }

    /// Posts a form with the page's token (unless `fields` has its own).
    pub fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Answer {
        let csrf = self.csrf.clone();
        let mut all: Vec<(&str, &str)> = fields.to_vec();
        if !fields.iter().any(|(k, _)| *k == "csrf_token") {
            all.push(("csrf_token", &csrf));
        }
        self.post_raw(path, &form_encode(&all))
    }

    pub fn post_raw(&mut self, path: &str, body: &str) -> Answer {
        let mut headers = self.headers();
        headers.push(("Origin".to_string(), format!("http://{}", self.app.base)));
        headers.push(("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()));
        let answer = raw(self.app, "POST", path, &headers, body);
        self.remember(&answer);
        answer
    }

    /// Signs in through the sign-in page; panics unless it works.
    pub fn signed_in(app: &'a TestApp, username: &str) -> Browser<'a> {
        let mut b = Browser::new(app);
        assert_eq!(b.get("/login").status, 200);
        let answer = b.post("/login", &[("username", username), ("password", PASSWORD), ("next", "/")]);
        assert_eq!(answer.status, 303, "sign-in of {username}: {}", answer.body);
        assert_eq!(b.get("/").status, 200);
        b
    }
}

/// GETs a page (or a download) as the test's user: (status, body text).
pub fn page(app: &TestApp, path: &str) -> (u16, String) {
    let answer = raw(app, "GET", path, &[("Authorization".to_string(), format!("Bearer {}", app.token))], "");
    (answer.status, answer.body)
}
