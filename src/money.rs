//! Money in the service: `rust_decimal::Decimal` amounts, stored as whole
//! cents. Amounts with more than two decimal places are refused at the edge.

use rust_decimal::Decimal;

use crate::error::AppError;

/// Reads a non-negative amount with at most two decimal places; `what` names
/// it in the error.
pub fn parse_amount(text: &str, what: &str) -> Result<Decimal, AppError> {
    let amount: Decimal =
        text.trim().parse().map_err(|_| AppError::Invalid(format!("{what} {text:?} is not an amount of money")))?;
    if amount.is_sign_negative() && !amount.is_zero() {
        return Err(AppError::Invalid(format!("{what} {text} is negative")));
    }
    check_stack(to_cents(amount, what)?, what)?;
    Ok(amount)
}

/// Largest amount of money the service keeps in one place (a stack, a pool),
/// in cents: the engine's limit (`showdown::MAX_MONEY`).
pub const MAX_CENTS: i64 = crate::engine::showdown::MAX_MONEY * 100;

/// Refuses an amount (in cents) above `MAX_CENTS`.
pub fn check_stack(cents: i64, what: &str) -> Result<i64, AppError> {
    if cents > MAX_CENTS {
        return Err(AppError::Invalid(format!(
            "{what} {} is larger than {}",
            from_cents(cents),
            crate::engine::showdown::MAX_MONEY
        )));
    }
    Ok(cents)
}

/// Whole cents of an amount; more than two decimal places is an error.
pub fn to_cents(amount: Decimal, what: &str) -> Result<i64, AppError> {
    let cents = amount * Decimal::ONE_HUNDRED;
    if cents.fract() != Decimal::ZERO {
        return Err(AppError::Invalid(format!("{what} {amount} has more than two decimal places")));
    }
    i64::try_from(cents).map_err(|_| AppError::Invalid(format!("{what} {amount} is too large")))
}

/// An amount from cents, with two decimal places (`"12.50"`).
pub fn from_cents(cents: i64) -> Decimal {
    Decimal::new(cents, 2)
}
