//! The network's training data: self-play games in a compact format ([`format`]), each
//! data folder's manifest ([`manifest`]), and which positions of a game are trained on.

pub mod format;
pub mod manifest;

use shakmaty::{Chess, Move, Position};

use crate::value::TB_WIN_BOUND;
use format::GameRecord;

/// True when a scored position is worth training on: not in check, its best move quiet
/// (neither a capture nor a promotion), its score not a mate or tablebase result.
pub fn is_training_position(pos: &Chess, best: Move, score: i16) -> bool {
    !pos.is_check() && !best.is_capture() && !best.is_promotion() && i32::from(score).abs() < TB_WIN_BOUND
}

/// The positions of `game` kept for training, with their scores.
pub fn training_positions(game: &GameRecord) -> impl Iterator<Item = (Chess, i16)> + '_ {
    game.positions().filter(|(pos, m, score)| is_training_position(pos, *m, *score)).map(|(pos, _, s)| (pos, s))
}
