//! A committed showdown as stored (`showdowns.showdown_z`): what the dealer
//! entered (each seat's rows and choices, as JSON) and the result as paid
//! (the engine's JSON, verbatim), on two lines, deflated with a preset
//! dictionary of typical showdowns (`showdown.dict`), behind a format byte.
//! Four seats take about 200 bytes instead of about 2 KB of JSON.
//!
//! The dictionary of a format never changes: a stored showdown is read with
//! the dictionary it was written with (a test pins its digest). A better one
//! would be format 2, with format 1 kept for reading.

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

use crate::domain::AppError;

/// Format 1: raw deflate with [`DICTIONARY_1`].
const FORMAT_1: u8 = 1;
const DICTIONARY_1: &[u8] = include_bytes!("showdown.dict");

/// Packs the entered seats (JSON) and the result (JSON) for storage.
pub fn pack(seats_json: &str, result_json: &str) -> Result<Vec<u8>, AppError> {
    let text = format!("{seats_json}\n{result_json}");
    let mut z = Compress::new(Compression::best(), false);
    z.set_dictionary(DICTIONARY_1).map_err(AppError::internal)?;
    let mut out = Vec::with_capacity(text.len() / 2 + 64);
    out.push(FORMAT_1);
    loop {
        let consumed = z.total_in() as usize;
        if out.len() == out.capacity() {
            out.reserve(out.capacity());
        }
        match z.compress_vec(&text.as_bytes()[consumed..], &mut out, FlushCompress::Finish) {
            Ok(Status::StreamEnd) => return Ok(out),
            Ok(_) => continue,
            Err(e) => return Err(AppError::internal(format!("a showdown does not deflate: {e}"))),
        }
    }
}

/// The entered seats (JSON) and the result (JSON) of a stored showdown.
pub fn unpack(stored: &[u8]) -> Result<(String, String), AppError> {
    let broken = |why: String| AppError::internal(format!("a stored showdown does not read back: {why}"));
    let (format, body) = stored.split_first().ok_or_else(|| broken("it is empty".to_string()))?;
    if *format != FORMAT_1 {
        return Err(broken(format!("format {format} is unknown")));
    }
    let mut z = Decompress::new(false);
    z.set_dictionary(DICTIONARY_1).map_err(|e| broken(e.to_string()))?;
    let mut out = Vec::with_capacity(body.len() * 8 + 256);
    loop {
        let consumed = z.total_in() as usize;
        if out.len() == out.capacity() {
            out.reserve(out.capacity());
        }
        match z.decompress_vec(&body[consumed..], &mut out, FlushDecompress::Finish) {
            Ok(Status::StreamEnd) => break,
            Ok(_) if z.total_in() as usize == body.len() && out.len() < out.capacity() => {
                return Err(broken("it ends early".to_string()))
            }
            Ok(_) => continue,
            Err(e) => return Err(broken(e.to_string())),
        }
    }
    let text = String::from_utf8(out).map_err(|e| broken(e.to_string()))?;
    let (seats, result) = text.split_once('\n').ok_or_else(|| broken("it has no result".to_string()))?;
    Ok((seats.to_string(), result.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest;

    #[test]
    fn the_dictionary_of_format_1_never_changes() {
        let digest = sha2::Sha256::digest(DICTIONARY_1);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex, "363bae5ae06cdc19b3785eb5acc3c7567e110ac7594dc174a9efa74e3e6211b7",
            "stored showdowns need this very dictionary to be read"
        );
    }

    #[test]
    fn a_showdown_packs_small_and_reads_back_exactly() {
        let seats = r#"[{"seat":1,"front":"2cAhAd","middle":"3c4dKhKdKc","back":"5s6s7s8s9s","surrender":false,"in_fantasyland":false},{"seat":2,"front":"3dQsQh","middle":"5d6dTsThTd","back":"2h7h8h9hJh","surrender":false,"in_fantasyland":false}]"#;
        let result = r#"{"ruleset":"hawaiian-gardens","seats":[],"pairs":[],"transactions":[{"pass":"main","payer":1,"payee":2,"owed":"2.00","paid":"2.00"}],"jackpot_triggers":[],"jackpot_contribution":"0.40"}"#;
        let packed = pack(seats, result).unwrap();
        assert!(packed.len() < 120, "{} bytes", packed.len());
        assert_eq!(unpack(&packed).unwrap(), (seats.to_string(), result.to_string()));
        // Long text (past any guess at the output's size) too.
        let long = "x".repeat(100_000);
        assert_eq!(unpack(&pack(&long, &long).unwrap()).unwrap(), (long.clone(), long));
    }

    #[test]
    fn a_damaged_showdown_is_an_error_not_a_panic() {
        let packed = pack("[]", "{}").unwrap();
        assert!(unpack(&[]).is_err());
        assert!(unpack(&[9, 1, 2]).is_err());
        assert!(unpack(&packed[..packed.len() - 2]).is_err());
        // Bytes changed anywhere: an error or some text, never a panic.
        for i in 1..packed.len() {
            let mut changed = packed.clone();
            changed[i] ^= 0xa5;
            let _ = unpack(&changed);
        }
    }
}
