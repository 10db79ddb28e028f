//! The typed domain, parsed once at the edge and used from there on:
//! `Money` (exact cents), ids, status enums, the stored result, the signed-in
//! user and the actor, and the service's error with its code and place.
//! Pure: no I/O (the diesel derives only say how each type is stored).

pub mod clock;
pub mod error;
pub mod ids;
pub mod money;
pub mod result;
pub mod status;
pub mod user;

pub use error::{AppError, Kind, Place};
pub use ids::{
    EntryId, HandId, HandNumber, HitId, PlayerId, PoolId, RulesetVersionId, SeatNo, SeatingId, TableId, TokenId, UserId,
};
pub use money::{Money, PairUnit};
pub use result::StoredResult;
pub use status::{EntryKind, HandStatus, HitStatus, Role, SignoffAction, TableStatus, VoidReason};
pub use user::{Actor, User};
