//! The built binary: `pitboss score` and `pitboss score --jsonl`
//! (CONTRACT.md).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `pitboss` with `args`, feeding `input` on standard input.
fn pitboss(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pitboss"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pitboss starts");
    child.stdin.take().unwrap().write_all(input.as_bytes()).expect("pitboss reads its input");
    let out = child.wait_with_output().expect("pitboss finishes");
    Run {
        code: out.status.code().expect("pitboss exits with a code"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Kings / three queens / heart flush sweeps jack high / sevens / tens and
/// nines under hawaiian-gardens: 6 units.
fn sweep() -> Value {
    json!({
        "ruleset": "hawaiian-gardens",
        "seats": [
            {"seat": 1, "stack": "40", "front": "Ks Kh 2c", "middle": "Qs Qh Qd 3c 4d", "back": "9h 8h 6h 5h 3h"},
            {"seat": 2, "stack": "40", "front": "Jd Tc 8c", "middle": "7s 7d 2d 4c 5c", "back": "9s 9d Td Th 2s"},
        ],
    })
}

/// The same showdown with seat 2 holding seat 1's nine of hearts.
fn duplicated_card() -> Value {
    let mut s = sweep();
    s["seats"][1]["back"] = json!("9s 9d Td 9h 2s");
    s
}

/// Checks a scored result: the pair's main units and seat 1's end stack.
fn assert_sweep_result(result: &Value) {
    assert_eq!(result["ruleset"], "hawaiian-gardens");
    assert_eq!(result["pairs"], json!([{"seats": [1, 2], "special_units": 0, "main_units": 6}]));
    assert_eq!(result["seats"][0]["stack_end"], "46");
    assert_eq!(result["seats"][1]["stack_end"], "34");
}

#[test]
fn score_writes_the_result_and_exits_0() {
    let run = pitboss(&["score"], &sweep().to_string());
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    let result: Value = serde_json::from_str(&run.stdout).expect("stdout is one JSON document");
    assert_sweep_result(&result);
    // The same as the library's result.
    let library = pitboss::engine::score_json(&sweep().to_string()).unwrap();
    assert_eq!(result, serde_json::to_value(library).unwrap());
}

#[test]
fn score_reads_a_showdown_over_several_lines() {
    let pretty = serde_json::to_string_pretty(&sweep()).unwrap();
    let run = pitboss(&["score"], &pretty);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_sweep_result(&serde_json::from_str(&run.stdout).unwrap());
}

/// Exit 2, nothing on stdout, exactly one line on stderr naming `parts`.
fn assert_refused(run: &Run, parts: &[&str]) {
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "", "nothing on standard output");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line on standard error: {:?}", run.stderr);
    for part in parts {
        assert!(lines[0].contains(part), "{:?} should name {part:?}", lines[0]);
    }
}

#[test]
fn score_refuses_a_duplicated_card() {
    let run = pitboss(&["score"], &duplicated_card().to_string());
    assert_refused(&run, &["9h", "seat 1 back", "seat 2 back"]);
}

#[test]
fn score_refuses_a_seat_with_12_cards() {
    let mut s = sweep();
    s["seats"][1]["middle"] = json!("7s 7d 2d 4c");
    let run = pitboss(&["score"], &s.to_string());
    assert_refused(&run, &["seat 2", "middle", "4"]);
}

#[test]
fn score_refuses_an_unknown_preset() {
    let mut s = sweep();
    s["ruleset"] = json!("texas-holdem");
    let run = pitboss(&["score"], &s.to_string());
    assert_refused(&run, &["texas-holdem"]);
}

#[test]
fn score_refuses_text_that_is_not_a_showdown_on_one_line() {
    for input in ["", "not json", "{\n\"seats\": [\n", "{\"seats\": 3}"] {
        let run = pitboss(&["score"], input);
        assert_refused(&run, &[]);
    }
}

#[test]
fn jsonl_scores_every_line_and_reports_a_bad_one_in_place() {
    let input = format!(
        "{}\n{}\n{}\n",
        sweep(),
        duplicated_card(),
        json!({
            "ruleset": "simple",
            "seats": sweep()["seats"].clone(),
        })
    );
    let run = pitboss(&["score", "--jsonl"], &input);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "one output line per input line: {:?}", run.stdout);

    let first: Value = serde_json::from_str(lines[0]).unwrap();
    assert_sweep_result(&first);

    let second: Value = serde_json::from_str(lines[1]).unwrap();
    let object = second.as_object().expect("an error line is an object");
    assert_eq!(object.len(), 1, "only the error: {second}");
    let message = second["error"].as_str().expect("error is a string");
    assert!(message.contains("9h"), "{message}");
    assert!(message.contains("seat 2 back"), "{message}");

    let third: Value = serde_json::from_str(lines[2]).unwrap();
    assert_eq!(third["ruleset"], "simple");
    assert_eq!(third["pairs"][0]["main_units"], 3);
}

#[test]
fn jsonl_keeps_one_output_line_per_input_line() {
    let good = sweep().to_string();
    let lines =
        ["not json".to_string(), good.clone(), duplicated_card().to_string(), "{\"seats\": []}".to_string(), good];
    let run = pitboss(&["score", "--jsonl"], &(lines.join("\n") + "\n"));
    assert_eq!(run.code, 0);
    let out: Vec<Value> =
        run.stdout.lines().map(|l| serde_json::from_str(l).expect("every output line is JSON")).collect();
    assert_eq!(out.len(), lines.len());
    let is_error: Vec<bool> = out.iter().map(|v| v.get("error").is_some()).collect();
    assert_eq!(is_error, vec![true, false, true, true, false]);
    // The last line needs no newline.
    let run = pitboss(&["score", "--jsonl"], &lines.join("\n"));
    assert_eq!(run.stdout.lines().count(), lines.len());
}

#[test]
fn jsonl_with_no_input_writes_nothing() {
    let run = pitboss(&["score", "--jsonl"], "");
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, "");
}

// ---------------------------------------------------------------------------
// Issue 14: clear messages on the command line

#[test]
fn score_explains_shapes_it_cannot_read() {
    let mut s = sweep();
    s["pair_units"] = json!([{"seats": [1, 2, 3], "unit": "2"}]);
    assert_refused(&pitboss(&["score"], &s.to_string()), &["pair_units[0].seats", "a pair is two seats"]);
    let run = pitboss(&["score"], &format!("[{}]", sweep()));
    assert_refused(&run, &["a showdown is one JSON object", "not an array"]);
    let mut s = sweep();
    s["ruleset"] = json!("simple");
    s["seats"][1] =
        json!({"seat": 2, "stack": "40", "cards": "2c 3d 4h 5s 6c 7d 8h 9s Tc Jc Qs Kd Ac", "claim": "best"});
    assert_refused(&pitboss(&["score"], &s.to_string()), &["seat 2", "preset simple has no special hands"]);
    let mut s = sweep();
    s["seats"][0]["stack"] = json!("1e30");
    assert_refused(&pitboss(&["score"], &s.to_string()), &["seat 1 stack", "too large"]);
}

#[test]
fn score_takes_a_revision_and_options() {
    // Revision 1 of vietnamese doubled a sweep; revision 2 (seed 004) does
    // not, unless the house sets sweep_double_triple.
    let mut s = sweep();
    s["ruleset"] = json!("vietnamese");
    let units = |s: &Value| -> i64 {
        let run = pitboss(&["score"], &s.to_string());
        assert_eq!(run.code, 0, "stderr: {}", run.stderr);
        let v: Value = serde_json::from_str(&run.stdout).unwrap();
        v["pairs"][0]["main_units"].as_i64().unwrap()
    };
    assert_eq!(units(&s), 3);
    s["ruleset_revision"] = json!(1);
    assert_eq!(units(&s), 6);
    s["ruleset_revision"] = json!(2);
    s["options"] = json!({"sweep_double_triple": true});
    assert_eq!(units(&s), 9, "one opponent is every opponent: triple");
    s["ruleset_revision"] = json!(3);
    assert_refused(&pitboss(&["score"], &s.to_string()), &["vietnamese", "no revision 3"]);
    let mut s = sweep();
    s["ruleset"] = json!("ofc-pineapple");
    s["seats"][1]["discards"] = json!("Js Jh 4s 8s 8d");
    assert_refused(&pitboss(&["score"], &s.to_string()), &["seat 2", "5 discards"]);
}
