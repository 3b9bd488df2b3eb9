//! Quiet-move ordering memory: two killer moves per ply and the history heuristic.

use shakmaty::Color;

use super::params::{HISTORY_BONUS_MAX, HISTORY_MAX};
use crate::moves::{MoveCode, NO_MOVE};
use crate::search::MAX_PLY;

/// Two killer moves per ply: quiet moves that caused a cutoff at that ply in a sibling.
pub struct Killers([[MoveCode; 2]; MAX_PLY + 1]);

impl Default for Killers {
    fn default() -> Killers {
        Killers([[NO_MOVE; 2]; MAX_PLY + 1])
    }
}

impl Killers {
    /// The killers of `ply`, most recent first.
    #[inline]
    pub fn at(&self, ply: usize) -> [MoveCode; 2] {
        self.0[ply]
    }

    /// Records a cutoff move; the older killer moves to the second slot.
    pub fn record(&mut self, ply: usize, code: MoveCode) {
        let slot = &mut self.0[ply];
        if slot[0] != code {
            slot[1] = slot[0];
            slot[0] = code;
        }
    }

    /// Forgets all killers.
    pub fn clear(&mut self) {
        *self = Killers::default();
    }
}

/// History heuristic: a score per (side, from, to), raised for quiet moves that cut off
/// and lowered for quiet moves tried before them.
pub struct History(Box<[[[i32; 64]; 64]; 2]>);

impl Default for History {
    fn default() -> History {
        History(Box::new([[[0; 64]; 64]; 2]))
    }
}

impl History {
    /// The score of a quiet move by `side`, given by its code.
    #[inline]
    pub fn score(&self, side: Color, code: MoveCode) -> i32 {
        let code = code as usize;
        self.0[side as usize][code & 63][(code >> 6) & 63]
    }

    /// Rewards the cutoff move and punishes the quiets tried before it.
    pub fn update(&mut self, side: Color, depth: i32, best: MoveCode, tried: &[MoveCode]) {
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        self.adjust(side, best, bonus);
        for &m in tried {
            self.adjust(side, m, -bonus);
        }
    }

    /// Gravity update: the closer to the bound, the smaller the step, so values never
    /// leave ±HISTORY_MAX and old knowledge fades.
    fn adjust(&mut self, side: Color, code: MoveCode, bonus: i32) {
        let code = code as usize;
        let entry = &mut self.0[side as usize][code & 63][(code >> 6) & 63];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = History::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::encode;
    use shakmaty::{Chess, Position};

    #[test]
    fn history_stays_bounded() {
        let pos = Chess::default();
        let moves: Vec<MoveCode> = pos.legal_moves().iter().map(|&m| encode(m)).collect();
        let mut history = History::default();
        for _ in 0..10_000 {
            history.update(Color::White, 40, moves[0], &moves[1..5]);
        }
        assert!(history.score(Color::White, moves[0]) <= HISTORY_MAX);
        assert!(history.score(Color::White, moves[1]) >= -HISTORY_MAX);
        assert!(history.score(Color::White, moves[0]) > history.score(Color::White, moves[6]));
        assert_eq!(history.score(Color::Black, moves[0]), 0);
    }

    #[test]
    fn killers_keep_two_distinct_moves() {
        let mut killers = Killers::default();
        killers.record(3, 10);
        killers.record(3, 10);
        killers.record(3, 20);
        assert_eq!(killers.at(3), [20, 10]);
        killers.record(3, 30);
        assert_eq!(killers.at(3), [30, 20]);
        assert_eq!(killers.at(4), [NO_MOVE; 2]);
    }
}
