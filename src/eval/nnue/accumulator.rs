//! The feature transformer's output for one position, per perspective: built from the
//! board once, then kept up to date move by move with a few row additions.

use shakmaty::{Board, Color, Piece, Role, Square};

use super::features::{Feature, feature_index};
use super::{Lanes, Network, kernels};

/// Rows gathered for one pass of an incremental update: a move changes at most four pieces.
const MOVE_ROWS: usize = 4;
/// Rows gathered for one pass of a refresh: every piece of a legal position.
const BOARD_ROWS: usize = 32;

/// The sums of the active inputs' weight rows and the bias, one per perspective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    white: Lanes,
    black: Lanes,
}

impl Accumulator {
    /// The accumulator of `board`, built from scratch.
    pub fn new(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator { white: net.feature_bias, black: net.feature_bias };
        acc.refresh(net, board);
        acc
    }

    /// Rebuilds the accumulator from `board` alone.
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        self.white = net.feature_bias;
        self.black = net.feature_bias;
        let mut pieces = [Feature::new(Piece { color: Color::White, role: Role::King }, Square::A1); BOARD_ROWS];
        let mut count = 0;
        for (square, piece) in board {
            pieces[count] = Feature::new(piece, square);
            count += 1;
            if count == BOARD_ROWS {
                self.apply_rows::<BOARD_ROWS>(net, &pieces, &[]);
                count = 0;
            }
        }
        self.apply_rows::<BOARD_ROWS>(net, &pieces[..count], &[]);
    }

    /// Adds `piece` on `square`.
    pub fn add(&mut self, net: &Network, piece: Piece, square: Square) {
        self.apply(net, &[Feature::new(piece, square)], &[]);
    }

    /// Takes `piece` off `square`.
    pub fn remove(&mut self, net: &Network, piece: Piece, square: Square) {
        self.apply(net, &[], &[Feature::new(piece, square)]);
    }

    /// Adds the `added` pieces and takes off the `removed` ones, in one pass over each
    /// perspective's lanes (see [`super::move_changes`] for a move's changes).
    pub fn apply(&mut self, net: &Network, added: &[Feature], removed: &[Feature]) {
        self.apply_rows::<MOVE_ROWS>(net, added, removed);
    }

    /// The lanes of `perspective`.
    pub fn values(&self, perspective: Color) -> &Lanes {
        match perspective {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// Applies the changes `N` rows at a time to both perspectives.
    fn apply_rows<const N: usize>(&mut self, net: &Network, mut added: &[Feature], mut removed: &[Feature]) {
        let mut adds = [[0; N]; 2];
        let mut subs = [[0; N]; 2];
        while !added.is_empty() || !removed.is_empty() {
            let (add_now, add_later) = added.split_at(added.len().min(N));
            let (remove_now, remove_later) = removed.split_at(removed.len().min(N));
            for (p, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
                for (row, f) in adds[p].iter_mut().zip(add_now) {
                    *row = feature_index(perspective, f.piece, f.square);
                }
                for (row, f) in subs[p].iter_mut().zip(remove_now) {
                    *row = feature_index(perspective, f.piece, f.square);
                }
            }
            kernels::update(
                [&mut self.white, &mut self.black],
                &net.feature_weights,
                [&adds[0][..add_now.len()], &adds[1][..add_now.len()]],
                [&subs[0][..remove_now.len()], &subs[1][..remove_now.len()]],
            );
            (added, removed) = (add_later, remove_later);
        }
    }
}
