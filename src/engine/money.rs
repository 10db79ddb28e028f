//! Money as text: the one reader of amounts, for the engine and the service.
//!
//! An amount is a plain decimal: digits, optionally a point and more digits
//! (`"12"`, `"12.50"`, `"0.5"`). Nothing else is money: no exponent (`"1e3"`),
//! no sign (`"+5"`; a leading `-` is read only to say the amount is negative),
//! no separators (`"1_000"`, `"1,000"`), no spaces (`" 50 "`), no bare point
//! (`".5"`, `"5."`). Each refusal says what is wrong.

use rust_decimal::Decimal;

/// Most digits an amount may have (rust_decimal holds 28 to 29 significant
/// digits; anything this long is far past every money limit anyway).
pub const MAX_DIGITS: usize = 28;

/// What is wrong with a piece of money text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoneyTextError {
    #[error("is empty; write an amount like \"12.50\"")]
    Empty,
    #[error("has spaces around or inside it; write the digits alone, like \"12.50\"")]
    Spaces,
    #[error("has an exponent; write the amount out in digits, like \"1000\" or \"0.5\"")]
    Exponent,
    #[error("has a '+' sign; write the digits alone")]
    PlusSign,
    #[error("is negative")]
    Negative,
    #[error("has a digit separator ('{0}'); write the digits without it, like \"1000\"")]
    Separator(char),
    #[error("starts with a point; write a 0 before it, like \"0.5\"")]
    LeadingPoint,
    #[error("ends with a point; write digits after it or leave it out")]
    TrailingPoint,
    #[error("has more than one point")]
    TwoPoints,
    #[error("is too large (more than {MAX_DIGITS} digits)")]
    TooLong,
    #[error("is not an amount of money; write digits with an optional point, like \"12.50\"")]
    NotDecimal,
}

/// Reads a plain decimal amount (see the module). Negative amounts are
/// refused as [`MoneyTextError::Negative`]; `"-0"` is zero.
pub fn parse_plain_decimal(text: &str) -> Result<Decimal, MoneyTextError> {
    if text.is_empty() {
        return Err(MoneyTextError::Empty);
    }
    if text.chars().any(char::is_whitespace) {
        return Err(MoneyTextError::Spaces);
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if digits.starts_with('+') || (text.starts_with('+')) {
        return Err(MoneyTextError::PlusSign);
    }
    if let Some(c) = digits.chars().find(|c| matches!(c, '_' | ',' | '\'')) {
        return Err(MoneyTextError::Separator(c));
    }
    let exponent_like = digits.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'));
    if digits.contains(['e', 'E']) && exponent_like && digits.chars().any(|c| c.is_ascii_digit()) {
        return Err(MoneyTextError::Exponent);
    }
    if !digits.chars().all(|c| c.is_ascii_digit() || c == '.') || digits.is_empty() {
        return Err(MoneyTextError::NotDecimal);
    }
    match digits.matches('.').count() {
        0 => {}
        1 if digits.starts_with('.') => return Err(MoneyTextError::LeadingPoint),
        1 if digits.ends_with('.') => return Err(MoneyTextError::TrailingPoint),
        1 => {}
        _ => return Err(MoneyTextError::TwoPoints),
    }
    if digits.len() - usize::from(digits.contains('.')) > MAX_DIGITS {
        return Err(MoneyTextError::TooLong);
    }
    let amount = Decimal::from_str_exact(digits).map_err(|_| MoneyTextError::TooLong)?;
    if negative && !amount.is_zero() {
        return Err(MoneyTextError::Negative);
    }
    Ok(amount)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_decimals_are_money() {
        for (text, want) in [("12", "12"), ("12.50", "12.50"), ("0.5", "0.5"), ("007", "7"), ("-0", "0"), ("0", "0")] {
            assert_eq!(parse_plain_decimal(text).unwrap(), want.parse::<Decimal>().unwrap(), "{text}");
        }
        assert_eq!(parse_plain_decimal("12.50").unwrap().scale(), 2);
    }

    #[test]
    fn everything_else_is_refused_with_its_reason() {
        use MoneyTextError::*;
        let cases = [
            ("", Empty),
            (" 50 ", Spaces),
            ("5 0", Spaces),
            ("1e3", Exponent),
            ("5e-1", Exponent),
            ("1E6", Exponent),
            ("+5", PlusSign),
            ("-5", Negative),
            ("1_000", Separator('_')),
            ("1,000", Separator(',')),
            (".5", LeadingPoint),
            ("5.", TrailingPoint),
            ("1.2.3", TwoPoints),
            ("12a", NotDecimal),
            ("0x10", NotDecimal),
            ("NaN", NotDecimal),
            ("-", NotDecimal),
            ("12345678901234567890123456789", TooLong),
            ("79228162514264337593543950335", TooLong),
        ];
        for (text, want) in cases {
            assert_eq!(parse_plain_decimal(text), Err(want), "{text:?}");
        }
    }
}
