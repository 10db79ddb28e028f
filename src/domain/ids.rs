//! Ids: a table id cannot be passed where a hand id is wanted. Each is a
//! number in JSON and paths (serde transparent) and in the database.

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $inner:ty, $sql:ty) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash,
            serde::Serialize, serde::Deserialize,
            diesel::expression::AsExpression, diesel::deserialize::FromSqlRow,
        )]
        #[serde(transparent)]
        #[diesel(sql_type = $sql)]
        pub struct $name(pub $inner);

        impl $name {
            pub const fn get(self) -> $inner {
                self.0
            }
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                <$inner as utoipa::PartialSchema>::schema()
            }
        }

        impl utoipa::ToSchema for $name {}

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl<DB: diesel::backend::Backend> diesel::serialize::ToSql<$sql, DB> for $name
        where
            $inner: diesel::serialize::ToSql<$sql, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut diesel::serialize::Output<'b, '_, DB>) -> diesel::serialize::Result {
                <$inner as diesel::serialize::ToSql<$sql, DB>>::to_sql(&self.0, out)
            }
        }

        impl<DB: diesel::backend::Backend> diesel::deserialize::FromSql<$sql, DB> for $name
        where
            $inner: diesel::deserialize::FromSql<$sql, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> diesel::deserialize::Result<Self> {
                <$inner as diesel::deserialize::FromSql<$sql, DB>>::from_sql(bytes).map($name)
            }
        }
    };
}

id_type!(
    /// A casino table.
    TableId, i64, diesel::sql_types::BigInt
);
id_type!(
    /// A hand's row id (ledger rows name it as `hand_id`).
    HandId, i64, diesel::sql_types::BigInt
);
id_type!(
    /// A hand's number at its table (1, 2, …).
    HandNumber, i32, diesel::sql_types::Integer
);
id_type!(
    /// A seat at a table (1 to the table's seat count).
    SeatNo, i32, diesel::sql_types::Integer
);
id_type!(
    /// A player's stay in a seat, from buy-in to cash-out.
    SeatingId, i64, diesel::sql_types::BigInt
);
id_type!(
    /// A player's record (a name, perhaps a member number).
    PlayerId, i64, diesel::sql_types::BigInt
);
id_type!(
    /// A jackpot pool.
    PoolId, i64, diesel::sql_types::BigInt
);
id_type!(
    /// A jackpot hit.
    HitId, i64, diesel::sql_types::BigInt
);
id_type!(
    /// A user.
    UserId, i64, diesel::sql_types::BigInt
);
id_type!(
    /// An API token.
    TokenId, i64, diesel::sql_types::BigInt
);
id_type!(
    /// A ruleset version's row id.
    RulesetVersionId, i64, diesel::sql_types::BigInt
);
id_type!(
    /// A ledger row.
    EntryId, i64, diesel::sql_types::BigInt
);

impl SeatNo {
    /// The engine's seat number.
    pub fn engine(self) -> u32 {
        self.0.max(0) as u32
    }
}
