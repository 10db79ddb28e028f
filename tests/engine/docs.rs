//! The docs stay true to the code: every error code the source can answer is
//! listed in docs/api.md.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literal right after each of `openers` in `text`.
fn codes_after(text: &str, openers: &[&str]) -> Vec<String> {
    let mut codes = Vec::new();
    for opener in openers {
        for (at, _) in text.match_indices(opener) {
            let rest = text[at + opener.len()..].trim_start();
            if let Some(rest) = rest.strip_prefix('"') {
                let code: String = rest.chars().take_while(|c| *c != '"').collect();
                if !code.is_empty() && code.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                    codes.push(code);
                }
            }
        }
    }
    codes
}

#[test]
fn every_error_code_is_in_the_api_docs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/api.md")).unwrap();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut codes = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        codes.extend(codes_after(
            &text,
            &[
                "AppError::invalid(",
                "AppError::conflict(",
                "AppError::not_found(",
                "AppError::forbidden(",
                "AppError::unauthorized(",
                "AppError::too_many_requests(",
                "AppError::bad_request(",
                "AppError::new(Kind::Invalid,",
            ],
        ));
        if file.ends_with("domain/error.rs") {
            // The engine's errors: `E::Variant … => ("code", …)`, and the
            // codes of the fixed constructors.
            codes.extend(codes_after(&text, &["=> (", "Kind::Unavailable,", "Kind::Internal,", "Kind::TooLarge,"]));
            codes.extend(codes_after(&text, &["Kind::MethodNotAllowed,", "Kind::UnsupportedMediaType,"]));
        }
    }
    codes.sort();
    codes.dedup();
    assert!(codes.len() > 100, "the scan finds the codes: {codes:?}");
    let missing: Vec<&String> = codes.iter().filter(|c| !docs.contains(&format!("`{c}`"))).collect();
    assert!(missing.is_empty(), "error codes missing from docs/api.md: {missing:?}");
}
