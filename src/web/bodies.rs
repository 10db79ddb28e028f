//! Request bodies as they arrive (JSON from the API, fields from the forms),
//! and their parsing into the service's typed inputs: amounts become `Money`
//! here, once, with the field named in any refusal.

use serde::Deserialize;

use crate::domain::{AppError, Money, PlayerId, PoolId};
use crate::service::players::PlayerChoice;
use crate::service::tables::{
    NewPool, NewTable, PairUnitInput, PoolEdit, RulesetInput, SeatPlayer, SharesView, TableEdit,
};

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPoolBody {
    pub name: String,
    pub seed: String,
    /// How an approved hit is shared, in percent (default 50 / 25 / 25).
    #[serde(default)]
    pub shares: Option<SharesView>,
    /// The pool's gaming days: their time zone (default UTC) and start
    /// (default 06:00), as a table's; they stay as made.
    #[serde(default)]
    pub time_zone: Option<String>,
    #[serde(default)]
    pub gaming_day_cutoff: Option<String>,
}

impl NewPoolBody {
    pub fn parse(self) -> Result<NewPool, AppError> {
        Ok(NewPool {
            name: self.name,
            seed: Money::parse(&self.seed, "seed")?,
            shares: self.shares,
            time_zone: self.time_zone,
            gaming_day_cutoff: self.gaming_day_cutoff,
        })
    }
}

#[derive(Clone, Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PairUnitBody {
    pub seats: [i32; 2],
    pub unit: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetBody {
    pub preset: String,
    pub unit: String,
    #[serde(default)]
    pub rake_per_seat: Option<String>,
    #[serde(default)]
    pub jackpot_part: Option<String>,
    /// Table options (`engine::options`), checked against the preset.
    #[serde(default)]
    pub options: Option<serde_json::Value>,
    /// Per-pair stakes (RULES §7: players may agree higher stakes between
    /// themselves): a floor decision, part of the ruleset version.
    #[serde(default)]
    pub pair_units: Option<Vec<PairUnitBody>>,
}

impl RulesetBody {
    pub fn parse(self) -> Result<RulesetInput, AppError> {
        let mut pair_units = Vec::new();
        for (i, p) in self.pair_units.unwrap_or_default().into_iter().enumerate() {
            let unit = Money::parse(&p.unit, &format!("pair_units[{i}] unit"))?;
            pair_units.push(PairUnitInput { seats: p.seats, unit });
        }
        Ok(RulesetInput {
            preset: self.preset,
            unit: Money::parse(&self.unit, "unit")?,
            rake_per_seat: Money::parse(self.rake_per_seat.as_deref().unwrap_or("0"), "rake_per_seat")?,
            jackpot_part: Money::parse(self.jackpot_part.as_deref().unwrap_or("0"), "jackpot_part")?,
            options: self.options,
            pair_units,
        })
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTableBody {
    pub name: String,
    pub seat_count: Option<i32>,
    pub pool_id: Option<PoolId>,
    /// IANA time zone of the casino, e.g. `America/Los_Angeles`.
    pub time_zone: Option<String>,
    /// Local time at which the gaming day starts, `HH:MM`.
    pub gaming_day_cutoff: Option<String>,
    #[serde(flatten)]
    pub ruleset: RulesetBody,
}

impl NewTableBody {
    pub fn parse(self) -> Result<NewTable, AppError> {
        Ok(NewTable {
            name: self.name,
            seat_count: self.seat_count,
            pool: self.pool_id,
            time_zone: self.time_zone,
            gaming_day_cutoff: self.gaming_day_cutoff,
            ruleset: self.ruleset.parse()?,
        })
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatPlayerBody {
    pub seat: i32,
    /// A new player's name (or, beside `player_id` or `member_no`, the
    /// chosen player's name, checked).
    #[serde(default)]
    pub player: Option<String>,
    /// A player's record (`GET /api/v1/players`).
    #[serde(default)]
    pub player_id: Option<i64>,
    /// A member or ID number: chooses its player, or is the new player's.
    #[serde(default)]
    pub member_no: Option<String>,
    pub buy_in: String,
}

impl SeatPlayerBody {
    pub fn parse(self) -> Result<SeatPlayer, AppError> {
        Ok(SeatPlayer {
            seat: self.seat,
            player: PlayerChoice { id: self.player_id.map(PlayerId), name: self.player, member_no: self.member_no },
            buy_in: Money::parse(&self.buy_in, "buy_in")?,
        })
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPlayerBody {
    pub name: String,
    #[serde(default)]
    pub member_no: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AmountBody {
    pub amount: String,
}

impl AmountBody {
    pub fn parse(self) -> Result<Money, AppError> {
        Money::parse(&self.amount, "amount")
    }
}

/// Opening or closing a table: an optional note for the audit trail.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableStatusBody {
    /// Why (at most 500 characters), e.g. "end of the evening session".
    #[serde(default)]
    pub note: String,
}

/// Changing a pool (admin): any of its name, its re-seed amount, its shares.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PoolEditBody {
    #[serde(default)]
    pub name: Option<String>,
    /// What the pool restarts from after a hit (future hits).
    #[serde(default)]
    pub seed: Option<String>,
    /// How an approved hit is shared, in percent (adding up to 100).
    #[serde(default)]
    pub shares: Option<SharesView>,
}

impl PoolEditBody {
    pub fn parse(self) -> Result<PoolEdit, AppError> {
        Ok(PoolEdit {
            name: self.name,
            seed: self.seed.as_deref().map(|s| Money::parse(s, "seed")).transpose()?,
            shares: self.shares,
        })
    }
}

/// Money the house adds to a pool now, and why.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PoolSeedBody {
    pub amount: String,
    /// Why (1 to 500 characters), e.g. "re-seed after hit 12".
    pub note: String,
}

/// Changing a table (admin): any of these; stakes, rake and options are its
/// ruleset (`PUT /api/v1/tables/{id}/ruleset`).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableEditBody {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub seat_count: Option<i32>,
    /// Before the table's first hand only.
    #[serde(default)]
    pub time_zone: Option<String>,
    /// Before the table's first hand only.
    #[serde(default)]
    pub gaming_day_cutoff: Option<String>,
    /// Before the table's first hand only; `null`: no pool.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>)]
    pub pool_id: Option<Option<PoolId>>,
}

/// A field that may be given as `null` (`Some(None)`), apart from absent (`None`).
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

impl TableEditBody {
    pub fn parse(self) -> TableEdit {
        TableEdit {
            name: self.name,
            seat_count: self.seat_count,
            time_zone: self.time_zone,
            gaming_day_cutoff: self.gaming_day_cutoff,
            pool: self.pool_id,
        }
    }
}
