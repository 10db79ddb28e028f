//! A seat's three rows, evaluated: what scoring, the words for a foul and the
//! house-way setter all read. It imports only cards, evaluation and the row
//! names, so none of those modules has to import scoring.

use super::card::Card;
use super::eval::{eval3, eval5, front_beats_middle, Category, Strength3, Strength5};
use super::ruleset::{royalty_in, Row, RoyaltyTable};

/// A seat's rows, evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowStrengths {
    pub front: Strength3,
    pub middle: Strength5,
    pub back: Strength5,
}

impl RowStrengths {
    pub fn of(front: &[Card; 3], middle: &[Card; 5], back: &[Card; 5]) -> RowStrengths {
        RowStrengths { front: eval3(front), middle: eval5(middle), back: eval5(back) }
    }

    /// Why this setting is fouled, or `None` when it is not.
    pub fn foul(&self) -> Option<(Row, Row)> {
        if self.back < self.middle {
            Some((Row::Back, Row::Middle))
        } else if front_beats_middle(self.front, self.middle) {
            Some((Row::Middle, Row::Front))
        } else {
            None
        }
    }

    pub fn is_fouled(&self) -> bool {
        self.foul().is_some()
    }

    /// The hand's category in `row`.
    pub fn category(&self, row: Row) -> Category {
        match row {
            Row::Front => self.front.category(),
            Row::Middle => self.middle.category(),
            Row::Back => self.back.category(),
        }
    }

    /// -1, 0 or 1 as `self`'s row is below, equal to or above `other`'s.
    pub fn compare(&self, other: &RowStrengths, row: Row) -> i64 {
        let ord = match row {
            Row::Front => self.front.cmp(&other.front),
            Row::Middle => self.middle.cmp(&other.middle),
            Row::Back => self.back.cmp(&other.back),
        };
        ord as i64
    }

    /// The open-face royalties of the three rows under `table` (the hand is
    /// taken as not fouled).
    pub fn royalties(&self, table: RoyaltyTable) -> i64 {
        royalty_in(table, Row::Front, self.front.category(), self.front.ranks()[0], false)
            + royalty_in(table, Row::Middle, self.middle.category(), 0, self.middle.is_royal_flush())
            + royalty_in(table, Row::Back, self.back.category(), 0, self.back.is_royal_flush())
    }
}
