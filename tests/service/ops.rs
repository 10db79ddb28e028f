//! What operators and integrators expect (issue 18): the OpenAPI document
//! covers every route registered in `src/web/startup.rs`; Swagger UI is
//! served from the binary; every answer has the security headers and an
//! `X-Request-Id`; the pages run no inline script; `/metrics`; the typed
//! configuration and `pitboss serve --help`; `pitboss migrate`.

use std::collections::BTreeSet;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{raw, request, request_with, sample, spawn_app, Answer, TestApp};
use serde_json::{json, Value};

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// A route as `startup.rs` registers it: (METHOD, path).
type Route = (String, String);

/// The string literal at the start of `text`, if any.
fn literal(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix('"')?;
    rest.find('"').map(|end| &rest[..end])
}

/// `text` with comments and the insides of string literals blanked, byte
/// for byte, so that parentheses, braces and calls can be found in it.
fn code_only(text: &str) -> String {
    let blank = |c: char| if c.is_ascii() { ' ' } else { c };
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let (mut in_string, mut in_comment) = (false, false);
    while let Some(c) = chars.next() {
        if in_comment {
            in_comment = c != '\n';
            out.push(if c == '\n' { '\n' } else { blank(c) });
        } else if in_string {
            if c == '\\' {
                out.push(' ');
                if let Some(n) = chars.next() {
                    out.push(blank(n));
                }
            } else if c == '"' {
                in_string = false;
                out.push('"');
            } else {
                out.push(blank(c));
            }
        } else if c == '/' && chars.peek() == Some(&'/') {
            in_comment = true;
            out.push(' ');
        } else {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// Where `token` starts a call in `code`: not the tail of a longer name.
fn calls(code: &str, token: &str) -> Vec<usize> {
    code.match_indices(token)
        .map(|(at, _)| at)
        .filter(|&at| at == 0 || !(code.as_bytes()[at - 1].is_ascii_alphanumeric() || code.as_bytes()[at - 1] == b'_'))
        .collect()
}

/// The bodies of the functions of a source file: name → byte range.
fn functions(code: &str) -> std::collections::HashMap<String, (usize, usize)> {
    let mut out = std::collections::HashMap::new();
    for at in calls(code, "fn ") {
        let name: String = code[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let Some(open) = code[at..].find('{').map(|o| at + o) else { continue };
        let mut depth = 0;
        for (i, c) in code[open..].char_indices() {
            depth += match c {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            if depth == 0 {
                out.insert(name, (open, open + i));
                break;
            }
        }
    }
    out
}

/// A method registration at `code[i..]`: `web::get()` … or `form(` (a POST).
fn method_at(code: &str, i: usize) -> Option<&'static str> {
    let rest = &code[i..];
    let boundary = i == 0 || !(code.as_bytes()[i - 1].is_ascii_alphanumeric() || code.as_bytes()[i - 1] == b'_');
    if !boundary {
        return None;
    }
    if rest.starts_with("form(") && !code[..i].ends_with("fn ") {
        return Some("POST");
    }
    METHODS.iter().find(|m| rest.starts_with(&format!("web::{}()", m.to_lowercase()))).copied()
}

/// The routes registered in `src/web/startup.rs`, read from its source: the
/// one place routes are registered. From `configure`, every
/// `web::scope("…")` (its prefix), `.configure(f)` (the function `f` of the
/// file, read the same way), `resource("…")` and `.route("…", …)` is
/// followed; each method registration after a path belongs to it. Answers
/// the routes, how many registrations were read, and how many the file has
/// (a registration in a shape or a place this reading does not follow would
/// otherwise go unseen).
fn registered_routes() -> (BTreeSet<Route>, usize, usize) {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web/startup.rs")).unwrap();
    let code = code_only(&text);
    assert_eq!(code.len(), text.len());
    let functions = functions(&code);
    let mut routes = BTreeSet::new();
    let mut read = BTreeSet::new();
    read_routes(&text, &code, &functions, "configure", "", &mut routes, &mut read);
    // (The helper `form` registers the POST it is given: not a route itself.)
    let helper = functions.get("form").copied().unwrap_or((0, 0));
    let written = (0..code.len())
        .filter(|&i| code.is_char_boundary(i) && method_at(&code, i).is_some())
        .filter(|&i| !(helper.0..helper.1).contains(&i))
        .count();
    (routes, read.len(), written)
}

fn read_routes(
    text: &str,
    code: &str,
    functions: &std::collections::HashMap<String, (usize, usize)>,
    function: &str,
    outer: &str,
    routes: &mut BTreeSet<Route>,
    read: &mut BTreeSet<usize>,
) {
    let (start, end) = functions[function];
    // (prefix, the depth of the call holding the scope: it ends when that call's parenthesis closes)
    let mut scopes: Vec<(String, i32)> = Vec::new();
    let mut depth = 0i32;
    let mut current: Option<String> = None;
    for i in (start..end).filter(|&i| code.is_char_boundary(i)) {
        let rest = &code[i..end];
        match code.as_bytes()[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                while scopes.last().is_some_and(|(_, d)| *d > depth) {
                    scopes.pop();
                }
            }
            _ => {}
        }
        let prefix = format!("{outer}{}", scopes.iter().map(|(p, _)| p.as_str()).collect::<String>());
        if rest.starts_with("web::scope(") {
            scopes.push((literal(&text[i + "web::scope(".len()..]).unwrap().to_string(), depth));
        }
        if let Some(after) = rest.strip_prefix(".configure(") {
            let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if functions.contains_key(&name) {
                read_routes(text, code, functions, &name, &prefix, routes, read);
            }
        }
        for opener in ["resource(", ".route("] {
            if rest.starts_with(opener) {
                if let Some(path) = literal(&text[i + opener.len()..]) {
                    current = Some(format!("{prefix}{path}"));
                }
            }
        }
        if let Some(method) = method_at(code, i) {
            read.insert(i);
            routes.insert((method.to_string(), as_documented(current.as_deref().expect("a path before a method"))));
        }
    }
}

/// A route's path as the document writes it: `{action:open|close}` is `{action}`.
fn as_documented(path: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for c in path.chars() {
        match c {
            ':' if out.rfind('{') > out.rfind('}') => skipping = true,
            '}' => {
                skipping = false;
                out.push(c);
            }
            _ if !skipping => out.push(c),
            _ => {}
        }
    }
    out
}

/// A path of the app with its parameters filled in.
fn concrete(path: &str) -> String {
    let mut out = String::new();
    let mut name = String::new();
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_param = true;
                name.clear();
            }
            '}' => {
                in_param = false;
                out.push_str(if name == "date" { "2026-11-23" } else { "1" });
            }
            _ if in_param => name.push(c),
            _ => out.push(c),
        }
    }
    out
}

/// The (METHOD, path) operations of the OpenAPI document.
fn documented(doc: &Value) -> BTreeSet<Route> {
    let mut out = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in METHODS {
            if item.get(method.to_lowercase()).is_some() {
                out.insert((method.to_string(), path.clone()));
            }
        }
    }
    out
}

/// Routes for programs: the JSON API and the operators' endpoints. The rest
/// (pages, forms, downloads, static files, the docs themselves) are for
/// browsers.
fn for_programs(path: &str) -> bool {
    path.starts_with("/api/v1") || matches!(path, "/healthz" | "/readyz" | "/metrics")
}

#[test]
fn the_openapi_document_has_every_route_registered_in_startup() {
    let (routes, read, written) = registered_routes();
    assert_eq!(read, written, "every method registration in startup.rs is read as a route");
    assert!(routes.len() > 60, "the reading of startup.rs finds the routes: {routes:?}");
    let api: BTreeSet<Route> = routes.iter().filter(|(_, p)| for_programs(p)).cloned().collect();

    let app = spawn_app("sqlite");
    let answer = raw(&app, "GET", "/api/openapi.json", &[], "");
    assert_eq!(answer.status, 200);
    let doc: Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let documented = documented(&doc);
    let missing: Vec<&Route> = api.difference(&documented).collect();
    assert!(missing.is_empty(), "registered in startup.rs, missing from /api/openapi.json: {missing:?}");
    let unknown: Vec<&Route> = documented.difference(&api).collect();
    assert!(unknown.is_empty(), "in /api/openapi.json, not registered in startup.rs: {unknown:?}");

    // The reading is checked against the running app: every route read
    // from startup.rs answers (not 404 `no_route`, not 405), and no other
    // method does on an API path. Nothing is signed in, so nothing changes.
    for path in api.iter().map(|(_, p)| p).collect::<BTreeSet<_>>() {
        let concrete = concrete(path);
        for method in METHODS {
            let headers = [("Content-Type".to_string(), "application/json".to_string())];
            let answer = raw(&app, method, &concrete, &headers, "{");
            let code = serde_json::from_str::<Value>(&answer.body).ok().map(|b| b["code"].clone());
            let routed = answer.status != 405 && code != Some(json!("no_route"));
            let registered = api.contains(&(method.to_string(), path.to_string()));
            assert_eq!(routed, registered, "{method} {concrete}: {} {}", answer.status, answer.body);
        }
    }

    // Every operation says who may call it and what its errors are.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            assert!(responses.contains_key("503"), "{method} {path}: the common errors");
            // Only a change waits for its table's turn.
            let busy = responses["503"]["description"].as_str().unwrap().contains("`table_busy`");
            assert_eq!(busy, method != "get", "{method} {path}: table_busy");
            for (status, response) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    let text = response["description"].as_str().unwrap();
                    assert!(text.starts_with("Codes: `"), "{method} {path} {status}: {text}");
                }
            }
            let public = ["/api/v1/score", "/api/v1/analyse", "/api/v1/presets", "/healthz", "/readyz"];
            assert_eq!(op.get("security").is_none(), public.contains(&path.as_str()), "{method} {path}: security");
        }
    }
    // Roles are the scopes of the security requirement.
    assert_eq!(doc["paths"]["/api/v1/users"]["post"]["security"][0]["token"], json!(["admin"]));
    assert_eq!(doc["paths"]["/api/v1/jackpots/{id}/approve"]["post"]["security"], json!([{"session": ["floor"]}]));
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for schema in ["ErrorBody", "TableView", "HandView", "NewTableBody", "ShowdownRequest", "Money", "HitView"] {
        assert!(schemas.contains_key(schema), "schema {schema}");
    }
}

#[test]
fn swagger_ui_is_served_from_the_binary() {
    let app = spawn_app("sqlite");
    let answer = raw(&app, "GET", "/api/docs", &[], "");
    assert_eq!((answer.status, answer.location()), (301, "/api/docs/"));
    let index = raw(&app, "GET", "/api/docs/", &[], "");
    assert_eq!(index.status, 200);
    assert!(index.body.contains("swagger-ui"), "{}", index.body);
    // Scripts are files, never inline: the page works under the policy.
    for script in index.body.split("<script").skip(1) {
        assert!(script.trim_start().starts_with("src="), "inline script in Swagger UI's page: {script}");
    }
    let bundle = raw(&app, "GET", "/api/docs/swagger-ui-bundle.js", &[], "");
    assert_eq!(bundle.status, 200);
    assert!(bundle.body.len() > 100_000);
    let init = raw(&app, "GET", "/api/docs/swagger-initializer.js", &[], "");
    assert!(init.body.contains("/api/openapi.json"), "{}", init.body);
}

fn assert_security_headers(answer: &Answer, what: &str) {
    let csp = answer.header("content-security-policy").unwrap_or_else(|| panic!("{what}: no CSP"));
    assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{what}: {csp}");
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{what}: {csp}");
    assert_eq!(answer.header("x-content-type-options"), Some("nosniff"), "{what}");
    assert_eq!(answer.header("referrer-policy"), Some("same-origin"), "{what}");
    let id = answer.header("x-request-id").unwrap_or_else(|| panic!("{what}: no X-Request-Id"));
    assert_eq!(id.len(), 36, "{what}: a UUID request id: {id}");
}

#[test]
fn every_answer_has_the_security_headers_and_a_request_id() {
    let app = spawn_app("sqlite");
    let token = [("Authorization".to_string(), format!("Bearer {}", app.token))];
    let json = [("Content-Type".to_string(), "text/plain".to_string())];
    let html = [("Accept".to_string(), "text/html".to_string())];
    let answers = [
        ("the tables page", raw(&app, "GET", "/", &token, "")),
        ("the sign-in page", raw(&app, "GET", "/login", &[], "")),
        ("a redirect to sign in", raw(&app, "GET", "/floor", &[], "")),
        ("an error page", raw(&app, "GET", "/tables/999", &[token[0].clone(), html[0].clone()], "")),
        ("a static file", raw(&app, "GET", "/static/pitboss.css", &[], "")),
        ("the API", raw(&app, "GET", "/api/v1/tables", &token, "")),
        ("401", raw(&app, "GET", "/api/v1/me", &[], "")),
        ("415 from a middleware", raw(&app, "POST", "/api/v1/pools", &[token[0].clone(), json[0].clone()], "x")),
        ("no such route", raw(&app, "GET", "/nowhere", &[], "")),
        ("the OpenAPI document", raw(&app, "GET", "/api/openapi.json", &[], "")),
        ("health", raw(&app, "GET", "/healthz", &[], "")),
    ];
    let mut ids = BTreeSet::new();
    for (what, answer) in &answers {
        assert!(answer.status > 0, "{what}");
        assert_security_headers(answer, what);
        ids.insert(answer.header("x-request-id").unwrap().to_string());
        // Loopback, cookies not Secure: no HSTS (it would pin plain HTTP out).
        assert_eq!(answer.header("strict-transport-security"), None, "{what}");
    }
    assert_eq!(ids.len(), answers.len(), "a new id per request");
    assert_eq!(answers[7].1.status, 415);
    // Without a trusted proxy, a client's own X-Request-Id is not taken.
    let mine = [("X-Request-Id".to_string(), "client-chosen".to_string())];
    assert_ne!(raw(&app, "GET", "/healthz", &mine, "").header("x-request-id"), Some("client-chosen"));
}

/// The app with `config` on a fresh SQLite database.
fn spawn_configured(config: pitboss::config::Config) -> TestApp {
    let mut app = crate::support::fresh_database("sqlite");
    let db = pitboss::db::connect(&app.database_url, 4).unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    app.base = listener.local_addr().unwrap().to_string();
    let service = pitboss::web::start(listener, db.clone(), &config).unwrap();
    crate::support::serve(&mut app, service.server);
    app.db = Some(db);
    app
}

#[test]
fn secure_cookies_bring_hsts_and_a_trusted_proxy_keeps_its_request_id() {
    let config =
        pitboss::config::Config { secure_cookies: Some(true), trust_proxy: true, ..pitboss::config::Config::default() };
    let app = spawn_configured(config);
    let theirs = [("X-Request-Id".to_string(), "proxy-7f3a".to_string())];
    let answer = raw(&app, "GET", "/login", &theirs, "");
    assert_eq!(answer.header("strict-transport-security"), Some("max-age=31536000"));
    assert_eq!(answer.header("x-request-id"), Some("proxy-7f3a"));
    assert!(answer.header("set-cookie").is_none_or(|c| c.contains("Secure")));
}

/// Inline script and style would need `unsafe-inline` in the policy: the
/// templates and static files have none (no `<script>` without `src`, no
/// `on…=` handler, no `style` attribute or element, no `javascript:` URL).
#[test]
fn the_pages_have_no_inline_script_or_style() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["templates", "static"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "html" || e == "svg") {
                files.push(path);
            }
        }
    }
    // The Rust code that writes HTML or SVG itself (charts, error pages).
    for file in ["src/web/charts.rs", "src/web/error.rs", "src/web/helpers.rs"] {
        files.push(root.join(file));
    }
    assert!(files.len() > 10);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap().to_lowercase();
        let name = file.display();
        for script in text.split("<script").skip(1) {
            assert!(script.trim_start().starts_with("src="), "{name}: an inline <script>");
        }
        assert!(!text.contains("<style"), "{name}: a <style> element");
        assert!(!text.contains(" style=") && !text.contains("\\\"style"), "{name}: a style attribute");
        assert!(!text.contains("javascript:"), "{name}: a javascript: URL");
        let handler = text.match_indices(" on").any(|(at, _)| {
            let word: String = text[at + 3..].chars().take_while(|c| c.is_ascii_alphabetic()).collect();
            !word.is_empty() && text[at + 3 + word.len()..].starts_with('=')
        });
        assert!(!handler, "{name}: an on…= event handler attribute");
    }
}

/// `(table, hand number)` of a new table with two funded seats and a hand
/// started on it.
fn a_table_with_a_hand(app: &TestApp) -> (i64, i64) {
    let (status, pool) = request(app, "POST", "/api/v1/pools", r#"{"name":"Main pool","seed":"100"}"#);
    assert_eq!(status, 201, "{pool}");
    let body = json!({"name": "Metrics", "preset": "hawaiian-gardens", "unit": "1", "rake_per_seat": "0.50",
                      "jackpot_part": "0.10", "pool_id": pool["id"]});
    let (status, table) = request(app, "POST", "/api/v1/tables", &body.to_string());
    assert_eq!(status, 201, "{table}");
    let id = table["id"].as_i64().unwrap();
    for seat in 1..=2 {
        let body = json!({"seat": seat, "player": format!("P{seat}"), "buy_in": "100"});
        assert_eq!(request(app, "POST", &format!("/api/v1/tables/{id}/seats"), &body.to_string()).0, 201);
    }
    let (status, hand) = request(app, "POST", &format!("/api/v1/tables/{id}/hands"), "{}");
    assert_eq!(status, 201, "{hand}");
    (id, hand["number"].as_i64().unwrap())
}

const SHOWDOWN: &str = r#"{"seats":[
  {"seat":1,"front":"6s 6h 6d","middle":"4s 4h 4d 9s 9h","back":"Ks Kh Kd 8s 8h"},
  {"seat":2,"front":"Qs Qh 7d","middle":"Js Jh Jd 2s 2h","back":"5s 5h 5d 5c Ad"}]}"#;

#[test]
fn metrics_show_requests_commits_the_writer_and_the_books() {
    let app = spawn_app("sqlite");
    let (table, number) = a_table_with_a_hand(&app);
    let before = raw(&app, "GET", "/metrics", &[], "");
    assert_eq!(before.status, 200, "{}", before.body);
    let committed_before = sample(&before.body, "pitboss_hands_committed_total").unwrap();
    let (status, _) = request(&app, "POST", &format!("/api/v1/tables/{table}/hands/{number}/commit"), SHOWDOWN);
    assert_eq!(status, 201);
    let answer = raw(&app, "GET", "/metrics", &[], "");
    assert_eq!(answer.header("content-type"), Some("text/plain; version=0.0.4; charset=utf-8"));
    let text = &answer.body;
    // (Tests in this process share the counters: they only grow.)
    assert!(sample(text, "pitboss_hands_committed_total").unwrap() > committed_before, "{text}");
    assert!(sample(text, "pitboss_hand_commit_duration_seconds_count").unwrap() >= 1.0);
    let commits =
        r#"pitboss_http_requests_total{method="POST",route="/api/v1/tables/{id}/hands/{number}/commit",status="201"}"#;
    assert!(sample(text, commits).unwrap() >= 1.0, "{text}");
    assert!(text.contains(r#"pitboss_http_request_duration_seconds_bucket{method="POST",route="/api/v1/tables/{id}/hands/{number}/commit",le="0.1"}"#));
    assert!(sample(text, "pitboss_sqlite_writer_batch_size_count").unwrap() >= 1.0);
    assert!(sample(text, "pitboss_sqlite_writer_queue_depth").is_some());
    assert!(text.contains(r#"pitboss_jackpot_pool_balance{pool="Main pool",pool_id=""#), "{text}");
    // The hand open at the first scrape, committed before this one.
    assert_eq!(sample(&before.body, "pitboss_open_hands"), Some(1.0), "{}", before.body);
    assert_eq!(sample(text, "pitboss_open_hands"), Some(0.0), "{text}");
    assert_eq!(sample(text, "pitboss_database_up"), Some(1.0));
    assert!(sample(text, r#"pitboss_db_pool_connections{state="idle"}"#).is_some());
    // The memory SQLite and the allocator account for are shown and agree
    // with each other: SQLite's caches and statements are part of everything
    // allocated, which the allocator holds. (They are the process's: every
    // test's database counts. What they show under load is measured by
    // benches/load_run.sh, not here.)
    let sqlite = sample(text, "pitboss_sqlite_heap_bytes").unwrap();
    assert!(sqlite > 100_000.0, "SQLite has its schema and statements: {text}");
    if cfg!(all(target_os = "linux", target_env = "gnu")) {
        let in_use = sample(text, r#"pitboss_malloc_bytes{state="in_use"}"#).unwrap();
        let held = sample(text, r#"pitboss_malloc_bytes{state="held"}"#).unwrap();
        assert!(sqlite < in_use && in_use <= held, "{text}");
    }
    // What mimalloc has committed is shown: here only that it is (in this
    // test program mimalloc is not the global allocator; the binary's figure
    // is checked under load in crash_recovery).
    assert!(sample(text, "pitboss_mimalloc_committed_bytes").is_some(), "{text}");
    // Not public: through a proxy (the request is not the machine's own)
    // it is refused without the token.
    let proxied = [("X-Forwarded-For".to_string(), "203.0.113.9".to_string())];
    let refused = raw(&app, "GET", "/metrics", &proxied, "");
    assert_eq!(refused.status, 403);
    assert!(refused.body.contains("metrics_not_public"));
}

#[test]
fn a_metrics_token_lets_a_scraper_elsewhere_read_them() {
    let token = "scrape-me-0123456789abcdef";
    let app = spawn_configured(pitboss::config::Config {
        metrics_token: Some(token.to_string()),
        ..pitboss::config::Config::default()
    });
    let elsewhere = ("X-Forwarded-For".to_string(), "203.0.113.9".to_string());
    let with = |t: &str| {
        raw(&app, "GET", "/metrics", &[elsewhere.clone(), ("Authorization".into(), format!("Bearer {t}"))], "")
    };
    assert_eq!(with(token).status, 200);
    let wrong = with("scrape-me-0123456789abcdeX");
    assert_eq!(wrong.status, 401);
    assert!(wrong.body.contains("bad_metrics_token"));
}

// ---- the binary: settings, logs, migrations ----

fn pitboss(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pitboss"));
    command.args(args).env_remove("RUST_LOG").env_remove("DATABASE_URL");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().unwrap()
}

#[test]
fn serve_help_lists_every_setting_and_a_bad_value_is_an_error() {
    let help = pitboss(&["serve", "--help"], &[]);
    assert!(help.status.success());
    let text = String::from_utf8(help.stdout).unwrap();
    for setting in [
        "BIND_ADDR",
        "DATABASE_URL",
        "DATABASE_POOL_SIZE",
        "MIGRATE_ON_START",
        "TIME_ZONE",
        "TRUST_PROXY",
        "SECURE_COOKIES",
        "RUST_LOG",
        "LOG_FORMAT",
        "METRICS_TOKEN",
        "SHUTDOWN_TIMEOUT",
        "BOARD_STREAMS",
    ] {
        assert!(text.contains(&format!("[env: {setting}")), "serve --help lacks {setting}:\n{text}");
    }
    for (name, value) in [
        ("DATABASE_POOL_SIZE", "lots"),
        ("DATABASE_POOL_SIZE", "0"),
        ("TIME_ZONE", "Mars/Olympus_Mons"),
        ("TRUST_PROXY", "perhaps"),
        ("BIND_ADDR", "port 80"),
        ("LOG_FORMAT", "xml"),
        ("BOARD_STREAMS", "0"),
    ] {
        let out = pitboss(&["serve"], &[(name, value)]);
        assert_eq!(out.status.code(), Some(2), "{name}={value} must stop the start");
        let said = String::from_utf8_lossy(&out.stderr);
        let flag = name.to_lowercase().replace('_', "-");
        assert!(said.contains(value) && said.contains(&flag), "{name}={value}: {said}");
    }
    // Without a command, the same settings from the environment.
    let out = pitboss(&[], &[("DATABASE_POOL_SIZE", "lots")]);
    assert_eq!(out.status.code(), Some(2));
}

/// Starts `pitboss serve` on `database` with `env`; answers the child and
/// its address once `/readyz` answers 200, or the child's output when it
/// exits first.
fn serve(database: &str, env: &[(&str, &str)]) -> Result<(std::process::Child, TestApp), std::process::Output> {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut command = Command::new(env!("CARGO_BIN_EXE_pitboss"));
    command
        .arg("serve")
        .env("DATABASE_URL", database)
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().unwrap();
    let app = TestApp::at(&format!("127.0.0.1:{port}"));
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(_status) = child.try_wait().unwrap() {
            return Err(child.wait_with_output().unwrap());
        }
        if request(&app, "GET", "/readyz", "").0 == 200 {
            return Ok((child, app));
        }
        assert!(Instant::now() < deadline, "the server did not come up");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn stop(mut child: std::process::Child) -> String {
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the server did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "SIGTERM: a clean stop");
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn log_lines_name_the_request_the_user_and_the_table_and_json_lines_by_a_setting() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("logs.sqlite").to_string_lossy().to_string();
    let db = pitboss::db::connect(&path, 2).unwrap();
    let token = crate::support::make_user(&db, "boss", &["dealer", "floor", "accountant", "admin"], &[]);
    drop(db);
    let (child, app) = serve(&path, &[("RUST_LOG", "info"), ("LOG_FORMAT", "json")]).unwrap_or_else(|out| {
        panic!("serve: {}", String::from_utf8_lossy(&out.stderr));
    });
    let app = app.with_token(&token);
    let (table, _) = a_table_with_a_hand(&app);
    let answer = raw(
        &app,
        "GET",
        &format!("/api/v1/tables/{table}"),
        &[("Authorization".into(), format!("Bearer {token}"))],
        "",
    );
    assert_eq!(answer.status, 200);
    let id = answer.header("x-request-id").unwrap().to_string();
    let (status, _) = request_with(&app, "GET", "/api/v1/tables/999", "", &[]);
    assert_eq!(status, 404);
    let log = stop(child);
    let lines: Vec<Value> =
        log.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("not JSON: {l}"))).collect();
    let mine: Vec<&Value> = lines.iter().filter(|l| l["request_id"] == id.as_str()).collect();
    assert!(!mine.is_empty(), "no line of request {id} in:\n{log}");
    for line in &mine {
        assert_eq!(line["user"], "boss", "{line}");
        assert_eq!(line["table"], table, "{line}");
        assert!(line["time"].is_string() && line["level"].is_string() && line["target"].is_string());
    }
    assert!(mine
        .iter()
        .any(|l| l["message"].as_str().unwrap().contains(&format!("\"GET /api/v1/tables/{table}\" 200"))));
    // Lines outside any request carry no request id.
    assert!(lines
        .iter()
        .any(|l| l["message"].as_str().unwrap().contains("listening") && l.get("request_id").is_none()));
    // The text format names them the same way.
    let db = pitboss::db::connect(&path, 2).unwrap();
    drop(db);
    let (child, app) = serve(&path, &[("RUST_LOG", "info")]).unwrap_or_else(|out| panic!("{out:?}"));
    let answer = raw(
        &app,
        "GET",
        &format!("/api/v1/tables/{table}/ledger"),
        &[("Authorization".into(), format!("Bearer {token}"))],
        "",
    );
    let id = answer.header("x-request-id").unwrap().to_string();
    let log = stop(child);
    let line = log.lines().find(|l| l.contains(&id)).unwrap_or_else(|| panic!("no line of {id}:\n{log}"));
    assert!(line.contains(&format!("request_id={id} user=boss table={table}")), "{line}");
}

/// A SQLite database at `path` with every migration but the newest applied
/// (from the migrations folder), as if the binary were a release newer than
/// the database; answers the newest migration's name.
fn one_migration_behind(path: &str) -> String {
    use diesel::Connection;
    use diesel_migrations::{FileBasedMigrations, MigrationHarness};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/sqlite");
    // (SQLite's threading mode is set before any connection of the process.)
    pitboss::db::sqlite_multi_thread();
    let mut conn = diesel::sqlite::SqliteConnection::establish(path).unwrap();
    let pending = conn.pending_migrations(FileBasedMigrations::from_path(dir).unwrap()).unwrap();
    let (newest, older) = pending.split_last().unwrap();
    for migration in older {
        conn.run_migration(&**migration).unwrap();
    }
    newest.name().to_string()
}

#[test]
fn migrations_are_applied_by_pitboss_migrate_not_behind_the_operators_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.sqlite").to_string_lossy().to_string();
    let db = [("DATABASE_URL", path.as_str())];
    // A new database: every migration pending; `migrate` applies them all.
    let status = pitboss(&["migrate", "status"], &db);
    let text = String::from_utf8_lossy(&status.stdout).to_string();
    assert!(status.status.success() && text.contains("pending  2026-11-21-000001_initial"), "{text}");
    let applied = pitboss(&["migrate"], &db);
    let text = String::from_utf8_lossy(&applied.stdout).to_string();
    assert!(applied.status.success() && text.contains("applied  2026-11-21-000001_initial"), "{text}");
    let again = pitboss(&["migrate"], &db);
    assert!(String::from_utf8_lossy(&again.stdout).contains("up to date: nothing to apply"));
    // An older database: `serve` and `admin` refuse it, naming the command.
    let path = dir.path().join("older.sqlite").to_string_lossy().to_string();
    let db = [("DATABASE_URL", path.as_str())];
    let newest = one_migration_behind(&path);
    let status = pitboss(&["migrate", "status"], &db);
    let text = String::from_utf8_lossy(&status.stdout).to_string();
    assert!(text.contains(&format!("pending  {newest}")) && text.contains("1 pending"), "{text}");
    let refused = serve(&path, &[]).map(|(c, _)| stop(c)).expect_err("serve must refuse pending migrations");
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains(&newest) && said.contains("pitboss migrate"), "{said}");
    let admin = pitboss(&["admin", "token", "--username", "x", "--label", "y"], &db);
    assert_eq!(admin.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&admin.stderr).contains("pitboss migrate"));
    // MIGRATE_ON_START=always applies them at start-up.
    let (child, _) = serve(&path, &[("MIGRATE_ON_START", "always"), ("RUST_LOG", "info")])
        .unwrap_or_else(|out| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    let log = stop(child);
    assert!(log.contains(&format!("migrations applied at start-up: {newest}")), "{log}");
    let status = pitboss(&["migrate", "status"], &db);
    assert!(String::from_utf8_lossy(&status.stdout).contains("up to date"));
    // A new database is set up by `serve` (the README's first start), unless
    // MIGRATE_ON_START=never.
    let fresh = dir.path().join("fresh.sqlite").to_string_lossy().to_string();
    let never = serve(&fresh, &[("MIGRATE_ON_START", "never")]).map(|(c, _)| stop(c)).expect_err("never");
    assert!(String::from_utf8_lossy(&never.stderr).contains("MIGRATE_ON_START=never"));
    let (child, _) = serve(&fresh, &[("RUST_LOG", "info")]).unwrap_or_else(|out| panic!("{out:?}"));
    assert!(stop(child).contains("new: set up with"));
}
