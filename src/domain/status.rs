//! States and kinds as enums, each with its one stored and shown name:
//! ledger kinds, sign-off actions, void reasons, hand, hit and table statuses.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;

macro_rules! named_enum {
    ($(#[$doc:meta])* $name:ident $(stored as $sql:path)? { $($(#[$vdoc:meta])* $variant:ident => $text:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, diesel::expression::AsExpression, diesel::deserialize::FromSqlRow)]
        #[diesel(sql_type = Text)]
        $(#[diesel(sql_type = $sql)])?
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The stored and shown name (`snake_case`).
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some($name::ALL.iter().map(|k| k.name())))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                let text = String::deserialize(d)?;
                $name::parse(&text).ok_or_else(|| {
                    let names: Vec<&str> = $name::ALL.iter().map(|k| k.name()).collect();
                    serde::de::Error::custom(format!("{text:?} is not one of: {}", names.join(", ")))
                })
            }
        }

        impl<DB: Backend> ToSql<Text, DB> for $name
        where
            str: ToSql<Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                <str as ToSql<Text, DB>>::to_sql(self.name(), out)
            }
        }

        impl<DB: Backend> FromSql<Text, DB> for $name
        where
            String: FromSql<Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                let text = <String as FromSql<Text, DB>>::from_sql(bytes)?;
                $name::parse(&text).ok_or_else(|| format!("unknown {} {text:?}", stringify!($name)).into())
            }
        }
    };
}

named_enum!(
    /// What a ledger row records. Seat rows change a player's stack; pool rows
    /// a jackpot pool's balance; house rows the house's share of the rake.
    /// Stored as its name, in a type of its own on PostgreSQL (`db::ledger`).
    EntryKind stored as crate::db::schema::sql_types::LedgerEntryKind {
        BuyIn => "buy_in",
        AddOn => "add_on",
        CashOut => "cash_out",
        /// A seat's rake for a hand (negative), as hands committed before
        /// `hand_result` wrote it.
        Rake => "rake",
        /// The house's share of a hand's rake (positive).
        HouseRake => "house_rake",
        /// A pool's share of a hand's rake (positive).
        JackpotContribution => "jackpot_contribution",
        /// A seat's net of a hand's settlement, as hands committed before
        /// `hand_result` wrote it.
        Settlement => "settlement",
        /// A pool's seed (positive), at creation and after every locked hit.
        PoolSeed => "pool_seed",
        /// A hit locks the pool's balance (negative on the pool).
        JackpotLock => "jackpot_lock",
        /// Reverses another row (the negative of its amount).
        Reversal => "reversal",
        /// A verified hit paid to a player by the pool's shares (positive on a seat).
        JackpotPayout => "jackpot_payout",
        /// A rejected hit's amount back in its pool (positive on the pool).
        JackpotReturn => "jackpot_return",
        /// A void of a hand whose jackpot contribution a later hit has locked:
        /// the house refunds the contribution to the players (negative, on
        /// the table; it names the contribution row it stands for).
        ContributionRefund => "contribution_refund",
        /// A seat's result of a hand: its stack change (the settlement's net
        /// less the rake) on the row's `amount`, the rake in it on its
        /// `rake`. Hands committed before this kind wrote a `rake` and a
        /// `settlement` row instead.
        HandResult => "hand_result",
    }
);

named_enum!(
    /// A decision on a jackpot hit.
    SignoffAction {
        /// The first sign-off (floor).
        Approve => "approve",
        /// The second, by someone else (floor or admin): pays the hit.
        Verify => "verify",
        /// Returns the hit to its pool, with a reason.
        Reject => "reject",
    }
);

impl SignoffAction {
    /// `approved`, `verified`, `rejected`.
    pub fn past(self) -> &'static str {
        match self {
            SignoffAction::Approve => "approved",
            SignoffAction::Verify => "verified",
            SignoffAction::Reject => "rejected",
        }
    }
}

named_enum!(
    /// Why a hand was voided.
    VoidReason {
        Misdeal => "misdeal",
        WrongCards => "wrong_cards",
        WrongSeat => "wrong_seat",
        Dispute => "dispute",
        Procedure => "procedure",
        Other => "other",
    }
);

impl VoidReason {
    /// In words, for pages and sheets.
    pub fn words(self) -> &'static str {
        match self {
            VoidReason::Misdeal => "Misdeal",
            VoidReason::WrongCards => "Cards entered wrongly",
            VoidReason::WrongSeat => "Wrong seat or player",
            VoidReason::Dispute => "Dispute ruled by the floor",
            VoidReason::Procedure => "Procedure error",
            VoidReason::Other => "Other (explained in the note)",
        }
    }
}

named_enum!(
    /// Where a hand is.
    HandStatus {
        /// Started, not yet committed or voided.
        Open => "open",
        Committed => "committed",
        Voided => "voided",
    }
);

named_enum!(
    /// Where a jackpot hit is, from its sign-offs and its hand.
    HitStatus {
        Pending => "pending",
        Approved => "approved",
        Paid => "paid",
        Rejected => "rejected",
        /// Its hand was voided (the locked amount went back to the pool).
        Voided => "voided",
    }
);

impl HitStatus {
    /// A hit's status from its sign-offs and whether its hand was voided.
    pub fn of(actions: &[SignoffAction], hand_voided: bool) -> HitStatus {
        let has = |a: SignoffAction| actions.contains(&a);
        if has(SignoffAction::Reject) {
            HitStatus::Rejected
        } else if has(SignoffAction::Verify) {
            HitStatus::Paid
        } else if has(SignoffAction::Approve) {
            HitStatus::Approved
        } else if hand_voided {
            HitStatus::Voided
        } else {
            HitStatus::Pending
        }
    }

    /// Waiting for a decision (pending or approved).
    pub fn is_open(self) -> bool {
        matches!(self, HitStatus::Pending | HitStatus::Approved)
    }

    /// Its locked amount is no longer held by it: back in the pool
    /// (rejected, or its hand voided).
    pub fn returned(self) -> bool {
        matches!(self, HitStatus::Rejected | HitStatus::Voided)
    }
}

named_enum!(
    /// Whether a table plays: the floor opens and closes it. A closed table
    /// starts no hand and seats no player; it is read as before.
    TableStatus {
        Open => "open",
        Closed => "closed",
    }
);

named_enum!(
    /// What a user may do. A user holds one or more roles.
    Role {
        /// Starts hands, enters and commits showdowns, seats players, at the
        /// tables assigned to them.
        Dealer => "dealer",
        /// Everything a dealer does at every table; voids hands, changes
        /// rulesets, approves, verifies and rejects jackpot hits.
        Floor => "floor",
        /// Reads reports (read-only).
        Accountant => "accountant",
        /// Users, tables and pools; may verify jackpot hits.
        Admin => "admin",
        /// A card-reading shoe or RFID table: reads cards into the open hands
        /// of its tables (and reads those tables), nothing else.
        Scanner => "scanner",
        /// The count team: enters what the drop boxes held and signs a
        /// gaming day's count off (the accountant closes it).
        Count => "count",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in EntryKind::ALL {
            assert_eq!(EntryKind::parse(k.name()), Some(*k));
            assert_eq!(serde_json::to_value(k).unwrap(), serde_json::json!(k.name()));
        }
        assert!(serde_json::from_str::<VoidReason>("\"oops\"").unwrap_err().to_string().contains("wrong_cards"));
    }

    #[test]
    fn a_hits_status_follows_its_sign_offs() {
        use SignoffAction::*;
        assert_eq!(HitStatus::of(&[], false), HitStatus::Pending);
        assert_eq!(HitStatus::of(&[], true), HitStatus::Voided);
        assert_eq!(HitStatus::of(&[Approve], false), HitStatus::Approved);
        assert_eq!(HitStatus::of(&[Approve, Verify], false), HitStatus::Paid);
        assert_eq!(HitStatus::of(&[Approve, Reject], false), HitStatus::Rejected);
    }
}
