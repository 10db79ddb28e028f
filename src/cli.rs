//! The command-line front: `pitboss score` and `pitboss score --jsonl`
//! (CONTRACT.md).

use std::io::{self, BufRead, Read, Write};

use crate::engine::score_json;
use crate::engine::setter::AnalyseInput;

/// One line, whatever the message holds.
fn one_line(message: &str) -> String {
    message.replace(['\n', '\r'], " ")
}

/// Scores one showdown from `input`. Returns the process exit code: 0 with
/// the result on `out`, or 2 with one line on `err` and nothing on `out`.
pub fn score_one(mut input: impl Read, mut out: impl Write, mut err: impl Write) -> io::Result<i32> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    let outcome = match std::str::from_utf8(&bytes) {
        Err(e) => Err(format!("the input is not UTF-8 text: {e}")),
        Ok(text) => score_json(text).map_err(|e| e.to_string()),
    };
    match outcome {
        Ok(result) => {
            serde_json::to_writer(&mut out, &result)?;
            out.write_all(b"\n")?;
            out.flush()?;
            Ok(0)
        }
        Err(message) => {
            writeln!(err, "error: {}", one_line(&message))?;
            Ok(2)
        }
    }
}

/// `pitboss analyse`: 13 cards or a seat's rows on `input` (JSON or plain
/// text), the house-way setting, specials and any foul explained, as JSON.
pub fn analyse(
    mut input: impl Read,
    ruleset: Option<String>,
    mut out: impl Write,
    mut err: impl Write,
) -> io::Result<i32> {
    let mut text = String::new();
    if let Err(e) = input.read_to_string(&mut text) {
        writeln!(err, "error: the input is not UTF-8 text: {e}")?;
        return Ok(2);
    }
    let outcome = AnalyseInput::parse(&text).and_then(|mut request| {
        if ruleset.is_some() {
            request.ruleset = ruleset;
        }
        request.analyse()
    });
    match outcome {
        Ok(analysis) => {
            serde_json::to_writer_pretty(&mut out, &analysis)?;
            out.write_all(b"\n")?;
            Ok(0)
        }
        Err(e) => {
            writeln!(err, "error: {}", one_line(&e.to_string()))?;
            Ok(2)
        }
    }
}

/// Scores one showdown per line; an invalid line gives `{"error": ...}` and
/// the run goes on. Returns the exit code (0).
pub fn score_lines(input: impl BufRead, out: impl Write) -> io::Result<i32> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    for line in input.split(b'\n') {
        let line = line?;
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        let outcome = match std::str::from_utf8(line) {
            Err(e) => Err(format!("the line is not UTF-8 text: {e}")),
            Ok(text) if text.trim().is_empty() => Err("empty line: expected one showdown".to_string()),
            Ok(text) => score_json(text).map_err(|e| e.to_string()),
        };
        match outcome {
            Ok(result) => serde_json::to_writer(&mut out, &result)?,
            Err(message) => serde_json::to_writer(&mut out, &serde_json::json!({ "error": one_line(&message) }))?,
        }
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(0)
}
