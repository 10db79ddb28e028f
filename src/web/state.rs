//! What every handler can reach. Nothing here holds state that matters
//! between requests: several app servers can share one database.

use crate::db::Database;

/// Largest request body accepted (a showdown is well under 4 KiB).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

pub struct AppState {
    pub db: Database,
    /// The casino's time zone (`TIME_ZONE`, default UTC): times on the floor
    /// and back-office pages are shown in it (they are stored in UTC).
    pub time_zone: chrono_tz::Tz,
    /// `TRUST_PROXY=true`: client addresses come from the last
    /// `X-Forwarded-For` entry (set it only behind a proxy that appends it).
    pub trust_proxy: bool,
}
