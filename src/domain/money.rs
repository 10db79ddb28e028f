//! Money in the service: exact whole cents (`i64`), the one home for reading,
//! writing and storing amounts.
//!
//! - Reading: [`Money::parse`] takes a plain decimal (the engine's one reader
//!   of money text, `engine::money`) with at most two decimal places and at
//!   most [`Money::MAX`], and names the field in its refusal.
//! - Showing: `Display` and JSON give two decimals (`"12.50"`).
//! - Storing: `BIGINT` cents on both backends (`ToSql`/`FromSql`), never a
//!   float (SQLite's `Numeric` goes through f64).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub};

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::BigInt;
use rust_decimal::Decimal;

use super::error::AppError;
use crate::engine::money::{parse_plain_decimal, MoneyTextError};

/// An amount of money in whole cents. Negative amounts exist in the books
/// (a rake row, a cash-out); what people type is never negative.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, AsExpression, FromSqlRow)]
#[diesel(sql_type = BigInt)]
pub struct Money(i64);

impl Money {
    pub const ZERO: Money = Money(0);
    /// The most money the service keeps in one place (a stack, a pool, a
    /// table's stacks together), the engine's limit (`showdown::MAX_MONEY`).
    pub const MAX: Money = Money(crate::engine::showdown::MAX_MONEY * 100);

    pub const fn from_cents(cents: i64) -> Money {
        Money(cents)
    }

    pub const fn cents(self) -> i64 {
        self.0
    }

    pub fn is_zero(self) -> bool {
        self.0 == 0
    }

    pub fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// The amount as a decimal with two places (`12.50`).
    pub fn to_decimal(self) -> Decimal {
        Decimal::new(self.0, 2)
    }

    /// The exact cents of a decimal amount, or `None` when it has more than
    /// two decimal places or does not fit.
    pub fn from_decimal(amount: Decimal) -> Option<Money> {
        let cents = amount.checked_mul(Decimal::ONE_HUNDRED)?;
        if !cents.fract().is_zero() {
            return None;
        }
        i64::try_from(cents).ok().map(Money)
    }

    /// Reads an amount typed by a person: a plain decimal, zero or more, at
    /// most two decimal places, at most [`Money::MAX`]. `field` names it in
    /// the refusal (code `bad_money`).
    pub fn parse(text: &str, field: &str) -> Result<Money, AppError> {
        let refuse = |why: String| {
            AppError::invalid("bad_money", format!("{} {why}", super::error::field_words(field))).at_field(field)
        };
        let amount = parse_plain_decimal(text).map_err(|e| match e {
            MoneyTextError::TooLong => refuse(format!("{text:?} is larger than {}", Money::MAX)),
            e => refuse(format!("{text:?} {e}")),
        })?;
        let money = match Money::from_decimal(amount) {
            Some(m) => m,
            None if amount.checked_mul(Decimal::ONE_HUNDRED).is_some_and(|c| !c.fract().is_zero()) => {
                return Err(refuse(format!("{amount} has more than two decimal places")))
            }
            None => return Err(refuse(format!("{amount} is larger than {}", Money::MAX))),
        };
        if money > Money::MAX {
            return Err(refuse(format!("{money} is larger than {}", Money::MAX)));
        }
        Ok(money)
    }

    /// Reads an amount that must be more than zero.
    pub fn parse_positive(text: &str, field: &str) -> Result<Money, AppError> {
        let money = Money::parse(text, field)?;
        if money.is_zero() {
            return Err(AppError::invalid(
                "bad_money",
                format!("{} must be more than zero", super::error::field_words(field)),
            )
            .at_field(field));
        }
        Ok(money)
    }

    pub fn checked_add(self, other: Money) -> Option<Money> {
        self.0.checked_add(other.0).map(Money)
    }

    pub fn abs(self) -> Money {
        Money(self.0.abs())
    }

    pub fn min(self, other: Money) -> Money {
        Money(self.0.min(other.0))
    }

    pub fn max(self, other: Money) -> Money {
        Money(self.0.max(other.0))
    }
}

impl fmt::Display for Money {
    /// Two decimals: `12.50`, `-0.25`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.2}", self.to_decimal())
    }
}

impl Add for Money {
    type Output = Money;
    fn add(self, other: Money) -> Money {
        Money(self.0 + other.0)
    }
}

impl AddAssign for Money {
    fn add_assign(&mut self, other: Money) {
        self.0 += other.0;
    }
}

impl Sub for Money {
    type Output = Money;
    fn sub(self, other: Money) -> Money {
        Money(self.0 - other.0)
    }
}

impl Neg for Money {
    type Output = Money;
    fn neg(self) -> Money {
        Money(-self.0)
    }
}

impl std::ops::Mul<i64> for Money {
    type Output = Money;
    fn mul(self, n: i64) -> Money {
        Money(self.0 * n)
    }
}

impl Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        Money(iter.map(|m| m.0).sum())
    }
}

impl<'a> Sum<&'a Money> for Money {
    fn sum<I: Iterator<Item = &'a Money>>(iter: I) -> Money {
        Money(iter.map(|m| m.0).sum())
    }
}

/// JSON: a string with two decimals (`"12.50"`), as CONTRACT.md's money.
/// In JSON a decimal string with at most two places (`"12.50"`).
impl utoipa::PartialSchema for Money {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some(r"^-?[0-9]+(\.[0-9]{1,2})?$"))
            .description(Some("An amount: a plain decimal string with at most two places"))
            .examples(["12.50"])
            .into()
    }
}

impl utoipa::ToSchema for Money {}

impl serde::Serialize for Money {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// JSON: a decimal string with at most two places (stored JSON the service
/// wrote itself; amounts people type go through [`Money::parse`]).
impl<'de> serde::Deserialize<'de> for Money {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Money, D::Error> {
        let text = String::deserialize(d)?;
        let amount: Decimal = text.parse().map_err(serde::de::Error::custom)?;
        Money::from_decimal(amount).ok_or_else(|| serde::de::Error::custom(format!("{text:?} is not whole cents")))
    }
}

impl<DB: Backend> ToSql<BigInt, DB> for Money
where
    i64: ToSql<BigInt, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        <i64 as ToSql<BigInt, DB>>::to_sql(&self.0, out)
    }
}

impl<DB: Backend> FromSql<BigInt, DB> for Money
where
    i64: FromSql<BigInt, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
        <i64 as FromSql<BigInt, DB>>::from_sql(bytes).map(Money)
    }
}

/// A pair of seats playing for its own unit (RULES §7: players may agree
/// higher stakes between themselves), as a ruleset version stores it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct PairUnit {
    pub seats: [super::ids::SeatNo; 2],
    pub unit_cents: Money,
}

/// The money on a table (every stack together) stays within the limit, so
/// that no stack can pass it by winning the others' chips: refuses `adding`
/// to `stacks` when the sum would be more than [`Money::MAX`]; `what` names it.
pub fn check_table_money(stacks: impl IntoIterator<Item = Money>, adding: Money, what: &str) -> Result<(), AppError> {
    let on_table = stacks.into_iter().try_fold(Money::ZERO, |sum, s| sum.checked_add(s));
    let total = on_table.and_then(|t| t.checked_add(adding));
    if total.is_none_or(|total| total > Money::MAX) {
        let on_table = on_table.unwrap_or(Money::MAX);
        return Err(AppError::invalid(
            "table_money_limit",
            format!(
                "{what} of {adding} would take the money on this table to {}, past the limit of {}: the \
                 table's stacks together stay within it, so that no stack can pass it",
                on_table.checked_add(adding).unwrap_or(Money::MAX),
                Money::MAX
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_read_exactly_and_refused_by_name() {
        assert_eq!(Money::parse("12.5", "unit").unwrap(), Money::from_cents(1250));
        assert_eq!(Money::parse("0", "unit").unwrap(), Money::ZERO);
        assert_eq!(Money::parse("1000000000000", "unit").unwrap(), Money::MAX);
        for (text, needle) in [
            ("0.001", "more than two decimal places"),
            ("1000000000000.01", "larger than"),
            ("79228162514264337593543950335", "larger than"),
            ("9999999999999999999999999999", "larger than"),
            ("1e3", "exponent"),
            ("5e-1", "exponent"),
            ("1_000", "separator"),
            ("+5", "sign"),
            (".5", "point"),
            ("5.", "point"),
            (" 50 ", "spaces"),
            ("-5", "negative"),
            ("twenty", "not an amount of money"),
        ] {
            let e = Money::parse(text, "unit").unwrap_err();
            assert_eq!((e.code, e.place.field.as_deref()), ("bad_money", Some("unit")), "{text}");
            assert!(e.message.starts_with("the unit ") && e.message.contains(needle), "{text}: {}", e.message);
        }
        assert!(Money::parse_positive("0", "buy_in").unwrap_err().message.contains("more than zero"));
    }

    #[test]
    fn money_shows_two_decimals_and_round_trips_json() {
        assert_eq!(Money::from_cents(-25).to_string(), "-0.25");
        assert_eq!(serde_json::to_string(&Money::from_cents(1250)).unwrap(), "\"12.50\"");
        assert_eq!(serde_json::from_str::<Money>("\"12.5\"").unwrap(), Money::from_cents(1250));
        assert!(serde_json::from_str::<Money>("\"0.001\"").is_err());
        assert_eq!(Money::from_decimal(Decimal::MAX), None);
    }

    #[test]
    fn a_tables_money_stays_within_the_limit() {
        let half = Money::from_cents(Money::MAX.cents() / 2);
        assert!(check_table_money([half], half, "the add-on").is_ok());
        let e = check_table_money([half, half], Money::from_cents(1), "the add-on").unwrap_err();
        assert_eq!(e.code, "table_money_limit");
        assert!(check_table_money([Money::from_cents(i64::MAX)], Money::from_cents(1), "x").is_err());
    }
}
