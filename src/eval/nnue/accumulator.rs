//! The feature transformer's output for one position, per perspective: built from the
//! board once, then kept up to date move by move with a few row additions (and rebuilt
//! when a king move changes its side's input bucket).

use shakmaty::{Board, Color, Piece, Role, Square};

use super::features::{Feature, feature_index};
use super::{Block, InputView, MAX_PIECES, Network, kernels};

/// The perspectives in the order of an accumulator's halves.
const PERSPECTIVES: [Color; 2] = [Color::White, Color::Black];

/// Rows gathered for one pass of an incremental update: a move changes at most four pieces.
const MOVE_ROWS: usize = 4;

/// The sums of the active inputs' weight rows and the bias, one half per perspective.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// White's half, then Black's, each `hidden / BLOCK` blocks.
    halves: Box<[Block]>,
    /// How each perspective (White's, then Black's) reads the board: the input bucket and
    /// mirroring its king chose when the accumulator was last built.
    views: [InputView; 2],
}

impl Accumulator {
    /// The accumulator of `board`, built from scratch.
    pub fn new(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            halves: vec![Block([0; super::BLOCK]); 2 * net.blocks()].into_boxed_slice(),
            views: [InputView::plain(Color::White), InputView::plain(Color::Black)],
        };
        acc.refresh(net, board);
        acc
    }

    /// Rebuilds the accumulator from `board` alone.
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        self.views =
            PERSPECTIVES.map(|perspective| net.input_buckets().view_of(perspective, board.king_of(perspective)));
        let (white, black) = self.halves.split_at_mut(net.blocks());
        white.copy_from_slice(&net.feature_bias);
        black.copy_from_slice(&net.feature_bias);
        let mut pieces = [Feature::new(Piece { color: Color::White, role: Role::King }, Square::A1); MAX_PIECES];
        let mut count = 0;
        for (square, piece) in board {
            pieces[count] = Feature::new(piece, square);
            count += 1;
            if count == MAX_PIECES {
                self.apply_rows::<MAX_PIECES>(net, &pieces, &[]);
                count = 0;
            }
        }
        self.apply_rows::<MAX_PIECES>(net, &pieces[..count], &[]);
    }

    /// Becomes a copy of `other`, an accumulator of the same network.
    #[inline]
    pub fn copy_from(&mut self, other: &Accumulator) {
        self.halves.copy_from_slice(&other.halves);
        self.views = other.views;
    }

    /// How `perspective` reads the board in this accumulator.
    #[inline]
    pub fn view(&self, perspective: Color) -> InputView {
        match perspective {
            Color::White => self.views[0],
            Color::Black => self.views[1],
        }
    }

    /// Adds `piece` on `square`; neither this nor [`Accumulator::remove`] may change a
    /// perspective's view (a king move across buckets needs [`Accumulator::refresh`]).
    /// The tests check updates piece by piece with it; the search uses
    /// [`Accumulator::update_from`].
    #[cfg(test)]
    pub fn add(&mut self, net: &Network, piece: Piece, square: Square) {
        self.apply(net, &[Feature::new(piece, square)], &[]);
    }

    /// Takes `piece` off `square`.
    #[cfg(test)]
    pub fn remove(&mut self, net: &Network, piece: Piece, square: Square) {
        self.apply(net, &[], &[Feature::new(piece, square)]);
    }

    /// Adds the `added` pieces and takes off the `removed` ones, in one pass over each
    /// perspective's lanes (see [`super::move_changes`] for a move's changes), each
    /// perspective reading through its view as it stands.
    #[cfg(test)]
    pub fn apply(&mut self, net: &Network, added: &[Feature], removed: &[Feature]) {
        self.apply_rows::<MOVE_ROWS>(net, added, removed);
    }

    /// Becomes `parent`, an accumulator of the same network, with the `added` pieces added
    /// and the `removed` ones taken off (see [`super::move_changes`] for a move's changes),
    /// in one pass that writes each lane once.
    pub fn update_from(&mut self, net: &Network, parent: &Accumulator, added: &[Feature], removed: &[Feature]) {
        debug_assert!(added.len() <= MOVE_ROWS && removed.len() <= MOVE_ROWS);
        self.views = parent.views;
        let (adds, subs) = self.rows_of::<MOVE_ROWS>(added, removed);
        let (white, black) = self.halves.split_at_mut(net.blocks());
        let (parent_white, parent_black) = parent.halves.split_at(net.blocks());
        kernels::update_from(
            [white, black],
            [parent_white, parent_black],
            &net.feature_weights,
            [&adds[0][..added.len()], &adds[1][..added.len()]],
            [&subs[0][..removed.len()], &subs[1][..removed.len()]],
        );
    }

    /// The rows of the `added` and `removed` pieces (at most `N` of each) as each
    /// perspective reads them through its view.
    #[inline]
    fn rows_of<const N: usize>(&self, added: &[Feature], removed: &[Feature]) -> ([[usize; N]; 2], [[usize; N]; 2]) {
        let mut adds = [[0; N]; 2];
        let mut subs = [[0; N]; 2];
        for (p, perspective) in PERSPECTIVES.into_iter().enumerate() {
            let view = self.views[p];
            for (row, f) in adds[p].iter_mut().zip(added) {
                *row = feature_index(view, perspective, f.piece, f.square);
            }
            for (row, f) in subs[p].iter_mut().zip(removed) {
                *row = feature_index(view, perspective, f.piece, f.square);
            }
        }
        (adds, subs)
    }

    /// The lanes of `perspective`.
    #[inline]
    pub fn values(&self, perspective: Color) -> &[Block] {
        let (white, black) = self.halves.split_at(self.halves.len() / 2);
        match perspective {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// Applies the changes `N` rows at a time to both perspectives.
    fn apply_rows<const N: usize>(&mut self, net: &Network, mut added: &[Feature], mut removed: &[Feature]) {
        while !added.is_empty() || !removed.is_empty() {
            let (add_now, add_later) = added.split_at(added.len().min(N));
            let (remove_now, remove_later) = removed.split_at(removed.len().min(N));
            let (adds, subs) = self.rows_of::<N>(add_now, remove_now);
            let (white, black) = self.halves.split_at_mut(net.blocks());
            kernels::update(
                [&mut *white, &mut *black],
                &net.feature_weights,
                [&adds[0][..add_now.len()], &adds[1][..add_now.len()]],
                [&subs[0][..remove_now.len()], &subs[1][..remove_now.len()]],
            );
            (added, removed) = (add_later, remove_later);
        }
    }
}
