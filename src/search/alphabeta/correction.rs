//! Correction history: what searches of positions with the same pawn structure taught
//! about the static evaluation's error, added to it before it steers pruning and quiescence.

use shakmaty::{Chess, Color, Position};

use super::params::{CORRECTION_GRAIN, CORRECTION_SIZE};
use crate::search::tunables;
use crate::value::TB_WIN_BOUND;

/// The murmur3 finaliser: spreads every input bit over the whole word.
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// A hash of the pawn structure: both colours' pawn bitboards, mixed (shakmaty keeps no
/// pawn key, and two multiply-xorshift rounds cost less than maintaining one).
#[inline]
pub fn pawn_key(pos: &Chess) -> u64 {
    let board = pos.board();
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    mix(white ^ mix(black ^ 0x9e37_79b9_7f4a_7c15))
}

/// Per side to move and pawn-structure slot, the running average of (search value −
/// static evaluation), in 1/[`CORRECTION_GRAIN`] centipawns.
pub struct CorrectionHistory(Box<[[i32; CORRECTION_SIZE]; 2]>);

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory(Box::new([[0; CORRECTION_SIZE]; 2]))
    }
}

impl CorrectionHistory {
    fn slot(side: Color, key: u64) -> (usize, usize) {
        (side as usize, (key % CORRECTION_SIZE as u64) as usize)
    }

    /// `raw`, the static evaluation of `pos` for its side to move, corrected; it stays
    /// inside the range of ordinary (non-mate, non-tablebase) values.
    #[inline]
    pub fn corrected(&self, pos: &Chess, raw: i32) -> i32 {
        let (side, index) = Self::slot(pos.turn(), pawn_key(pos));
        (raw + self.0[side][index] / CORRECTION_GRAIN).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// Moves the entry of `pos` towards `target` (a search value at `depth` minus the raw
    /// static evaluation), the more the deeper the search.
    pub fn update(&mut self, pos: &Chess, depth: i32, target: i32) {
        let (side, index) = Self::slot(pos.turn(), pawn_key(pos));
        let weight = (depth + 1).min(tunables::correction_weight_max());
        let sum = tunables::correction_weight_sum();
        let entry = &mut self.0[side][index];
        let averaged = (*entry * (sum - weight) + target * CORRECTION_GRAIN * weight) / sum;
        let bound = tunables::correction_max() * CORRECTION_GRAIN;
        *entry = averaged.clamp(-bound, bound);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = CorrectionHistory::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn pawn_key_sees_pawns_only() {
        let start = Chess::default();
        let knight_out = pos("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        let pawn_out = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(pawn_key(&start), pawn_key(&knight_out));
        assert_ne!(pawn_key(&start), pawn_key(&pawn_out));
        // The colours count: the same squares with the pawns' colours swapped differ.
        let a = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        let b = pos("4k3/8/8/3P4/4p3/8/8/4K3 w - - 0 1");
        assert_ne!(pawn_key(&a), pawn_key(&b));
    }

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let start = Chess::default();
        let mut table = CorrectionHistory::default();
        assert_eq!(table.corrected(&start, 10), 10);
        for _ in 0..200 {
            table.update(&start, 10, 40);
        }
        assert!((49..=50).contains(&table.corrected(&start, 10)), "the average of +40 is learned");
        let black = pos("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        assert_eq!(table.corrected(&black, 10), 10, "the other side to move has its own entries");
        for _ in 0..200 {
            table.update(&start, 20, 10_000);
        }
        assert_eq!(table.corrected(&start, 0), tunables::correction_max());
    }
}
