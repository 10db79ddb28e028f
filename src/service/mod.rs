//! The use cases: one function per thing a person or a device does (seat a
//! player, start a hand, commit a showdown, void, sign off a hit, cash out,
//! make a user…). Each takes typed input (parsed at the edge), decides the
//! policy, and writes its changes and their audit row in one transaction
//! through `db`. Answers are view structs the web layer serialises as they
//! are.

pub mod audit;
pub mod board;
pub mod gaming_days;
pub mod hands;
pub mod jackpots;
pub mod rollups;
mod showdown_z;
pub mod tables;
pub mod users;
