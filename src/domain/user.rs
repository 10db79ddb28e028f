//! Who is asking, and what they may do: the signed-in user with their roles
//! and tables, and the actor every change is recorded under.

use serde::Serialize;

use super::error::AppError;
use super::ids::{TableId, TokenId, UserId};
use super::status::Role;

/// A signed-in user, as every request sees them (for an API token: only the
/// token's roles and tables).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct User {
    pub id: UserId,
    pub username: String,
    pub display_name: String,
    pub roles: Vec<Role>,
    pub active: bool,
    #[serde(skip)]
    pub session_epoch: i32,
    /// Tables a dealer (or scanner) is assigned to.
    pub tables: Vec<TableId>,
}

impl User {
    pub fn has(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }

    pub fn has_any(&self, roles: &[Role]) -> bool {
        roles.iter().any(|r| self.has(*r))
    }

    /// May enter and commit hands at `table`: floor anywhere, a dealer at
    /// their assigned tables.
    pub fn deals_at(&self, table: TableId) -> bool {
        self.has(Role::Floor) || (self.has(Role::Dealer) && self.tables.contains(&table))
    }

    /// May read cards into hands at `table`: whoever deals there, or a
    /// scanner assigned to it.
    pub fn scans_at(&self, table: TableId) -> bool {
        self.deals_at(table) || (self.has(Role::Scanner) && self.tables.contains(&table))
    }

    /// Requires one of `roles`, naming them in the refusal.
    pub fn require(&self, roles: &[Role]) -> Result<(), AppError> {
        if self.has_any(roles) {
            return Ok(());
        }
        let names: Vec<&str> = roles.iter().map(|r| r.name()).collect();
        Err(AppError::forbidden(
            "role_required",
            format!("this needs the role {}; {} does not have it", names.join(" or "), self.username),
        ))
    }

    /// Requires the right to deal at `table`.
    pub fn require_table(&self, table: TableId) -> Result<(), AppError> {
        if self.deals_at(table) {
            return Ok(());
        }
        Err(AppError::forbidden(
            "table_not_assigned",
            format!(
                "{} is not assigned to table {table}: a dealer works at their assigned tables, a floor supervisor at any",
                self.username
            ),
        ))
    }

    /// Requires the right to scan cards at `table`.
    pub fn require_scan(&self, table: TableId) -> Result<(), AppError> {
        if self.scans_at(table) {
            return Ok(());
        }
        Err(AppError::forbidden(
            "table_not_assigned",
            format!(
                "{} may not read or scan the cards of table {table}: its dealer, a scanner assigned to it or a \
                 floor supervisor may",
                self.username
            ),
        ))
    }
}

/// Who is acting, as the audit trail records it: a signed-in user, the
/// command line, or someone not (yet) signed in.
#[derive(Clone, Debug)]
pub struct Actor {
    pub user_id: Option<UserId>,
    pub username: String,
    /// The client's address, or `command line`.
    pub ip: String,
    /// The API token the request came with (recorded with every change it
    /// makes); `None` for a signed-in person or the command line.
    pub token_id: Option<TokenId>,
}

impl Actor {
    /// `pitboss admin …` run on the server itself.
    pub fn command_line() -> Actor {
        let who = std::env::var("USER").unwrap_or_else(|_| "unknown".to_string());
        Actor {
            user_id: None,
            username: format!("command line ({who})"),
            ip: "command line".to_string(),
            token_id: None,
        }
    }

    /// Someone not (yet) signed in, e.g. a failed login.
    pub fn anonymous(username: &str, ip: &str) -> Actor {
        Actor { user_id: None, username: username.to_string(), ip: ip.to_string(), token_id: None }
    }

    /// A signed-in user (with the token they came with, if any).
    pub fn of(user: &User, ip: String, token_id: Option<TokenId>) -> Actor {
        Actor { user_id: Some(user.id), username: user.username.clone(), ip, token_id }
    }
}
